import { join, resolve } from 'node:path';
import { z } from 'zod';
import { ConfigError, REPOSITORY_CONFIG_DIR } from './support.js';

/** The external CRM as match source (docs/crm.md): HTTP with a field mapping, or Salesforce. */

// Object and field names go into SOQL as they are, so only API names pass.
const SALESFORCE_NAME = /^[A-Za-z][A-Za-z0-9_]*$/;

export const CRM_ENV = {
  CRM_KIND: z.enum(['http', 'salesforce']).default('http'),
  CRM_URL: z
    .string()
    .refine((url) => url.includes('{matchId}'), 'must contain {matchId} where the match ID goes')
    .refine((url) => URL.canParse(url.replaceAll('{matchId}', 'PL-1')), 'must be a URL')
    .optional(),
  CRM_TOKEN: z.string().min(1).optional(),
  CRM_USER: z.string().min(1).optional(),
  CRM_PASSWORD: z.string().min(1).optional(),
  CRM_MAPPING_FILE: z.string().min(1).optional(),
  CRM_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5000),
  CRM_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  CRM_CACHE_SECONDS: z.coerce.number().int().min(0).default(0),
  CRM_WRITEBACK_URL: z
    .string()
    .refine((url) => url.includes('{matchId}'), 'must contain {matchId} where the match ID goes')
    .refine((url) => URL.canParse(url.replaceAll('{matchId}', 'PL-1')), 'must be a URL')
    .optional(),
  CRM_WRITEBACK_METHOD: z.enum(['POST', 'PUT', 'PATCH']).default('POST'),
  SALESFORCE_LOGIN_URL: z.string().url().optional(),
  SALESFORCE_CLIENT_ID: z.string().min(1).optional(),
  SALESFORCE_CLIENT_SECRET: z.string().min(1).optional(),
  SALESFORCE_OBJECT: z.string().regex(SALESFORCE_NAME, 'must be an API name such as Match__c').optional(),
  SALESFORCE_ID_FIELD: z.string().regex(SALESFORCE_NAME, 'must be a field API name such as Name').optional(),
  SALESFORCE_API_VERSION: z
    .string()
    .regex(/^\d{2,3}\.0$/, 'must be a version such as 62.0')
    .default('62.0'),
};

type CrmEnv = z.infer<z.ZodObject<typeof CRM_ENV>>;

/** Together these switch matches to Salesforce (with `CRM_KIND=salesforce`). */
const SALESFORCE_REQUIRED = [
  'SALESFORCE_LOGIN_URL',
  'SALESFORCE_CLIENT_ID',
  'SALESFORCE_CLIENT_SECRET',
  'SALESFORCE_OBJECT',
  'SALESFORCE_ID_FIELD',
] as const;

/** An external CRM as match source (docs/crm.md). */
export type CrmConfig = {
  /** The field mapping (JSON), checked at start. */
  mappingFile: string;
  /** Deadline of one request to the CRM. */
  timeoutMs: number;
  /** Attempts after the first one on 5xx, network errors and timeouts. */
  retries: number;
  /** How long a stored CRM answer may stand in for an unreachable CRM; 0: nothing is stored. */
  cacheSeconds: number;
} & (
  | {
      kind: 'http';
      /** With `{matchId}` where the URL-encoded ID goes. */
      url: string;
      auth: { kind: 'bearer'; token: string } | { kind: 'basic'; user: string; password: string } | undefined;
      /** Where status changes are sent (`{matchId}` in the URL), with CRM_URL's credentials; absent: nowhere. */
      writeback?: { url: string; method: 'POST' | 'PUT' | 'PATCH' };
    }
  | {
      kind: 'salesforce';
      /** My Domain or login host, e.g. https://example.my.salesforce.com. */
      loginUrl: string;
      clientId: string;
      clientSecret: string;
      /** API name of the object that holds matches, e.g. `Match__c`. */
      object: string;
      /** API name of its field with the match ID `PL-…` (an auto-number field, often `Name`). */
      idField: string;
      /** REST API version without `v`, e.g. `62.0`. */
      apiVersion: string;
    }
);

export function crmConfig(e: CrmEnv): CrmConfig | undefined {
  const problems: string[] = [];
  const common = {
    timeoutMs: e.CRM_TIMEOUT_MS,
    retries: e.CRM_RETRIES,
    cacheSeconds: e.CRM_CACHE_SECONDS,
  };
  if (e.CRM_KIND === 'salesforce') {
    for (const name of SALESFORCE_REQUIRED) {
      if (!e[name]) problems.push(`${name}: required with CRM_KIND=salesforce`);
    }
    if (e.CRM_URL)
      problems.push('CRM_URL: not used with CRM_KIND=salesforce (SALESFORCE_LOGIN_URL names the org)');
    if (e.CRM_WRITEBACK_URL)
      problems.push(
        "CRM_WRITEBACK_URL: not used with CRM_KIND=salesforce (the mapping file's writeback section names the fields)",
      );
    if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    return {
      kind: 'salesforce',
      ...common,
      mappingFile: resolve(e.CRM_MAPPING_FILE ?? join(REPOSITORY_CONFIG_DIR, 'crm-mapping.salesforce.json')),
      loginUrl: (e.SALESFORCE_LOGIN_URL as string).replace(/\/+$/, ''),
      clientId: e.SALESFORCE_CLIENT_ID as string,
      clientSecret: e.SALESFORCE_CLIENT_SECRET as string,
      object: e.SALESFORCE_OBJECT as string,
      idField: e.SALESFORCE_ID_FIELD as string,
      apiVersion: e.SALESFORCE_API_VERSION,
    };
  }
  if (!e.CRM_URL) {
    // A CRM variable without CRM_URL is a half-done setup: the start says so instead of ignoring it.
    const strays = [
      'CRM_TOKEN',
      'CRM_USER',
      'CRM_PASSWORD',
      'CRM_MAPPING_FILE',
      'CRM_WRITEBACK_URL',
      ...SALESFORCE_REQUIRED,
    ] as const;
    const given = strays.filter((name) => e[name]);
    if (given.length > 0) {
      throw new ConfigError(
        `Invalid configuration:\n  ${given.map((name) => `${name}: needs CRM_URL or CRM_KIND=salesforce`).join('\n  ')}`,
      );
    }
    return undefined;
  }
  if (!e.CRM_MAPPING_FILE) problems.push('CRM_MAPPING_FILE: required with CRM_URL');
  if (e.CRM_TOKEN && (e.CRM_USER || e.CRM_PASSWORD)) {
    problems.push('CRM_TOKEN: set either CRM_TOKEN (bearer) or CRM_USER and CRM_PASSWORD (basic), not both');
  }
  if (Boolean(e.CRM_USER) !== Boolean(e.CRM_PASSWORD)) {
    problems.push(
      `${e.CRM_USER ? 'CRM_PASSWORD' : 'CRM_USER'}: required with ${e.CRM_USER ? 'CRM_USER' : 'CRM_PASSWORD'}`,
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  return {
    kind: 'http',
    ...common,
    mappingFile: resolve(e.CRM_MAPPING_FILE as string),
    url: e.CRM_URL,
    auth: e.CRM_TOKEN
      ? { kind: 'bearer', token: e.CRM_TOKEN }
      : e.CRM_USER && e.CRM_PASSWORD
        ? { kind: 'basic', user: e.CRM_USER, password: e.CRM_PASSWORD }
        : undefined,
    writeback: e.CRM_WRITEBACK_URL ? { url: e.CRM_WRITEBACK_URL, method: e.CRM_WRITEBACK_METHOD } : undefined,
  };
}
