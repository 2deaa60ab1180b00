import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { approvalReasons, DEFAULT_APPROVAL_RULES, resolveMatch } from '@vertragsgenerator/domain';
import { demoMatchForms } from '../lib/api-requests.mjs';
import { root } from '../lib/server.mjs';
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
 * it comes in a day's mix: once in so many rounds, which the workers take in turn. A soak of 30 minutes
 * runs 2,000–2,800 rounds: documents and envelopes by the thousand, a template published about fifty
 * times, and a backup of everything about a dozen times. That is more backups than a day has (one
 * scheduled and perhaps one by hand), so that the data's largest readers are in the peak; one a minute
 * would measure little but the backup's garbage.
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
 * The demo matches, which the flows take in turn, each with what its forms send, from the server's own
 * sample data (as the API tests do). A day's documents belong to many deals: on a single match the soak
 * piled up thousands of documents, and the match's history, which the generation flow reads, grew to one
 * answer of megabytes that every round built anew, a shape no deal has. Envelopes go out for the matches
 * whose margin needs no approval under the default rules; the others would wait for a leader.
 * @returns {Promise<{ nextMatch: () => FlowMatch, nextSendableMatch: () => FlowMatch }>}
 * @typedef {{ matchId: string, bodies: Record<string, Record<string, string>> }} FlowMatch
 *   request bodies by catalogue key
 */
export async function flowMatches() {
  const { records, formData } = await demoMatchForms();
  const keys = [...GENERATIONS.map((g) => g.key), ENVELOPE_KEY];
  const matches = records.map((record) => {
    const match = resolveMatch(record);
    return {
      matchId: record.matchId,
      bodies: Object.fromEntries(keys.map((key) => [key, formData(key, match)])),
      sendable:
        approvalReasons(DEFAULT_APPROVAL_RULES, { match, docKey: ENVELOPE_KEY, editedText: false }).length ===
        0,
    };
  });
  return { nextMatch: inTurn(matches), nextSendableMatch: inTurn(matches.filter((m) => m.sendable)) };
}

/** Each call the next of the list, round and round. */
function inTurn(list) {
  let turn = 0;
  return () => list[turn++ % list.length];
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

async function generations({ call, tokens, nextMatch }) {
  const { matchId, bodies } = nextMatch();
  for (const { route, key } of GENERATIONS) {
    const { response } = await call('POST', `/backend/${route}/${key}/${matchId}`, {
      token: tokens.legal,
      json: { dataList: bodies[key] },
      expect: 'bytes',
    });
    const id = response.headers.get('x-document-id');
    await call('GET', `/backend/documents/${id}`, { token: tokens.legal });
    await call('GET', `/backend/documents/${id}/file`, { token: tokens.legal, expect: 'bytes' });
  }
  await call('GET', `/backend/matches/${matchId}/documents`, { token: tokens.legal });
}

async function envelopeSigned({ call, tokens, nextSendableMatch, mail, sequence }) {
  const { matchId, bodies } = nextSendableMatch();
  const partner = { name: 'Paula Partner', email: `partner-${process.pid}-${sequence()}@example.com` };
  const dataList = {
    ...bodies[ENVELOPE_KEY],
    Projektpartner_UserName: partner.name,
    Projektpartner_Email: partner.email,
  };
  const created = await call('POST', `/backend/generateDocusign/${ENVELOPE_KEY}/${matchId}`, {
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

async function lists({ call, tokens, nextMatch }) {
  await call('GET', '/backend/signature/envelopes', { token: tokens.legal });
  await call('GET', '/backend/approvals', { token: tokens.lead });
  await call('POST', `/backend/match/${nextMatch().matchId}`, { token: tokens.legal });
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

/**
 * `npm run backup` beside the running server: on PGlite a process the server starts writes it from a
 * copy of the database's files, on PostgreSQL the tool itself.
 */
async function backup({ serverEnv, scratch, sequence }) {
  const file = join(scratch, `backup-${sequence()}.json.gz`);
  await runProcess(process.execPath, [SERVER_ENTRY.replace(/main\.js$/, 'cli/backup.js'), file], {
    env: { ...process.env, ...serverEnv },
    cwd: root,
    timeout: 120_000,
  });
  await rm(file);
}
