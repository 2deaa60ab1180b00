import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createSecureContext } from 'node:tls';
import { z } from 'zod';
import { ConfigError } from './support.js';

/**
 * The company certificate that seals completed envelopes' PDFs; unset, the server seals with
 * a self-signed certificate of its own. The file is read here; whether the password opens it and the
 * certificate is valid is checked as the server starts (signature/seal/seal-store.ts), which stops there.
 */
export const SEAL_ENV = {
  SEAL_P12_FILE: z.string().min(1).optional(),
  SEAL_P12_PASSWORD: z.string().optional(),
  /**
   * RFC 3161 timestamp authorities, asked in order (separated by commas or spaces); set, seals are
   * PAdES B-LTA, unset B-B. User and password may stand in the URL or in TSA_USERNAME/TSA_PASSWORD.
   */
  TSA_URL: z.string().optional(),
  TSA_USERNAME: z.string().optional(),
  TSA_PASSWORD: z.string().optional(),
  /** A client certificate (PKCS#12) for TSAs that want one over HTTPS. */
  TSA_CLIENT_P12_FILE: z.string().min(1).optional(),
  TSA_CLIENT_P12_PASSWORD: z.string().optional(),
  /** PEM file of the CAs a TSA's certificate must chain to; unset, any certificate for time-stamping. */
  TSA_CA_FILE: z.string().min(1).optional(),
  /**
   * PEM file of CAs an HTTPS TSA's server certificate may chain to besides the system's (a TSA of the
   * company's own PKI); the token's signer is checked against TSA_CA_FILE, not these.
   */
  TSA_TLS_CA_FILE: z.string().min(1).optional(),
  /** The wait for one authority's answer before the next one is asked. */
  TSA_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
  /** How long before the last timestamp's TSA certificate expires an archived PDF is timestamped anew. */
  SEAL_RENEW_DAYS_BEFORE: z.coerce.number().int().min(1).max(3650).default(90),
};

type SealEnv = z.infer<z.ZodObject<typeof SEAL_ENV>>;

/** A company certificate named by SEAL_P12_FILE, as read from the file with SEAL_P12_PASSWORD. */
export interface ConfiguredSeal {
  p12: Buffer;
  passphrase: string;
}

/** Where and how the seal's trusted time is asked for (`TSA_*`). */
export interface TimestampAuthoritySettings {
  urls: string[];
  username: string | undefined;
  password: string | undefined;
  clientCertificate: ConfiguredSeal | undefined;
  /** DER certificates of TSA_CA_FILE; empty: not checked against a CA. */
  trustedCertificates: Uint8Array[];
  /** PEM certificates of TSA_TLS_CA_FILE, trusted for HTTPS beside the system's; empty: the system's only. */
  tlsCertificates?: string[];
  timeoutMs: number;
}

export interface SealConfig {
  /** The company seal certificate (SEAL_P12_FILE); undefined: the server's self-signed one. */
  certificate: ConfiguredSeal | undefined;
  /** Undefined without TSA_URL: seals are PAdES B-B. */
  timestamps: TimestampAuthoritySettings | undefined;
  renewDaysBefore: number;
}

export function sealConfig(e: SealEnv): SealConfig {
  return {
    certificate: sealCertificate(e),
    timestamps: timestampAuthorities(e),
    renewDaysBefore: e.SEAL_RENEW_DAYS_BEFORE,
  };
}

function timestampAuthorities(e: SealEnv): TimestampAuthoritySettings | undefined {
  const urls = (e.TSA_URL ?? '').split(/[\s,]+/).filter(Boolean);
  const dependent = [
    'TSA_USERNAME',
    'TSA_PASSWORD',
    'TSA_CLIENT_P12_FILE',
    'TSA_CLIENT_P12_PASSWORD',
    'TSA_CA_FILE',
    'TSA_TLS_CA_FILE',
  ] as const;
  if (urls.length === 0) {
    const orphan = dependent.find((name) => e[name] !== undefined);
    if (orphan) throw new ConfigError(`Invalid configuration:\n  ${orphan}: set without TSA_URL`);
    return undefined;
  }
  for (const url of urls) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      throw new ConfigError(`Invalid configuration:\n  TSA_URL: ${url} is not an http(s) address`);
    }
  }
  return {
    urls,
    username: e.TSA_USERNAME,
    password: e.TSA_PASSWORD,
    clientCertificate: tsaClientCertificate(e),
    trustedCertificates: e.TSA_CA_FILE
      ? pemCertificates('TSA_CA_FILE', readFile('TSA_CA_FILE', e.TSA_CA_FILE))
      : [],
    tlsCertificates: e.TSA_TLS_CA_FILE
      ? pemCertificates('TSA_TLS_CA_FILE', readFile('TSA_TLS_CA_FILE', e.TSA_TLS_CA_FILE)).map(pem)
      : [],
    timeoutMs: e.TSA_TIMEOUT_SECONDS * 1000,
  };
}

/**
 * TSA_CLIENT_P12_FILE opened with its password now, so that a wrong password stops the start instead of
 * failing every seal later.
 */
function tsaClientCertificate(e: SealEnv): ConfiguredSeal | undefined {
  if (!e.TSA_CLIENT_P12_FILE) {
    if (e.TSA_CLIENT_P12_PASSWORD !== undefined) {
      throw new ConfigError(
        'Invalid configuration:\n  TSA_CLIENT_P12_PASSWORD: set without TSA_CLIENT_P12_FILE',
      );
    }
    return undefined;
  }
  const p12 = readFile('TSA_CLIENT_P12_FILE', e.TSA_CLIENT_P12_FILE);
  const passphrase = e.TSA_CLIENT_P12_PASSWORD ?? '';
  try {
    createSecureContext({ pfx: p12, passphrase });
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  TSA_CLIENT_P12_FILE: cannot be opened with TSA_CLIENT_P12_PASSWORD (${(error as Error).message})`,
    );
  }
  return { p12, passphrase };
}

function pem(der: Uint8Array): string {
  const base64 = Buffer.from(der).toString('base64').replace(/.{64}/g, '$&\n');
  return `-----BEGIN CERTIFICATE-----\n${base64}\n-----END CERTIFICATE-----\n`;
}

function pemCertificates(variable: string, pem: Buffer): Uint8Array[] {
  const blocks = [
    ...pem.toString('latin1').matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g),
  ];
  if (blocks.length === 0)
    throw new ConfigError(`Invalid configuration:\n  ${variable}: holds no PEM certificate`);
  return blocks.map((block) => new Uint8Array(Buffer.from((block[1] ?? '').replace(/\s/g, ''), 'base64')));
}

function readFile(variable: string, path: string): Buffer {
  try {
    return readFileSync(resolve(path));
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration:\n  ${variable}: cannot read ${path} (${(error as Error).message})`,
    );
  }
}

function sealCertificate(e: SealEnv): ConfiguredSeal | undefined {
  if (!e.SEAL_P12_FILE) {
    if (e.SEAL_P12_PASSWORD !== undefined) {
      throw new ConfigError('Invalid configuration:\n  SEAL_P12_PASSWORD: set without SEAL_P12_FILE');
    }
    return undefined;
  }
  return { p12: readFile('SEAL_P12_FILE', e.SEAL_P12_FILE), passphrase: e.SEAL_P12_PASSWORD ?? '' };
}
