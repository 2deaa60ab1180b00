import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Review } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Db, openDatabase } from '../db/database.js';
import { MailOutbox } from '../mail/mail-outbox.js';
import { MatchStore } from '../matches/match-store.js';
import { loadSigningLinkKey } from '../signature/signing-links.js';
import { createPostgresDatabase, type TestDatabase, testDatabases } from '../test/databases.js';
import { demoDataList, demoMatch } from '../test/demo-order.js';
import { bearer, createTestApp, RecordingMailer, type TestApp } from '../test/test-app.js';
import { ReviewLinks } from './review-links.js';
import { remindReviewers } from './review-reminders.js';

const LEGAL = 'legal@demo.local';
const KEY = 'docx-de-wm-rv';
const MATCH = { ...demoMatch, matchId: 'PL-93101' };
const REVIEWERS = ['rita.rasch@kunde.example', 'rolf.ruhig@kunde.example'];
const REPLICA = fileURLToPath(new URL('../test/review-reminder-replica.ts', import.meta.url));

/** Tomorrow in Berlin: within the reminder's days before the due date. */
const tomorrow = () =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(Date.now() + 86_400_000));

/** A generated contract sent for review to both reviewers, due tomorrow; answers the review's id. */
async function sendForReview(t: TestApp): Promise<string> {
  const headers = bearer(await t.signIn(LEGAL));
  const generated = await t.app.inject({
    method: 'POST',
    url: `/backend/generateDocx/${KEY}/${MATCH.matchId}`,
    headers,
    payload: { dataList: demoDataList(KEY) },
  });
  expect(generated.statusCode, generated.body).toBe(200);
  const sent = await t.app.inject({
    method: 'POST',
    url: `/backend/documents/${generated.headers['x-document-id']}/review`,
    headers,
    payload: { reviewers: REVIEWERS.map((email) => ({ name: 'Gegenseite', email })), dueDate: tomorrow() },
  });
  expect(sent.statusCode, sent.body).toBe(201);
  return sent.json<Review>().id;
}

/** A replica of its own: its own outbox and links, the shared database. */
async function replica(db: Db) {
  const links = new ReviewLinks({
    key: await loadSigningLinkKey(db),
    publicUrl: 'http://localhost',
    now: () => new Date(),
  });
  return { db, outbox: new MailOutbox(db, new RecordingMailer(), 'support@demo.local'), links };
}

/** The reminder mails stored for each reviewer, delivered or not. */
async function remindersOf(db: Db): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('outgoing_mail')
    .select(['recipient'])
    .where('subject', 'like', 'Erinnerung: Bitte prüfen%')
    .execute();
  return Object.fromEntries(
    REVIEWERS.map((email) => [email, rows.filter((r) => r.recipient === email).length]),
  );
}

const onceEach = Object.fromEntries(REVIEWERS.map((email) => [email, 1]));

async function appOn(database: TestDatabase | Db) {
  const db = 'open' in database ? await database.open() : database;
  await new MatchStore(db).upsertMany([MATCH]);
  const t = await createTestApp(db, { demoStaff: true });
  return { db, t };
}

describe.each(testDatabases())('Review reminders on $name', (database) => {
  let db: Db;
  let t: TestApp;
  beforeAll(async () => {
    ({ db, t } = await appOn(database));
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  it('reminds each reviewer once when three replicas run at the same moment, and not again', async () => {
    await sendForReview(t);
    const now = new Date();
    const replicas = await Promise.all([1, 2, 3].map(() => replica(db)));
    const reminded = await Promise.all(replicas.map((deps) => remindReviewers(deps, now)));
    expect(reminded.reduce((sum, n) => sum + n, 0)).toBe(REVIEWERS.length);
    expect(await remindersOf(db)).toEqual(onceEach);
    expect(await remindReviewers(await replica(db), new Date(now.getTime() + 3_600_000))).toBe(0);
    expect(await remindersOf(db)).toEqual(onceEach);
  });
});

/**
 * A replica killed (SIGKILL) in the middle of its run, after writing its mails and before committing:
 * PostgreSQL drops its transaction with its connection, so nothing of the run stays, and the next run
 * reminds everyone once. (On the embedded database, the database dies with the only process that runs it:
 * there is no other replica to go on.)
 */
describe.skipIf(!inject('postgresUrl'))('Review reminders when a replica is killed', () => {
  let db: Db;
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    url = await createPostgresDatabase(inject('postgresUrl'), 'vg_test', inject('postgresTemplate'));
    ({ db, t } = await appOn(await openDatabase({ kind: 'postgres', url, poolSize: 5 })));
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  it('leaves nothing of a killed run, passes its locked reviewers by meanwhile, and the next run reminds each once', async () => {
    await sendForReview(t);
    const now = new Date();
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', REPLICA, url, now.toISOString()],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const exited = once(child, 'exit');
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: string) => {
          output += chunk;
          if (output.includes('enqueued')) resolve();
        });
        child.on('exit', (code) =>
          reject(new Error(`the replica ended (${code}) before writing: ${output}`)),
        );
      });
      // Its mails are written but not committed, and it holds both reviewers: another replica skips them.
      expect(await remindersOf(db)).toEqual({ [REVIEWERS[0] as string]: 0, [REVIEWERS[1] as string]: 0 });
      expect(await remindReviewers(await replica(db), now)).toBe(0);
    } finally {
      // Killed here also when the test fails before: a replica left waiting would hold its locks on.
      child.kill('SIGKILL');
    }
    expect(await exited).toEqual([null, 'SIGKILL']);
    expect(await remindReviewers(await replica(db), now)).toBe(REVIEWERS.length);
    expect(await remindersOf(db)).toEqual(onceEach);
  }, 60_000);
});
