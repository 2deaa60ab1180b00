import { join } from 'node:path';
import type { ApprovalBatch, ApprovalList, Batch } from '@vertragsgenerator/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import type { Db } from '../db/database.js';
import { seedDemoMatches } from '../matches/demo.js';
import { MatchStore } from '../matches/match-store.js';
import { testDatabases } from '../test/databases.js';
import { eventually } from '../test/eventually.js';
import { bearer, createTestApp, type TestApp } from '../test/test-app.js';

const { configDir } = loadConfig({}, '0');
/** An e-signature Rahmenvertrag for a customer with one signer. */
const CONTRACT = 'de-wm-k-rv-1';
/** Invitations per minute in this suite: one every two seconds. */
const PACE = 30;
const base64 = (text: string) => Buffer.from(text).toString('base64');

/**
 * Deals of the demo data: PL-10001 and PL-10002 have healthy margins; PL-10006 sells below its buying
 * rate and PL-10011 has a selling rate without its buying rate, so the default rules ask for Freigabe of both.
 */
const csv = [
  'Match-ID;Unterzeichner;Unterzeichner E-Mail',
  'PL-10001;Kim Kaiser;kim.kaiser@elbwerk.example',
  'PL-10002;Rita Rhein;rita.rhein@rheinauen.example',
  'PL-10006;Bodo Brückner;bodo@brueckner.example',
  'PL-10011;Olaf Ostsee;olaf@ostseeblick.example',
  'PL-10003;;',
].join('\r\n');

describe.each(testDatabases())('Serien of e-signature contracts on $name', (database) => {
  let db: Db;
  let t: TestApp;
  let legal: string;
  let leader: string;
  let consultant: string;

  beforeAll(async () => {
    db = await database.open();
    await seedDemoMatches(join(configDir, 'demo-matches.json'), new MatchStore(db));
    t = await createTestApp(db, { demoStaff: true, env: { BATCH_INVITATIONS_PER_MINUTE: String(PACE) } });
    [legal, leader, consultant] = await Promise.all([
      t.signIn('legal@demo.local'),
      t.signIn('leitung@demo.local'),
      t.signIn('berater@demo.local'),
    ]);
  });
  afterAll(async () => {
    await t.app.close();
    await db.destroy();
  });

  const call = (method: 'GET' | 'POST', url: string, token = legal, payload?: Record<string, unknown>) =>
    t.app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload }) });
  const read = async (id: string): Promise<Batch> => (await call('GET', `/backend/batches/${id}`)).json();
  const finished = (id: string) =>
    eventually(`batch ${id} finished`, async () => {
      const batch = await read(id);
      return batch.status === 'finished' ? batch : undefined;
    });
  const deal = (batch: Batch, matchId: string) => {
    const found = batch.items.find((item) => item.matchId === matchId);
    if (!found) throw new Error(`${matchId} is not in the batch`);
    return found;
  };
  const envelope = (id: string | null) =>
    db
      .selectFrom('envelopes')
      .select(['status', 'request_key', 'created_by'])
      .where('id', '=', id ?? '')
      .executeTakeFirstOrThrow();

  async function startedBatch(): Promise<{ batch: Batch; countersignatory: { id: string; name: string } }> {
    const options = await call('GET', `/backend/batches/countersignature?docKey=${CONTRACT}`);
    expect(options.statusCode, options.body).toBe(200);
    const { id: countersignatory, name } = options.json().options[0] as { id: string; name: string };
    const response = await call('POST', '/backend/batches', legal, {
      docKey: CONTRACT,
      values: {},
      file: { name: 'vertraege.csv', content: base64(csv) },
      send: { countersignatory, message: 'Wie besprochen, zur Unterschrift.' },
    });
    expect(response.statusCode, response.body).toBe(201);
    const checked: Batch = response.json();
    expect(checked.items.map((item) => [item.matchId, item.verdict])).toEqual([
      ['PL-10001', 'ready'],
      ['PL-10002', 'ready'],
      ['PL-10006', 'approval'],
      ['PL-10011', 'approval'],
      ['PL-10003', 'cannot'],
    ]);
    expect(deal(checked, 'PL-10003').reason).toBe(
      'Unterzeichner: Bitte gib einen Namen ein. Unterzeichner E-Mail: Bitte gib eine E-Mail-Adresse ein.',
    );
    expect(checked.send).toEqual({ countersignatory, message: 'Wie besprochen, zur Unterschrift.' });
    expect((await call('POST', `/backend/batches/${checked.id}/start`)).statusCode).toBe(200);
    return { batch: await finished(checked.id), countersignatory: { id: countersignatory, name } };
  }

  it('sends each ready deal’s envelope once, with the batch’s countersignatory and message, its invitations spread', async () => {
    const { batch, countersignatory } = await startedBatch();
    const ready = ['PL-10001', 'PL-10002'].map((id) => deal(batch, id));
    for (const item of ready) {
      expect(item.status).toBe('done');
      expect(await envelope(item.envelopeId)).toEqual({
        status: 'sent',
        request_key: `batch-${item.id}`,
        created_by: 'legal@demo.local',
      });
      const recipients = await db
        .selectFrom('envelope_recipients')
        .select(['role', 'name', 'status'])
        .where('envelope_id', '=', item.envelopeId ?? '')
        .orderBy('routing_order')
        .execute();
      expect(recipients[0]).toMatchObject({ role: 'Kunde', status: 'sent' });
      // The company countersigns last, as the one chosen for the whole batch.
      expect(recipients.at(-1)).toMatchObject({
        role: 'Firma',
        name: countersignatory.name,
        status: 'waiting',
      });
      const sent = await db
        .selectFrom('envelopes')
        .select('message')
        .where('id', '=', item.envelopeId ?? '')
        .executeTakeFirstOrThrow();
      expect(sent.message).toBe('Wie besprochen, zur Unterschrift.');
    }
    // One invitation per envelope (the customer signs first), each held for the batch's next slot.
    const invitations = await db
      .selectFrom('outgoing_mail')
      .select(['reference', 'next_attempt_at'])
      .where(
        'reference',
        'in',
        ready.map((item) => `envelope:${item.envelopeId}`),
      )
      .orderBy('next_attempt_at')
      .execute();
    expect(invitations).toHaveLength(2);
    const [first, second] = invitations.map((mail) => new Date(mail.next_attempt_at).getTime());
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual((60 / PACE) * 1000 - 5);

    // A deal whose outcome was lost after its send (tried again) finds its document and its envelope
    // sent: nothing is made or mailed twice.
    const again = ready[0];
    if (!again) throw new Error('no ready deal');
    await db.updateTable('batch_items').set({ status: 'failed' }).where('id', '=', again.id).execute();
    expect((await call('POST', `/backend/batches/${batch.id}/retry`)).statusCode).toBe(200);
    const retried = await finished(batch.id);
    expect(deal(retried, 'PL-10001')).toMatchObject({ status: 'done', envelopeId: again.envelopeId });
    const perDeal = await db
      .selectFrom('envelopes')
      .select(['request_key', (eb) => eb.fn.countAll<string>().as('n')])
      .where('request_key', 'like', 'batch-%')
      .where(
        'request_key',
        'in',
        batch.items.map((item) => `batch-${item.id}`),
      )
      .groupBy('request_key')
      .execute();
    expect(perDeal).toHaveLength(4);
    expect(perDeal.every((row) => Number(row.n) === 1)).toBe(true);
    const mails = await db
      .selectFrom('outgoing_mail')
      .select('id')
      .where('reference', '=', `envelope:${again.envelopeId}`)
      .execute();
    expect(mails).toHaveLength(1);
  });

  it('holds the deals that need Freigabe and asks for them as one request: four eyes, approved whole, then sent', async () => {
    const { batch } = await startedBatch();
    const held = ['PL-10006', 'PL-10011'].map((id) => deal(batch, id));
    for (const item of held) {
      expect(item.status).toBe('approval');
      expect(item.approval?.status).toBe('open');
      expect((await envelope(item.envelopeId)).status).toBe('created');
    }
    // The approvers (the leaders first) are mailed once for the batch, not once per deal.
    const leaders = await db.selectFrom('users').select('email').where('permission', '=', 3).execute();
    const asked = await db
      .selectFrom('outgoing_mail')
      .select(['recipient', 'subject'])
      .where('reference', '=', `batch:${batch.id}`)
      .where('subject', 'like', 'Freigabe erbeten%')
      .execute();
    expect(asked.map((mail) => mail.recipient).sort()).toEqual(leaders.map((l) => l.email).sort());
    expect(asked[0]?.subject).toBe('Freigabe erbeten: Serie Rahmenvertrag – Kunde, WM (2 Deals)');
    expect(
      await db
        .selectFrom('outgoing_mail')
        .select('id')
        .where('reference', 'like', 'approval:%')
        .where('subject', 'like', 'Freigabe erbeten%')
        .execute(),
    ).toHaveLength(0);

    const list: ApprovalList = (await call('GET', '/backend/approvals', leader)).json();
    expect(list.requests.filter((request) => request.batchId)).toEqual([]);
    expect(list.batches.find((group) => group.batchId === batch.id)).toMatchObject({
      deals: 2,
      open: 2,
      mayDecide: true,
      requestedBy: { email: 'legal@demo.local' },
    });
    // The search finds a batch by one of its deals, and only then.
    const searched = async (q: string): Promise<ApprovalList> =>
      (await call('GET', `/backend/approvals?status=all&q=${q}`, leader)).json();
    expect((await searched('PL-10011')).batches.map((group) => group.batchId)).toContain(batch.id);
    expect((await searched('PL-10001')).batches.map((group) => group.batchId)).not.toContain(batch.id);
    // The starter sees it but may not decide it; a consultant sees nothing of it.
    const own: ApprovalBatch = (await call('GET', `/backend/approval-batches/${batch.id}`)).json();
    expect(own.mayDecide).toBe(false);
    expect((await call('POST', `/backend/approval-batches/${batch.id}/approve`, legal, {})).statusCode).toBe(
      403,
    );
    expect((await call('GET', `/backend/approval-batches/${batch.id}`, consultant)).statusCode).toBe(404);
    expect(
      (await call('POST', `/backend/approval-batches/${batch.id}/approve`, consultant, {})).statusCode,
    ).toBe(404);

    const approved = await call('POST', `/backend/approval-batches/${batch.id}/approve`, leader, {
      comment: 'Passt so.',
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ approved: 2, skipped: 0, batch: { open: 0, approved: 2 } });
    for (const item of held)
      await eventually(`envelope of ${item.matchId} sent`, async () =>
        (await envelope(item.envelopeId)).status === 'sent' ? true : undefined,
      );
    const told = await db
      .selectFrom('outgoing_mail')
      .select('subject')
      .where('recipient', '=', 'legal@demo.local')
      .where('reference', '=', `batch:${batch.id}`)
      .where('subject', 'like', 'Freigegeben%')
      .execute();
    expect(told).toEqual([{ subject: 'Freigegeben: 2 Deals der Serie Rahmenvertrag – Kunde, WM' }]);
    const after = await read(batch.id);
    expect(held.map((item) => deal(after, item.matchId).approval?.status)).toEqual(['approved', 'approved']);
  });

  it('decides a Word batch’s deals one by one: a declined deal stays locked, an approved one downloads', async () => {
    const response = await call('POST', '/backend/batches', legal, {
      docKey: 'zusatz-wm-k-misc',
      values: {},
      matchIds: 'PL-10006 PL-10011',
    });
    expect(response.statusCode, response.body).toBe(201);
    const id = response.json().id as string;
    await call('POST', `/backend/batches/${id}/start`);
    const batch = await finished(id);
    const group: ApprovalBatch = (await call('GET', `/backend/approval-batches/${id}`, leader)).json();
    const [first, second] = group.requests;
    if (!first || !second) throw new Error('two deals expected');
    expect(group.requests.every((request) => request.envelopeId === null && request.mayDecide)).toBe(true);
    const declined = await call('POST', `/backend/approvals/${first.id}/decline`, leader, {
      reason: 'Marge nachverhandeln.',
    });
    expect(declined.statusCode, declined.body).toBe(200);
    expect((await call('POST', `/backend/approvals/${second.id}/approve`, leader, {})).statusCode).toBe(200);
    const download = (documentId: string) => call('GET', `/backend/documents/${documentId}/download`);
    expect((await download(first.documentId)).statusCode).toBe(409);
    expect((await download(second.documentId)).statusCode).toBe(200);
    // The decline reaches the starter with its reason; the single approval writes no mail of its own.
    const mails = await db
      .selectFrom('outgoing_mail')
      .select(['subject', 'body'])
      .where('recipient', '=', 'legal@demo.local')
      .where('reference', 'in', [`approval:${first.id}`, `approval:${second.id}`])
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]?.body).toContain('Grund: Marge nachverhandeln.');
    const after = await read(batch.id);
    expect(after.items.map((item) => item.approval?.status).sort()).toEqual(['approved', 'declined']);
  });
});
