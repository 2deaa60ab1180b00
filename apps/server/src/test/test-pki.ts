import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newKeyAndRequest } from './openssl-args.js';
import { type TsaBehaviour, timestampReplies } from './test-tsa.js';

export type { TsaBehaviour };

const run = promisify(execFile);

/**
 * A small public-key infrastructure of its own on loopback, run by Debian's `openssl`: a CA, a timestamp
 * authority answering RFC 3161 requests (`openssl ts -reply`), an OCSP responder (`openssl ocsp`) for the
 * CA's certificates, and company certificates issued by the CA that name that responder. Outside tools
 * answer, so the seal is checked against what real TSAs and responders send.
 */
export interface TestPki {
  /** The TSA's address (`TSA_URL`). */
  tsaUrl: string;
  /** The CA's certificate, PEM. */
  caPem: string;
  /** How the TSA answers from now on. */
  tsa(behaviour: TsaBehaviour): void;
  /** Timestamp requests received, in order. */
  readonly tsaRequests: number;
  /** OCSP requests answered. */
  readonly ocspRequests: number;
  /** A company seal issued by the CA (with the CA in the chain) as PKCS#12, naming the OCSP responder. */
  companySeal(commonName: string, passphrase: string): Buffer;
  /** Whether the OCSP responder answers (`ok`) or fails with 503 (`down`). */
  ocsp(state: 'ok' | 'down'): void;
  /** Basic auth the TSA requires from now on (`user:password`), or none. */
  requireBasicAuth(credentials: string | undefined): void;
  close(): Promise<void>;
}

export async function startTestPki(port = 0): Promise<TestPki> {
  const dir = mkdtempSync(join(tmpdir(), 'vg-pki-'));
  let behaviour: TsaBehaviour = 'ok';
  let basicAuth: string | undefined;
  let ocspDown = false;
  let tsaRequests = 0;
  let ocspRequests = 0;
  const hanging = new Set<IncomingMessage>();
  const server: Server = createServer(async (request, response) => {
    const body = await readBody(request);
    try {
      if (request.url === '/tsa') {
        tsaRequests++;
        if (
          basicAuth &&
          request.headers.authorization !== `Basic ${Buffer.from(basicAuth).toString('base64')}`
        ) {
          response.writeHead(401).end();
          return;
        }
        if (behaviour === 'down') {
          request.socket.destroy();
          return;
        }
        if (behaviour === 'slow') {
          hanging.add(request);
          return;
        }
        if (behaviour === 'garbage') {
          response.writeHead(200, { 'content-type': 'application/timestamp-reply' }).end('kein Zeitstempel');
          return;
        }
        response
          .writeHead(200, { 'content-type': 'application/timestamp-reply' })
          .end(await answers.reply(body, behaviour));
        return;
      }
      if (request.url?.startsWith('/ocsp')) {
        ocspRequests++;
        if (ocspDown) {
          response.writeHead(503).end();
          return;
        }
        const der =
          request.method === 'GET'
            ? Buffer.from(decodeURIComponent(request.url.slice('/ocsp/'.length)), 'base64')
            : body;
        response.writeHead(200, { 'content-type': 'application/ocsp-response' }).end(await ocspReply(der));
        return;
      }
      if (request.url === '/ca.pem') {
        // What a reader of the sealed PDFs trusts: the browser tests check the timestamps against it.
        response.writeHead(200, { 'content-type': 'application/x-pem-file' }).end(caPem());
        return;
      }
      response.writeHead(404).end();
    } catch (error) {
      response.writeHead(500).end(String(error));
    }
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const file = (name: string) => join(dir, name);
  const caPem = () => readFileSync(file('ca.pem'), 'utf8');

  writeFileSync(
    file('ext.cnf'),
    [
      '[tsa]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature, nonRepudiation',
      'extendedKeyUsage = critical, timeStamping',
      `authorityInfoAccess = OCSP;URI:${base}/ocsp`,
      '[no-eku]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature, nonRepudiation',
      '[ocsp]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature',
      'extendedKeyUsage = critical, OCSPSigning',
      '[seal]',
      'basicConstraints = CA:FALSE',
      'keyUsage = critical, digitalSignature, nonRepudiation',
      `authorityInfoAccess = OCSP;URI:${base}/ocsp`,
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
    '3650',
    '-subj',
    '/CN=Test-CA Vertragsgenerator',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  );
  writeFileSync(file('index.txt'), '');
  const issue = (name: string, subject: string, extensions: string, days = 365) => {
    openssl(...newKeyAndRequest(file(`${name}.key`), file(`${name}.csr`), subject));
    openssl(
      'x509',
      '-req',
      '-in',
      file(`${name}.csr`),
      '-CA',
      file('ca.pem'),
      '-CAkey',
      file('ca.key'),
      '-set_serial',
      `0x${randomUUID().replaceAll('-', '').slice(0, 16)}`,
      '-out',
      file(`${name}.pem`),
      '-days',
      String(days),
      '-extfile',
      file('ext.cnf'),
      '-extensions',
      extensions,
    );
    const serial = openssl('x509', '-in', file(`${name}.pem`), '-noout', '-serial')
      .trim()
      .replace('serial=', '');
    const end = openssl('x509', '-in', file(`${name}.pem`), '-noout', '-enddate')
      .trim()
      .replace('notAfter=', '');
    // The CA database `openssl ocsp -index` reads: V(alid), expiry as YYMMDDHHMMSSZ, serial, subject.
    const expiry = new Date(end).toISOString().replace(/[-:T]/g, '').slice(2, 14);
    writeFileSync(file('index.txt'), `V\t${expiry}Z\t\t${serial}\tunknown\t${subject}\n`, { flag: 'a' });
  };
  issue('tsa', '/CN=Test-TSA Vertragsgenerator', 'tsa');
  issue('ocsp', '/CN=Test-OCSP Vertragsgenerator', 'ocsp');
  const answers = timestampReplies({ dir, file, issue, openssl });

  async function ocspReply(request: Buffer): Promise<Buffer> {
    const id = randomUUID();
    writeFileSync(file(`${id}.ocq`), request);
    await run('openssl', [
      'ocsp',
      '-index',
      file('index.txt'),
      '-CA',
      file('ca.pem'),
      '-rsigner',
      file('ocsp.pem'),
      '-rkey',
      file('ocsp.key'),
      '-reqin',
      file(`${id}.ocq`),
      '-respout',
      file(`${id}.ocr`),
      '-ndays',
      '7',
    ]);
    return readFileSync(file(`${id}.ocr`));
  }

  return {
    tsaUrl: `${base}/tsa`,
    caPem: caPem(),
    tsa(next) {
      answers.prepare(next);
      behaviour = next;
    },
    get tsaRequests() {
      return tsaRequests;
    },
    get ocspRequests() {
      return ocspRequests;
    },
    ocsp(state) {
      ocspDown = state === 'down';
    },
    requireBasicAuth(credentials) {
      basicAuth = credentials;
    },
    companySeal(commonName, passphrase) {
      const name = `seal-${randomUUID()}`;
      issue(name, `/CN=${commonName}`, 'seal');
      openssl(
        'pkcs12',
        '-export',
        '-inkey',
        file(`${name}.key`),
        '-in',
        file(`${name}.pem`),
        '-certfile',
        file('ca.pem'),
        '-out',
        file(`${name}.p12`),
        '-passout',
        `pass:${passphrase}`,
      );
      return readFileSync(file(`${name}.p12`));
    },
    async close() {
      for (const request of hanging) request.socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function openssl(...args: string[]): string {
  return execFileSync('openssl', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}
