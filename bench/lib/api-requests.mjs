import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { catalogueEntry, resolveMatch } from '@vertragsgenerator/domain';
import { importServer, root } from './server.mjs';

/** The demo match every request works on (config/demo-matches.json), the one the UI examples use. */
export const MATCH_ID = 'PL-10001';
/** A DOCX customer contract and an e-signature contract with a project partner. */
const DOCX_KEY = 'docx-de-wm-rv';
const ENVELOPE_KEY = 'de-wm-pp-rv';
/** Legal staff may generate every key (docs/architecture.md#permissions). */
export const LOAD_USER = 'legal@demo.local';

/**
 * The API calls the benchmarks load the server with, as autocannon request options, each with the
 * bearer token of a signed-in user. The dataLists are what a user fills in the form for the demo match
 * (the server's own `sampleDataList`, which the API tests send too).
 *
 * @returns {Promise<Record<'match' | 'users' | 'docx' | 'envelope', { title: string, method: string,
 *   path: string, headers: Record<string, string>, body?: string }>>}
 */
export async function apiRequests(token) {
  const { records, formData } = await demoMatchForms();
  const record = records.find((m) => m.matchId === MATCH_ID);
  if (!record) throw new Error(`${MATCH_ID} is not in config/demo-matches.json`);
  const match = resolveMatch(record);
  const dataList = (key) => JSON.stringify({ dataList: formData(key, match) });

  const authorization = `Bearer ${token}`;
  const json = { authorization, 'content-type': 'application/json' };
  return {
    match: {
      title: 'Match lookup',
      method: 'POST',
      path: `/backend/match/${MATCH_ID}`,
      headers: { authorization },
    },
    users: { title: 'Users list', method: 'GET', path: '/backend/users', headers: { authorization } },
    docx: {
      title: 'DOCX generation',
      method: 'POST',
      path: `/backend/generateDocx/${DOCX_KEY}/${MATCH_ID}`,
      headers: json,
      body: dataList(DOCX_KEY),
    },
    envelope: {
      title: 'E-signature envelope (built-in signing)',
      method: 'POST',
      path: `/backend/generateDocusign/${ENVELOPE_KEY}/${MATCH_ID}`,
      // As the browser sends it: one key per click. autocannon's `idReplacement` puts a fresh id in
      // every request; the same key twice would be answered from the first envelope without rendering.
      headers: { ...json, 'idempotency-key': '[<id>]' },
      body: dataList(ENVELOPE_KEY),
    },
  };
}

/**
 * Sends one request as the load will and fails with the server's answer unless it is a 2xx: a load
 * of 4xx answers would time the refusal, not the work.
 */
export async function checkRequest(baseUrl, request) {
  const response = await fetch(new URL(request.path, baseUrl), {
    method: request.method,
    headers: {
      ...request.headers,
      ...(request.headers['idempotency-key'] ? { 'idempotency-key': `bench-check-${Date.now()}` } : {}),
    },
    body: request.body,
  });
  const body = Buffer.from(await response.arrayBuffer());
  if (!response.ok) {
    throw new Error(
      `${request.title}: ${request.method} ${request.path} answered ${response.status} ${body}`,
    );
  }
  return { response, body };
}

/**
 * The demo matches (config/demo-matches.json) and what a key's form sends for one of them: the server's
 * own `sampleDataList` with the company's signatories, as the API tests send it.
 * @returns {Promise<{ records: Array<{ matchId: string }>, formData: (key: string, match: unknown) => Record<string, string> }>}
 */
export async function demoMatchForms() {
  const { parseMatchFile } = await importServer('matches/import.js');
  const { sampleDataList } = await importServer('templates/samples.js');
  const { loadCompanyData } = await importServer('templates/companies.js');
  const { valid } = parseMatchFile(await readFile(join(root, 'config/demo-matches.json'), 'utf8'));
  const { signatories } = await loadCompanyData(join(root, 'config'));
  return {
    records: valid,
    formData(key, match) {
      const entry = catalogueEntry(key);
      if (!entry) throw new Error(`${key} is not in the catalogue`);
      return sampleDataList(entry, match, signatories);
    },
  };
}
