import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { TimestampAuthorities } from '../seal/timestamp-authority.js';
import { envelopeSeal, sealProblem } from './envelope-seal.js';

const servers: Server[] = [];
afterAll(() => Promise.all(servers.map((s) => new Promise((done) => s.close(done)))));

/** A loopback server answering every request with `status` and `body`; its address. */
async function answering(status: number, body: string): Promise<string> {
  const server = createServer((_request, response) => {
    response.writeHead(status, { 'content-type': 'application/timestamp-reply' }).end(body);
  });
  servers.push(server);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
}

/** An address nothing listens on: a port that was just given back. */
async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise((closed) => server.close(closed));
  return `http://127.0.0.1:${port}/tsa`;
}

/** The message the sealer records when the authorities at `urls` give no timestamp. */
async function timestampFailure(...urls: string[]): Promise<string> {
  const authorities = new TimestampAuthorities({
    urls,
    username: undefined,
    password: undefined,
    clientCertificate: undefined,
    trustedCertificates: [],
    timeoutMs: 2_000,
  });
  const error = await authorities.timestamp(new Uint8Array(32)).then(
    () => undefined,
    (e: Error) => e,
  );
  expect(error).toBeInstanceOf(Error);
  return (error as Error).message;
}

describe('sealProblem', () => {
  it('reads a timestamp authority that is down or answers with an error status as unreachable', async () => {
    expect(sealProblem(await timestampFailure(await closedPort()), 'builtin')).toBe('timestamp_unreachable');
    expect(sealProblem(await timestampFailure(await answering(503, 'Wartung')), 'builtin')).toBe(
      'timestamp_unreachable',
    );
  });

  it('reads an authority that answers something other than a timestamp as invalid, also beside one that is down', async () => {
    const garbage = await answering(200, '<html>kein Zeitstempel</html>');
    expect(sealProblem(await timestampFailure(garbage), 'builtin')).toBe('timestamp_invalid');
    expect(sealProblem(await timestampFailure(await closedPort(), garbage), 'builtin')).toBe(
      'timestamp_invalid',
    );
  });

  it('reads missing revocation data, failed contract pages, DocuSign and anything else', () => {
    expect(sealProblem('no revocation data for CN=Test-CA Vertragsgenerator', 'builtin')).toBe(
      'validation_data',
    );
    expect(sealProblem('TSA certificate chain incomplete: issuer not found', 'builtin')).toBe(
      'validation_data',
    );
    expect(sealProblem('LibreOffice: source file could not be loaded', 'builtin')).toBe('contract_pages');
    expect(sealProblem('DocuSign ist nicht erreichbar.', 'docusign')).toBe('docusign');
    expect(sealProblem('Siegel nicht verfügbar', 'builtin')).toBe('other');
  });
});

describe('envelopeSeal', () => {
  const completed = {
    provider: 'builtin' as const,
    completed: true,
    sealed: true,
    seal_level: 'B-LTA' as const,
    seal_error: null,
  };

  it('gives the level of a sealed envelope, and nothing for one not completed', () => {
    expect(envelopeSeal(completed)).toEqual({ state: 'sealed', level: 'B-LTA' });
    expect(envelopeSeal({ ...completed, seal_level: 'B-B' })).toEqual({ state: 'sealed', level: 'B-B' });
    expect(envelopeSeal({ ...completed, completed: false, sealed: false, seal_level: null })).toBeNull();
  });

  it('says pending until the PDF is stored, with the reason of the last failed attempt', () => {
    const unsealed = { ...completed, sealed: false, seal_level: null };
    expect(envelopeSeal(unsealed)).toEqual({ state: 'pending', problem: null });
    expect(envelopeSeal({ ...unsealed, seal_error: 'Kein gültiger Zeitstempel: x: HTTP 502' })).toEqual({
      state: 'pending',
      problem: 'timestamp_unreachable',
    });
  });

  it("tells DocuSign's sealed document from ours", () => {
    const docusign = { ...completed, provider: 'docusign' as const, seal_level: null };
    expect(envelopeSeal(docusign)).toEqual({ state: 'docusign' });
    expect(envelopeSeal({ ...docusign, sealed: false, seal_error: 'HTTP 500' })).toEqual({
      state: 'pending',
      problem: 'docusign',
    });
  });
});
