import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import { SalesforceStub } from '../apps/server/src/test/salesforce-stub.js';
import { SALESFORCE_MATCH_ID, SALESFORCE_RECORD, SALESFORCE_RECORD_ID } from './salesforce-match.js';

/**
 * The Salesforce of the browser tests' third server (CRM_KIND=salesforce), started before that server,
 * which asks it for the object's fields at start: the API tests' stub on `<port>`, holding the record of
 * e2e/salesforce-match.ts, and on `<inspection port>` `GET /state`, what it received and made, for the spec in
 * another process. Runs until Playwright stops it.
 */
const [port, inspectionPort] = process.argv.slice(2).map(Number);
if (!port || !inspectionPort) throw new Error('usage: salesforce-stub-server.ts <port> <inspection port>');

const stub = new SalesforceStub();
stub.records = [SALESFORCE_RECORD];
stub.recordIds.set(SALESFORCE_MATCH_ID, SALESFORCE_RECORD_ID);
await stub.start(port);

/** What the stub received; a file's bytes in base64 with their SHA-256. */
export interface SalesforceStubState {
  files: {
    id: string;
    contentDocumentId: string;
    title: string;
    pathOnClient: string;
    firstPublishLocationId: string;
    sha256: string;
    base64: string;
  }[];
  /** The files' links to records (ContentDocumentLink), Salesforce's and those asked for. */
  links: SalesforceStub['links'];
  patches: { object: string; id: string; body: Record<string, unknown> }[];
  queries: string[];
}

const inspection = createServer((request, response) => {
  if (request.method !== 'GET' || request.url !== '/state') {
    response.writeHead(404).end();
    return;
  }
  const state: SalesforceStubState = {
    files: stub.files.map(({ bytes, md5: _md5, ...file }) => ({
      ...file,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      base64: bytes.toString('base64'),
    })),
    links: stub.links,
    patches: stub.patches,
    queries: stub.queries,
  };
  response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state));
});
inspection.listen(inspectionPort, '127.0.0.1');
await once(inspection, 'listening');

process.on('SIGTERM', () => {
  inspection.close();
  stub.stop().finally(() => process.exit(0));
});
