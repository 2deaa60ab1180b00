import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { ContentInfo, PKIStatus, PKIStatusInfo, SignedData, TimeStampReq, TimeStampResp } from 'pkijs';
import { newKeyAndRequest } from './openssl-args.js';

const run = promisify(execFile);

/** How the test TSA answers the next requests; `ok` is a real RFC 3161 answer from `openssl ts -reply`. */
export type TsaBehaviour =
  | 'ok'
  /** Closes the connection without an answer. */
  | 'down'
  /** Never answers. */
  | 'slow'
  /** 200 with bytes that are no TimeStampResp. */
  | 'garbage'
  /** A valid token, but for another imprint. */
  | 'other-imprint'
  /** A valid token for the imprint, but the request's nonce left out. */
  | 'no-nonce'
  /** A rejection (PKIStatus 2). */
  | 'rejected'
  /** A valid token signed with the TSA's next certificate (its key rolled over), valid two years. */
  | 'successor'
  /** A token signed by a certificate of the CA that is not for time-stamping (no EKU id-kp-timeStamping). */
  | 'no-eku'
  /** A token signed with a TSA certificate that had ended before the time the token states. */
  | 'expired-certificate'
  /** A valid token without the TSA's certificate in it. */
  | 'no-certificate'
  /** A valid token with one byte of its signature changed. */
  | 'bad-signature';

/** The hash a timestamp query asks to be stamped, hex. */
function imprintOf(query: Buffer): string {
  const request = TimeStampReq.fromBER(new Uint8Array(query));
  return Buffer.from(request.messageImprint.hashedMessage.valueBlock.valueHexView).toString('hex');
}

/** What the test PKI lends its timestamp authority: its folder, its CA's `issue` and `openssl`. */
export interface TsaWorkshop {
  dir: string;
  file(name: string): string;
  issue(name: string, subject: string, extensions: string, days?: number): void;
  openssl(...args: string[]): string;
}

/**
 * The test TSA's answers, made by Debian's `openssl ts -reply` with the CA's certificate for time-stamping
 * (or, for the faults a real TSA might have, with another certificate of the CA, or changed afterwards).
 */
export function timestampReplies({ dir, file, issue, openssl }: TsaWorkshop): {
  /**
   * Makes the certificate `how` signs with, if it has one of its own: before the TSA is asked, as a new
   * RSA key can take longer than a test's bounded wait for the answer.
   */
  prepare(how: TsaBehaviour): void;
  reply(query: Buffer, how: TsaBehaviour): Promise<Buffer>;
} {
  /** The certificates only some tests' TSA signs with, made when first needed: each is a new RSA key. */
  const signerOf: Partial<Record<TsaBehaviour, string>> = {
    successor: 'tsa-successor',
    'no-eku': 'tsa-no-eku',
    'expired-certificate': 'tsa-expired',
  };
  const laterSigners: Record<string, () => void> = {
    'tsa-successor': () => issue('tsa-successor', '/CN=Test-TSA Vertragsgenerator 2', 'tsa', 730),
    'tsa-no-eku': () => issue('tsa-no-eku', '/CN=Test-Siegel ohne Zeitstempelzweck', 'no-eku'),
    'tsa-expired': () => issueExpired('tsa-expired', '/CN=Test-TSA abgelaufen'),
  };
  const signer = (name: string) => {
    if (!existsSync(file(`${name}.pem`))) laterSigners[name]?.();
    return name;
  };
  /** A TSA certificate of 2020 (`openssl x509 -req` sets no past dates; `openssl ca` does). */
  function issueExpired(name: string, subject: string) {
    writeFileSync(file(`${name}.index`), '');
    writeFileSync(file(`${name}.srl`), `${randomUUID().replaceAll('-', '').slice(0, 16)}\n`);
    writeFileSync(
      file(`${name}.ca.cnf`),
      [
        '[ca]',
        'default_ca = test_ca',
        '[test_ca]',
        `database = ${file(`${name}.index`)}`,
        `new_certs_dir = ${dir}`,
        `serial = ${file(`${name}.srl`)}`,
        'default_md = sha256',
        'policy = any',
        '[any]',
        'commonName = supplied',
        '',
      ].join('\n'),
    );
    openssl(...newKeyAndRequest(file(`${name}.key`), file(`${name}.csr`), subject));
    openssl(
      'ca',
      '-batch',
      '-notext',
      '-config',
      file(`${name}.ca.cnf`),
      '-cert',
      file('ca.pem'),
      '-keyfile',
      file('ca.key'),
      '-in',
      file(`${name}.csr`),
      '-out',
      file(`${name}.pem`),
      '-startdate',
      '200101000000Z',
      '-enddate',
      '210101000000Z',
      '-extfile',
      file('ext.cnf'),
      '-extensions',
      'tsa',
    );
  }
  /**
   * The TSA's configuration for one answer, with a serial file of its own: `openssl ts -reply` rewrites
   * its serial file in place, which two answers at once would read half written.
   */
  const tsaConfig = (id: string, signerName = 'tsa') => {
    writeFileSync(file(`${id}.serial`), `${randomUUID().replaceAll('-', '').slice(0, 16)}\n`);
    writeFileSync(
      file(`${id}.cnf`),
      [
        '[tsa]',
        'default_tsa = test_tsa',
        '[test_tsa]',
        `serial = ${file(`${id}.serial`)}`,
        'crypto_device = builtin',
        `signer_cert = ${file(`${signerName}.pem`)}`,
        `certs = ${file('ca.pem')}`,
        `signer_key = ${file(`${signerName}.key`)}`,
        'signer_digest = sha256',
        'default_policy = 1.3.6.1.4.1.99999.1',
        'digests = sha256, sha384, sha512',
        'accuracy = secs:1',
        'ordering = yes',
        'tsa_name = yes',
        'ess_cert_id_chain = no',
        'ess_cert_id_alg = sha256',
        '',
      ].join('\n'),
    );
    return file(`${id}.cnf`);
  };

  async function timestampReply(query: Buffer, how: TsaBehaviour): Promise<Buffer> {
    const id = randomUUID();
    const queryFile = file(`${id}.tsq`);
    const replyFile = file(`${id}.tsr`);
    writeFileSync(queryFile, how === 'no-certificate' ? withoutCertificateRequest(query) : query);
    // What a confused TSA or a replayed answer would carry: an answer to another query of openssl's own.
    const otherQuery = (...args: string[]) =>
      run('openssl', ['ts', '-query', '-sha256', '-cert', '-out', queryFile, ...args]);
    if (how === 'other-imprint') {
      writeFileSync(file(`${id}.dat`), 'ein anderes Dokument');
      await otherQuery('-data', file(`${id}.dat`));
    } else if (how === 'no-nonce') {
      await otherQuery('-digest', imprintOf(query), '-no_nonce');
    } else if (how === 'rejected') {
      // SHA-1 is not among the TSA's digests: `openssl ts -reply` answers with a rejection.
      writeFileSync(file(`${id}.dat`), 'x');
      await run('openssl', ['ts', '-query', '-data', file(`${id}.dat`), '-sha1', '-out', queryFile]);
    }
    await run('openssl', [
      'ts',
      '-reply',
      '-config',
      tsaConfig(id, how === 'no-eku' ? 'tsa' : signer(signerOf[how] ?? 'tsa')),
      '-queryfile',
      queryFile,
      '-out',
      replyFile,
    ]);
    const reply = readFileSync(replyFile);
    if (how === 'bad-signature') return withFlippedSignatureByte(reply);
    if (how === 'no-eku') {
      const name = signer('tsa-no-eku');
      return signedBy(
        reply,
        { certificate: file(`${name}.pem`), key: file(`${name}.key`), chain: file('ca.pem') },
        (suffix) => file(`${id}.${suffix}`),
      );
    }
    return reply;
  }

  return {
    prepare(how) {
      const name = signerOf[how];
      if (name) signer(name);
    },
    reply: timestampReply,
  };
}

/*
 * The ways a timestamp authority's answer goes wrong that `openssl ts -reply` will not produce itself,
 * made from its real answers.
 */

/** The query as a client would send it without asking for the TSA's certificate (no certReq). */
export function withoutCertificateRequest(query: Buffer): Buffer {
  const request = TimeStampReq.fromBER(new Uint8Array(query));
  request.certReq = false;
  return Buffer.from(request.toSchema().toBER());
}

/** The answer with one byte of its token's signature value changed; everything else as signed. */
export function withFlippedSignatureByte(reply: Buffer): Buffer {
  const signature = Buffer.from(signedDataOf(reply).signerInfos[0]?.signature.valueBlock.valueHexView ?? []);
  const at = reply.indexOf(signature);
  if (signature.length === 0 || at < 0) throw new Error('the answer holds no signature to change');
  const changed = Buffer.from(reply);
  const middle = at + Math.floor(signature.length / 2);
  changed[middle] = (changed[middle] ?? 0) ^ 0xff;
  return changed;
}

/**
 * The answer's TSTInfo signed again by another certificate of the CA (`openssl cms -sign`), in a granted
 * answer: what a TSA signing with a certificate not made for time-stamping sends, which `openssl ts -reply`
 * refuses to sign with.
 */
export async function signedBy(
  reply: Buffer,
  signer: { certificate: string; key: string; chain: string },
  workFile: (suffix: string) => string,
): Promise<Buffer> {
  const content = signedDataOf(reply).encapContentInfo.eContent;
  if (!content) throw new Error('the answer holds no TSTInfo');
  writeFileSync(workFile('tst'), Buffer.from(content.getValue()));
  await run('openssl', [
    'cms',
    '-sign',
    '-binary',
    '-nodetach',
    '-md',
    'sha256',
    '-econtent_type',
    'id-smime-ct-TSTInfo',
    '-in',
    workFile('tst'),
    '-signer',
    signer.certificate,
    '-inkey',
    signer.key,
    '-certfile',
    signer.chain,
    '-outform',
    'DER',
    '-out',
    workFile('p7s'),
  ]);
  const answer = new TimeStampResp({
    status: new PKIStatusInfo({ status: PKIStatus.granted }),
    timeStampToken: ContentInfo.fromBER(new Uint8Array(readFileSync(workFile('p7s')))),
  });
  return Buffer.from(answer.toSchema().toBER());
}

function signedDataOf(reply: Buffer): SignedData {
  const token = TimeStampResp.fromBER(new Uint8Array(reply)).timeStampToken;
  if (!token) throw new Error('the answer holds no token');
  return new SignedData({ schema: token.content });
}
