import { execFileSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { ResolvedMatch } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config/config.js';
import { ConfigError } from '../../config/support.js';
import type { Db } from '../../db/database.js';
import { MailOutbox } from '../../mail/mail-outbox.js';
import { MatchStore } from '../../matches/match-store.js';
import { richestDemoMatch } from '../../templates/samples.js';
import { pgliteTestDatabase } from '../../test/databases.js';
import { eventually } from '../../test/eventually.js';
import { newKeyAndRequest } from '../../test/openssl-args.js';
import { sentPartnerEnvelope, signWithLink } from '../../test/partner-envelope.js';
import { contractPdf, openssl as opensslIn, pdfsig } from '../../test/pdf-tools.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { startTestPki, type TestPki } from '../../test/test-pki.js';
import { EnvelopesRepository } from '../envelopes-repository.js';
import { EnvelopeSealer } from './envelope-sealer.js';
import { pdfSignatureParts } from './pdf-signature-parts.js';
import { createSelfSignedSeal, type SealCertificate } from './seal-certificate.js';
import { sealPdf } from './seal-pdf.js';
import { loadSeal } from './seal-store.js';
import { sealedEnvelopePdf } from './sealed-envelope-pdf.js';
import { TimestampAuthorities, TimestampError } from './timestamp-authority.js';

const DETAILS = {
  reason: 'Von allen unterschrieben: Rahmenvertrag PL-10001',
  location: 'https://vertraege.firma.example',
  contact: 'https://vertraege.firma.example',
  signingTime: new Date('2026-11-27T09:30:00Z'),
};
const PASSWORD = 'tsa-geheim';
const CLIENT = 'Vertragsgenerator TSA-Client';
const quiet = { warn() {} };

function openssl(...args: string[]): void {
  execFileSync('openssl', args, { stdio: ['ignore', 'pipe', 'pipe'] });
}

/**
 * A CA of the test's own for TLS, as a company PKI would have: its certificate, and certificates it
 * issues (a server's for 127.0.0.1, a client's as PKCS#12).
 */
function tlsCa(dir: string, name: string) {
  const file = (f: string) => join(dir, `${name}-${f}`);
  writeFileSync(
    file('ext.cnf'),
    [
      '[server]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature, keyEncipherment',
      'extendedKeyUsage = serverAuth',
      'subjectAltName = IP:127.0.0.1',
      '[client]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = clientAuth',
      '',
    ].join('\n'),
  );
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
    '-days',
    '30',
    '-subj',
    `/CN=${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  const issue = (who: string, subject: string, extensions: 'server' | 'client') => {
    openssl(...newKeyAndRequest(file(`${who}.key`), file(`${who}.csr`), `/CN=${subject}`));
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${who}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-out',
      file(`${who}.pem`),
      '-days',
      '30',
      '-extfile',
      file('ext.cnf'),
      '-extensions',
      extensions,
    );
  };
  return {
    caFile: file('ca.pem'),
    server(): { key: Buffer; cert: Buffer } {
      issue('server', '127.0.0.1', 'server');
      return { key: readFileSync(file('server.key')), cert: readFileSync(file('server.pem')) };
    },
    /** A client certificate as PKCS#12 file, the form TSA_CLIENT_P12_FILE takes. */
    clientP12(subject: string): string {
      issue('client', subject, 'client');
      openssl(
        'pkcs12',
        '-export',
        '-inkey',
        file('client.key'),
        '-in',
        file('client.pem'),
        '-out',
        file('client.p12'),
        '-passout',
        `pass:${PASSWORD}`,
      );
      return file('client.p12');
    },
  };
}

let dir: string;
let pki: TestPki;
let seal: SealCertificate;
let server: Server;
let tsaUrl: string;
let caFile: string;
let clientP12: string;
let strangerP12: string;
/** The subjects of the client certificates the HTTPS TSA accepted, one per request it answered. */
const accepted: string[] = [];

/**
 * The HTTPS TSA: asks for a client certificate and refuses any not issued by the test's TLS CA
 * (`requestCert`, `rejectUnauthorized`), then passes the query on to the test PKI's `openssl ts -reply`.
 */
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'vg-tsa-tls-'));
  [pki, seal] = await Promise.all([
    startTestPki(),
    createSelfSignedSeal('Vertragsgenerator-Siegel TLS-Test'),
  ]);
  const ca = tlsCa(dir, 'Test-TLS-CA');
  caFile = ca.caFile;
  clientP12 = ca.clientP12(CLIENT);
  strangerP12 = tlsCa(dir, 'Fremde-CA').clientP12(CLIENT);
  server = createServer(
    { ...ca.server(), ca: readFileSync(caFile), requestCert: true, rejectUnauthorized: true },
    async (request, response) => {
      const chunks: Buffer[] = [];
      for await (const chunk of request) chunks.push(chunk as Buffer);
      accepted.push(new X509Certificate((request.socket as TLSSocket).getPeerCertificate().raw).subject);
      const answer = await fetch(pki.tsaUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/timestamp-query' },
        body: Buffer.concat(chunks),
      });
      response
        .writeHead(answer.status, { 'content-type': 'application/timestamp-reply' })
        .end(Buffer.from(await answer.arrayBuffer()));
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  tsaUrl = `https://127.0.0.1:${(server.address() as AddressInfo).port}/tsa`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await pki.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The timestamping the configuration makes of these TSA_* variables, as the server would. */
function timestamping(env: Record<string, string>) {
  const settings = loadConfig({ TSA_URL: tsaUrl, TSA_TIMEOUT_SECONDS: '5', ...env }, '0').seal.timestamps;
  if (!settings) throw new Error('TSA_URL is set');
  return { authorities: new TimestampAuthorities(settings), renewDaysBefore: 90 };
}
const withClient = () =>
  timestamping({
    TSA_CLIENT_P12_FILE: clientP12,
    TSA_CLIENT_P12_PASSWORD: PASSWORD,
    TSA_TLS_CA_FILE: caFile,
  });

/** `openssl ts -verify` of a document timestamp over its signed bytes, against the test PKI's CA. */
async function timestampVerifies(token: Buffer, content: Buffer): Promise<boolean> {
  const { output } = await opensslIn(
    ['ts', '-verify', '-data', 'content.bin', '-in', 'token.der', '-token_in', '-CAfile', 'ca.pem'],
    { 'token.der': token, 'content.bin': content, 'ca.pem': pki.caPem },
  );
  return /Verification: OK/.test(output);
}

describe('a timestamp authority that asks for a client certificate over HTTPS', () => {
  it('is reached with TSA_CLIENT_P12_FILE and TSA_TLS_CA_FILE: the seal is B-LTA, its timestamps hold', async () => {
    const before = accepted.length;
    const sealed = await sealPdf(await contractPdf(), seal, DETAILS, withClient());
    expect(sealed.level).toBe('B-LTA');
    // Two tokens: the signature's and the document timestamp, both over the client certificate.
    expect(accepted.slice(before)).toEqual([`CN=${CLIENT}`, `CN=${CLIENT}`]);

    const [signature, documentTimestamp] = pdfSignatureParts(sealed.pdf);
    if (!signature || !documentTimestamp) throw new Error('expected a signature and a document timestamp');
    const { output } = await opensslIn(['cms', '-cmsout', '-print', '-inform', 'DER', '-in', 'sig.der'], {
      'sig.der': signature.cms,
    });
    expect(output.slice(output.indexOf('unsignedAttrs:'))).toMatch(/id-smime-aa-timeStampToken/);
    expect(await timestampVerifies(documentTimestamp.cms, documentTimestamp.signedBytes)).toBe(true);
    expect(await pdfsig(sealed.pdf)).toMatch(
      /Signature #1:[\s\S]*Signature is Valid\.[\s\S]*Signature #2:[\s\S]*Test-TSA Vertragsgenerator/,
    );
  });

  const refusals = [
    ['without a client certificate', () => timestamping({ TSA_TLS_CA_FILE: caFile })],
    [
      'with a client certificate of another CA',
      () =>
        timestamping({
          TSA_CLIENT_P12_FILE: strangerP12,
          TSA_CLIENT_P12_PASSWORD: PASSWORD,
          TSA_TLS_CA_FILE: caFile,
        }),
    ],
    [
      // The TSA's server certificate is of no CA the system knows: not trusted, not asked.
      'without TSA_TLS_CA_FILE',
      () => timestamping({ TSA_CLIENT_P12_FILE: clientP12, TSA_CLIENT_P12_PASSWORD: PASSWORD }),
    ],
  ] as const;

  it.each(refusals)('%s: no token, no seal, never a weaker one', async (_, settings) => {
    const before = accepted.length;
    const failing = sealPdf(await contractPdf(), seal, DETAILS, settings());
    await expect(failing).rejects.toThrow(TimestampError);
    await expect(failing).rejects.toThrow(new RegExp(`Kein gültiger Zeitstempel: ${tsaUrl}: `));
    expect(accepted.length).toBe(before);
  });

  it('stops the start on a client certificate its password does not open', () => {
    const start = () =>
      loadConfig({ TSA_URL: tsaUrl, TSA_CLIENT_P12_FILE: clientP12, TSA_CLIENT_P12_PASSWORD: 'falsch' }, '0');
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/TSA_CLIENT_P12_FILE: cannot be opened with TSA_CLIENT_P12_PASSWORD/);
    expect(() => loadConfig({ TSA_TLS_CA_FILE: caFile }, '0')).toThrow(
      /TSA_TLS_CA_FILE: set without TSA_URL/,
    );
  });
});

/**
 * Through the app, as the other failing TSAs: the server configured without the client certificate
 * completes the envelope, keeps it unsealed with the reason and its mail waiting; with it, B-LTA.
 */
describe('sealing an envelope through a TSA that wants a client certificate', () => {
  const partner = { name: 'Tilda Tls', email: 'tilda@partner.example' };
  let db: Db;
  let t: TestApp;
  let match: ResolvedMatch;

  beforeAll(async () => {
    const { configDir } = loadConfig({}, '0');
    match = await richestDemoMatch(join(configDir, 'demo-matches.json'));
    db = await pgliteTestDatabase.open();
    await new MatchStore(db).upsertMany([match]);
    t = await createTestApp(db, {
      env: { TSA_URL: tsaUrl, TSA_TLS_CA_FILE: caFile, TSA_TIMEOUT_SECONDS: '2' },
      demoStaff: true,
    });
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const row = (id: string) =>
    db
      .selectFrom('envelopes')
      .select(['status', 'sealed_pdf', 'seal_level', 'seal_error'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  it('waits, unsealed and unmailed, until the certificate is configured, then seals B-LTA', async () => {
    const berater = await t.signIn('berater@demo.local');
    const { id, link } = await sentPartnerEnvelope(t, { token: berater, matchId: match.matchId, partner });
    await signWithLink(t, link, partner.name);
    const failed = await eventually('the failed seal', async () => {
      const found = await row(id);
      return found.seal_error ? found : undefined;
    });
    expect(failed).toMatchObject({ status: 'completed', sealed_pdf: null, seal_level: null });
    expect(failed.seal_error).toMatch(/Kein gültiger Zeitstempel/);
    const completionMails = () =>
      t.mailer.sent.filter((m) => m.attachments?.some((a) => a.filename.endsWith('.pdf')));
    expect(completionMails()).toEqual([]);

    await db.updateTable('envelopes').set({ seal_due_at: sql<Date>`now()` }).where('id', '=', id).execute();
    const sealSecret = await loadSeal(db, { commonName: 'nicht benutzt' });
    const sealer = new EnvelopeSealer({
      db,
      envelopes: new EnvelopesRepository(db),
      outbox: new MailOutbox(db, t.mailer, 'support@demo.local', quiet),
      seal: (envelope, sealedAt) =>
        sealedEnvelopePdf(envelope, {
          seal: sealSecret,
          publicUrl: 'https://vertraege.firma.example',
          sealedAt,
          timestamping: withClient(),
        }),
      log: quiet,
    });
    expect(await sealer.sealDue()).toBe(1);
    const sealed = await row(id);
    expect(sealed).toMatchObject({ seal_level: 'B-LTA', seal_error: null });
    expect(await pdfsig(sealed.sealed_pdf ?? new Uint8Array())).toMatch(
      /Signature #2:[\s\S]*Test-TSA Vertragsgenerator/,
    );
  });
});
