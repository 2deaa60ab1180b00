import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A file as Salesforce stored it from a ContentVersion POST. */
export interface StubFile {
  id: string;
  /** The ContentDocument Salesforce made for the version (`069…`). */
  contentDocumentId: string;
  title: string;
  pathOnClient: string;
  firstPublishLocationId: string;
  bytes: Buffer;
  md5: string;
}

/** A ContentDocumentLink: a file shared with a record (`LinkedEntityId`). */
export interface StubLink {
  id: string;
  contentDocumentId: string;
  linkedEntityId: string;
  shareType: string;
  /** Made by Salesforce for `FirstPublishLocationId`, or by a `POST sobjects/ContentDocumentLink`. */
  createdBy: 'first-publish' | 'request';
}

/** A field of the object as describe() lists it. */
export interface StubField {
  name: string;
  type: string;
  updateable: boolean;
}

/**
 * Salesforce's REST API as its documentation describes it: the OAuth 2.0 token endpoint (client
 * credentials; only the most recently issued token is valid, as after a session timeout), SOQL queries
 * (the match lookup over `records`, the object's `Id` by match ID, ContentVersion by
 * `FirstPublishLocationId` and `Checksum` or its `ContentDocumentId` by `Id`, ContentDocumentLink by
 * `LinkedEntityId` and `ContentDocumentId`), `POST sobjects/ContentVersion` (201 `{id, success,
 * errors}`; a ContentDocument for it, and with `FirstPublishLocationId` a ContentDocumentLink to that
 * record, as Salesforce makes them), `POST sobjects/ContentDocumentLink`, `PATCH
 * sobjects/<object>/<id>` (204), `GET sobjects/<object>/describe`, and errors as Salesforce sends them
 * (`[{ message, errorCode }]`). It keeps what it received, and can fail as a real org does: 5xx
 * answers, stalled bodies, a restriction that refuses every token, maintenance, a file's link to its
 * record removed after the upload.
 */
export class SalesforceStub {
  readonly files: StubFile[] = [];
  readonly links: StubLink[] = [];
  readonly patches: { object: string; id: string; body: Record<string, unknown> }[] = [];
  /** Match ID (the `Name` field) → record id, for the write-back. */
  readonly recordIds = new Map<string, string>([['PL-4711', 'a0B5g00000XyZabEAF']]);
  /** The records a lookup query finds by `Name`. */
  records: Record<string, unknown>[] = [];
  tokensIssued = 0;
  validToken = '';
  /** The SOQL of every query that was let in. */
  readonly queries: string[] = [];
  readonly tokenRequests: URLSearchParams[] = [];
  /** Status codes the next lookup queries answer with before answering normally. */
  failQueries: number[] = [];
  tokenStatus = 200;
  /** The next this many lookup queries send their headers and a part of the body, then nothing more. */
  stallQueries = 0;
  /** Every request answers 401, whatever the token: an IP restriction or a wrong instance. */
  refuseEveryToken = false;
  /** Queries sent, refused ones included. */
  queryAttempts = 0;
  /**
   * Records per answer of a lookup by `IN (…)`: a larger result comes in batches, each but the last with
   * `done: false` and the `nextRecordsUrl` of the next, as Salesforce pages a query's result.
   */
  pageSize = 2_000;
  /** The `nextRecordsUrl`s requested. */
  readonly pageRequests: string[] = [];
  private readonly pages = new Map<string, Record<string, unknown>[]>();
  private pagesMade = 0;
  fields: StubField[] = [
    { name: 'Id', type: 'id', updateable: false },
    { name: 'Name', type: 'string', updateable: false },
    { name: 'Vertragsstatus__c', type: 'picklist', updateable: true },
    { name: 'Vertragsstatus_geaendert_am__c', type: 'datetime', updateable: true },
    { name: 'Vertrag_unterschrieben_am__c', type: 'date', updateable: true },
  ];
  /** While true, every request answers 503 SERVER_UNAVAILABLE, as during maintenance. */
  down = false;
  /** The next uploads answer this (status and Salesforce's error), e.g. a file too large. */
  refuseUploads: { status: number; errorCode: string; message: string } | undefined;
  /** The next this many PATCHes answer 503. */
  failPatches = 0;
  uploadAttempts = 0;
  /**
   * The next this many uploads lose the link to their record right after it was made, as when a
   * trigger or an administrator deletes it: the file exists, the record does not show it.
   */
  unlinkUploads = 0;
  private readonly server: Server = createServer((request, response) => void this.handle(request, response));

  constructor(
    readonly object = 'Match__c',
    readonly apiVersion = '62.0',
  ) {}

  /** Listens on loopback; on `port` when given (a browser test's app server is configured with it). */
  async start(port = 0): Promise<this> {
    this.server.listen(port, '127.0.0.1');
    await once(this.server, 'listening');
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  expireToken(): void {
    this.validToken = 'expired-everywhere';
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const json = (status: number, body?: unknown): void => {
      if (body === undefined) response.writeHead(status).end();
      else response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const error = (status: number, errorCode: string, message: string) =>
      json(status, [{ message, errorCode }]);
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    if (this.down) return error(503, 'SERVER_UNAVAILABLE', 'Server unavailable');
    const url = new URL(request.url ?? '/', this.url);
    if (request.method === 'POST' && url.pathname === '/services/oauth2/token') {
      const params = new URLSearchParams(text);
      this.tokenRequests.push(params);
      if (this.tokenStatus !== 200) return json(this.tokenStatus, { error: 'invalid_client' });
      if (params.get('grant_type') !== 'client_credentials')
        return json(400, { error: 'unsupported_grant_type' });
      this.validToken = `token-${++this.tokensIssued}`;
      return json(200, {
        access_token: this.validToken,
        instance_url: this.url,
        id: `${this.url}/id/00D000000000001/005000000000001`,
        token_type: 'Bearer',
      });
    }
    const isQuery = request.method === 'GET' && url.pathname === `/services/data/v${this.apiVersion}/query`;
    if (isQuery) this.queryAttempts++;
    if (this.refuseEveryToken || request.headers.authorization !== `Bearer ${this.validToken}`)
      return error(401, 'INVALID_SESSION_ID', 'Session expired or invalid');
    const api = `/services/data/v${this.apiVersion}`;
    if (request.method === 'GET' && url.pathname === `${api}/sobjects/${this.object}/describe`) {
      return json(200, { name: this.object, fields: this.fields });
    }
    const page = new RegExp(`^${api}/query/(01g[A-Za-z0-9-]+)$`).exec(url.pathname);
    if (request.method === 'GET' && page) {
      this.pageRequests.push(url.pathname);
      const rest = this.pages.get(page[1] as string);
      if (!rest) return error(400, 'INVALID_QUERY_LOCATOR', 'invalid query locator');
      this.pages.delete(page[1] as string);
      return json(200, this.firstPage(rest, rest.length));
    }
    if (request.method === 'GET' && url.pathname === `${api}/query`) {
      const soql = url.searchParams.get('q') ?? '';
      this.queries.push(soql);
      const byName = new RegExp(`^SELECT Id FROM ${this.object} WHERE Name = '([^']*)' LIMIT 1$`).exec(soql);
      if (byName) {
        const id = this.recordIds.get(byName[1] as string);
        const records = id ? [{ attributes: { type: this.object }, Id: id }] : [];
        return json(200, { totalSize: records.length, done: true, records });
      }
      const file =
        /^SELECT Id FROM ContentVersion WHERE FirstPublishLocationId = '([^']*)' AND Checksum = '([0-9a-f]*)' LIMIT 1$/.exec(
          soql,
        );
      if (file) {
        const records = this.files
          .filter((f) => f.firstPublishLocationId === file[1] && f.md5 === file[2])
          .map((f) => ({ attributes: { type: 'ContentVersion' }, Id: f.id }));
        return json(200, { totalSize: records.length, done: true, records });
      }
      const document = /^SELECT ContentDocumentId FROM ContentVersion WHERE Id = '([^']*)' LIMIT 1$/.exec(
        soql,
      );
      if (document) {
        const records = this.files
          .filter((f) => f.id === document[1])
          .map((f) => ({ attributes: { type: 'ContentVersion' }, ContentDocumentId: f.contentDocumentId }));
        return json(200, { totalSize: records.length, done: true, records });
      }
      const link =
        /^SELECT Id FROM ContentDocumentLink WHERE LinkedEntityId = '([^']*)' AND ContentDocumentId = '([^']*)' LIMIT 1$/.exec(
          soql,
        );
      if (link) {
        const records = this.links
          .filter((l) => l.linkedEntityId === link[1] && l.contentDocumentId === link[2])
          .map((l) => ({ attributes: { type: 'ContentDocumentLink' }, Id: l.id }));
        return json(200, { totalSize: records.length, done: true, records });
      }
      if (this.stallQueries > 0) {
        this.stallQueries--;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"totalSize":1,"done":true,"records":[');
        return;
      }
      const failure = this.failQueries.shift();
      if (failure) return error(failure, 'SERVER_UNAVAILABLE', 'Server unavailable');
      const many = / WHERE Name IN \((.*)\)$/.exec(soql);
      if (many) {
        // SOQL compares text without regard to case.
        const names = new Set(soqlLiterals(many[1] as string).map((name) => name.toLowerCase()));
        const records = this.records.filter((record) => names.has(String(record.Name).toLowerCase()));
        return json(200, this.firstPage(records, records.length));
      }
      const lookup = /WHERE Name = '(.*)' LIMIT 1$/.exec(soql);
      if (!lookup) return error(400, 'MALFORMED_QUERY', `unexpected query: ${soql}`);
      const records = this.records.filter((record) => record.Name === lookup[1]);
      return json(200, { totalSize: records.length, done: true, records });
    }
    if (request.method === 'POST' && url.pathname === `${api}/sobjects/ContentVersion`) {
      this.uploadAttempts++;
      if (this.refuseUploads) {
        const { status, errorCode, message } = this.refuseUploads;
        return error(status, errorCode, message);
      }
      const body = JSON.parse(text) as Record<string, string>;
      const location = body.FirstPublishLocationId ?? '';
      if (![...this.recordIds.values()].includes(location))
        return error(
          400,
          'FIELD_INTEGRITY_EXCEPTION',
          'First Publish Location ID: id value of incorrect type',
        );
      const bytes = Buffer.from(body.VersionData ?? '', 'base64');
      const id = `0685g0000${String(this.files.length + 1).padStart(9, '0')}`;
      const contentDocumentId = `0695g0000${String(this.files.length + 1).padStart(9, '0')}`;
      if (this.unlinkUploads > 0) this.unlinkUploads--;
      else this.link(contentDocumentId, location, 'V', 'first-publish');
      this.files.push({
        id,
        contentDocumentId,
        title: body.Title ?? '',
        pathOnClient: body.PathOnClient ?? '',
        firstPublishLocationId: location,
        bytes,
        md5: createHash('md5').update(bytes).digest('hex'),
      });
      return json(201, { id, success: true, errors: [] });
    }
    if (request.method === 'POST' && url.pathname === `${api}/sobjects/ContentDocumentLink`) {
      const body = JSON.parse(text) as Record<string, string>;
      const documentId = body.ContentDocumentId ?? '';
      const entity = body.LinkedEntityId ?? '';
      if (!this.files.some((f) => f.contentDocumentId === documentId))
        return error(400, 'INVALID_CROSS_REFERENCE_KEY', 'invalid cross reference id');
      if (![...this.recordIds.values()].includes(entity))
        return error(400, 'FIELD_INTEGRITY_EXCEPTION', 'Linked Entity ID: id value of incorrect type');
      if (!['V', 'C', 'I'].includes(body.ShareType ?? ''))
        return error(
          400,
          'INVALID_OR_NULL_FOR_RESTRICTED_PICKLIST',
          'Share Type: bad value for restricted picklist field',
        );
      if (this.links.some((l) => l.contentDocumentId === documentId && l.linkedEntityId === entity))
        return error(
          400,
          'DUPLICATE_VALUE',
          'duplicate value found: ContentDocumentId duplicates value on record',
        );
      const created = this.link(documentId, entity, body.ShareType as string, 'request');
      return json(201, { id: created.id, success: true, errors: [] });
    }
    const record = new RegExp(`^${api}/sobjects/${this.object}/([A-Za-z0-9]+)$`).exec(url.pathname);
    if (request.method === 'PATCH' && record) {
      if (this.failPatches > 0) {
        this.failPatches--;
        return error(503, 'SERVER_UNAVAILABLE', 'Server unavailable');
      }
      const id = record[1] as string;
      if (![...this.recordIds.values()].includes(id))
        return error(404, 'NOT_FOUND', 'The requested resource does not exist');
      const body = JSON.parse(text) as Record<string, unknown>;
      const known = new Set(this.fields.map((f) => f.name));
      const unknown = Object.keys(body).find((name) => !known.has(name));
      if (unknown)
        return error(400, 'INVALID_FIELD', `No such column '${unknown}' on sobject of type ${this.object}`);
      this.patches.push({ object: this.object, id, body });
      return json(204);
    }
    error(404, 'NOT_FOUND', 'The requested resource does not exist');
  }

  /** The first `pageSize` records; the rest kept for the `nextRecordsUrl` of the answer. */
  private firstPage(records: Record<string, unknown>[], totalSize: number): Record<string, unknown> {
    if (records.length <= this.pageSize) return { totalSize, done: true, records };
    const locator = `01gSTUB${++this.pagesMade}-${this.pageSize}`;
    this.pages.set(locator, records.slice(this.pageSize));
    return {
      totalSize,
      done: false,
      nextRecordsUrl: `/services/data/v${this.apiVersion}/query/${locator}`,
      records: records.slice(0, this.pageSize),
    };
  }

  private link(
    contentDocumentId: string,
    linkedEntityId: string,
    shareType: string,
    createdBy: StubLink['createdBy'],
  ): StubLink {
    const link = {
      id: `06A5g0000${String(this.links.length + 1).padStart(9, '0')}`,
      contentDocumentId,
      linkedEntityId,
      shareType,
      createdBy,
    };
    this.links.push(link);
    return link;
  }
}

/** The values of a comma-separated list of SOQL string literals, their escapes undone. */
function soqlLiterals(list: string): string[] {
  const named: Record<string, string> = { n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
  return [...list.matchAll(/'((?:[^'\\]|\\.)*)'/g)].map(([, body]) =>
    (body as string).replace(/\\(.)/g, (_, char: string) => named[char] ?? char),
  );
}
