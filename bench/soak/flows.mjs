import { execFile } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { catalogueEntry, resolveMatch } from '@vertragsgenerator/domain';
import { MATCH_ID } from '../lib/api-requests.mjs';
import { importServer, root } from '../lib/server.mjs';
import { SERVER_ENTRY } from '../lib/server-process.mjs';

const runProcess = promisify(execFile);

/** One document of every family, as its form sends it (the route of the family, a key of it). */
const GENERATIONS = [
  { family: 'contract (DOCX)', route: 'generateDocx', key: 'docx-de-wm-rv' },
  { family: 'termination', route: 'generateDocx', key: 'kuendigung-wm-k-termination-gerecht' },
  { family: 'agreement', route: 'generateDocx', key: 'zusatz-wm-k-descr' },
  { family: 'offer', route: 'generateDocxOffer', key: 'angebot-wm' },
];
/** The project partner contract sent for signing; each envelope has a partner address of its own. */
const ENVELOPE_KEY = 'de-wm-pp-rv';
/** A template uploaded again as a new version and published, as the template library does. */
const TEMPLATE = 'rahmenvertrag-de.docx';
const ADMIN_READS = [
  '/backend/admin/staff',
  '/backend/admin/audit',
  '/backend/admin/access-requests',
  '/backend/admin/webhooks',
  '/backend/admin/api-clients',
  '/backend/admin/retention',
  '/backend/admin/countersignature',
];

/** The flow that reads the whole database at once: the report tells the readings during it apart. */
export const BACKUP_FLOW = 'backup (command-line tool)';

/**
 * The acceptance flows of every page over the HTTP API, as the browser calls them: each flow is a
 * function of the soak's context that throws on any answer that is not a 2xx. `every` says how often
 * it comes in a day's mix: once in so many rounds of a worker. A soak of 30 minutes runs about 600
 * rounds: documents and envelopes by the thousand, a template published about fifteen times, and a
 * backup of everything about three times (a day has one scheduled backup and perhaps one by hand; one a
 * minute would measure the backup's garbage, not the day).
 */
export const FLOWS = [
  { name: 'generation of each family, read back, history', every: 1, run: generations },
  { name: 'envelope created, sent, signed through the signing link', every: 1, run: envelopeSigned },
  { name: 'overview, approvals, match lookup, users', every: 1, run: lists },
  { name: 'administration reads', every: 2, run: administration },
  { name: 'template uploaded, tried, published', every: 40, run: templatePublished },
  { name: BACKUP_FLOW, every: 200, run: backup },
];

/**
 * What the flows send, from the server's own sample data for the demo match (as the API tests do).
 * @returns {Promise<Record<string, string>>} request bodies by catalogue key
 */
export async function flowBodies() {
  const { parseMatchFile } = await importServer('matches/import.js');
  const { sampleDataList } = await importServer('templates/samples.js');
  const { loadCompanyData } = await importServer('templates/companies.js');
  const { valid } = parseMatchFile(await readFile(join(root, 'config/demo-matches.json'), 'utf8'));
  const match = resolveMatch(valid.find((m) => m.matchId === MATCH_ID));
  const { signatories } = await loadCompanyData(join(root, 'config'));
  return Object.fromEntries(
    [...GENERATIONS.map((g) => g.key), ENVELOPE_KEY].map((key) => [
      key,
      sampleDataList(catalogueEntry(key), match, signatories),
    ]),
  );
}

/**
 * A client of the server: every answer is counted by status class; anything but a 2xx throws.
 * @param {{ baseUrl: string, counts: Record<string, number> }} target
 */
export function apiClient({ baseUrl, counts }) {
  return async (method, path, { token, signingToken, json, body, type, expect = 'json' } = {}) => {
    const headers = {};
    if (token) headers.authorization = `Bearer ${token}`;
    if (signingToken) headers['x-signing-token'] = signingToken;
    if (json !== undefined) headers['content-type'] = 'application/json';
    if (type) headers['content-type'] = type;
    let response;
    try {
      response = await fetch(new URL(path, baseUrl), {
        method,
        headers,
        body: json !== undefined ? JSON.stringify(json) : body,
        signal: AbortSignal.timeout(60_000),
      });
    } catch (error) {
      counts.errors++;
      throw new Error(`${method} ${path}: ${error.message}`);
    }
    const bytes = Buffer.from(await response.arrayBuffer());
    const status = `${String(response.status)[0]}xx`;
    counts[status] = (counts[status] ?? 0) + 1;
    if (!response.ok)
      throw new Error(`${method} ${path} answered ${response.status} ${bytes.subarray(0, 300)}`);
    return { response, body: expect === 'json' && bytes.length > 0 ? JSON.parse(bytes) : bytes };
  };
}

async function generations({ call, tokens, bodies }) {
  for (const { route, key } of GENERATIONS) {
    const { response } = await call('POST', `/backend/${route}/${key}/${MATCH_ID}`, {
      token: tokens.legal,
      json: { dataList: bodies[key] },
      expect: 'bytes',
    });
    const id = response.headers.get('x-document-id');
    await call('GET', `/backend/documents/${id}`, { token: tokens.legal });
    await call('GET', `/backend/documents/${id}/file`, { token: tokens.legal, expect: 'bytes' });
  }
  await call('GET', `/backend/matches/${MATCH_ID}/documents`, { token: tokens.legal });
}

async function envelopeSigned({ call, tokens, bodies, mail, sequence }) {
  const partner = { name: 'Paula Partner', email: `partner-${process.pid}-${sequence()}@example.com` };
  const dataList = {
    ...bodies[ENVELOPE_KEY],
    Projektpartner_UserName: partner.name,
    Projektpartner_Email: partner.email,
  };
  const created = await call('POST', `/backend/generateDocusign/${ENVELOPE_KEY}/${MATCH_ID}`, {
    token: tokens.legal,
    json: { dataList },
  });
  const id = String(created.body.data).split('/').pop();
  const { body: draft } = await call('GET', `/backend/signature/envelopes/${id}`, { token: tokens.legal });
  await call('GET', `/backend/signature/envelopes/${id}/document`, { token: tokens.legal, expect: 'bytes' });
  await call('POST', `/backend/signature/envelopes/${id}/send`, {
    token: tokens.legal,
    json: {
      subject: draft.subject,
      message: '',
      recipients: draft.recipients.map(({ role, name, email, routingOrder }) => ({
        role,
        name,
        email,
        routingOrder,
      })),
      countersignatory: null,
    },
  });
  const signingToken = await mail.waitFor(partner.email, /\/unterschreiben#([A-Za-z0-9_-]+)/);
  const { body: view } = await call('GET', '/backend/signing', { signingToken });
  if (view.verification?.required && !view.verification.verified) {
    const before = await mail.count(partner.email);
    await call('POST', '/backend/signing/code', { signingToken, json: {} });
    const code = await mail.waitFor(partner.email, /^\s*(\d{6})\s*$/m, { after: before });
    await call('POST', '/backend/signing/verify', { signingToken, json: { code } });
  }
  await call('GET', '/backend/signing/document', { signingToken, expect: 'bytes' });
  await call('POST', '/backend/signing/sign', {
    signingToken,
    json: { consent: true, typedName: partner.name },
  });
  await call('GET', `/backend/signature/envelopes/${id}`, { token: tokens.legal });
}

async function lists({ call, tokens }) {
  await call('GET', '/backend/signature/envelopes', { token: tokens.legal });
  await call('GET', '/backend/approvals', { token: tokens.lead });
  await call('POST', `/backend/match/${MATCH_ID}`, { token: tokens.legal });
  await call('GET', '/backend/users', { token: tokens.legal });
  await call('GET', '/backend/templates', { token: tokens.legal });
}

async function administration({ call, tokens }) {
  for (const path of ADMIN_READS) await call('GET', path, { token: tokens.admin });
}

async function templatePublished({ call, tokens }) {
  const path = `/backend/templates/${encodeURIComponent(TEMPLATE)}`;
  const { body: detail } = await call('GET', path, { token: tokens.legal });
  const published = detail.publishedVersion;
  const { body: file } = await call('GET', `${path}/versions/${published}/file`, {
    token: tokens.legal,
    expect: 'bytes',
  });
  const { body: uploaded } = await call('POST', `${path}/versions?comment=Soak`, {
    token: tokens.legal,
    body: file,
    type: 'application/octet-stream',
  });
  await call('GET', `${path}/versions/${uploaded.version}/trial`, { token: tokens.legal, expect: 'bytes' });
  await call('GET', `${path}/versions/${uploaded.version}/comparison`, { token: tokens.legal });
  await call('POST', `${path}/versions/${uploaded.version}/publish`, {
    token: tokens.legal,
    json: { comment: 'Soak', replaces: published },
  });
}

/** `npm run backup` beside the running server: on PGlite the server writes it, on PostgreSQL the tool. */
async function backup({ serverEnv, scratch, sequence }) {
  const file = join(scratch, `backup-${sequence()}.json.gz`);
  await runProcess(process.execPath, [SERVER_ENTRY.replace(/main\.js$/, 'cli/backup.js'), file], {
    env: { ...process.env, ...serverEnv },
    cwd: root,
    timeout: 120_000,
  });
  await rm(file);
}
