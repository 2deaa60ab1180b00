import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { storeDocument, storeEnvelope } from './fixtures.js';
import { PersonErasure } from './person-erase.js';
import { PersonExports } from './person-export.js';
import { PersonSearch } from './person-search.js';
import { RetentionRules } from './retention-rules.js';

const ERASED = /gelöscht am \d\d\.\d\d\.\d{4}/;
const PETRA = { name: 'Petra Partner', email: 'petra@partner.example' };
const CARL = { name: 'Carl Colleague', email: 'carl@demo.local' };
const YEAR = 365 * 24 * 60 * 60_000;

/**
 * Approvals and webhook events name people too — the recipients of the send an approval holds, who asked,
 * who decided and why, the signers a webhook event reports — and a colleague is named as the sender of
 * their envelopes: search, export and erase take all of it in.
 */
describe.each(testDatabases())('a person in approvals, webhooks and as sender on $name', (database) => {
  let db: Db;
  let search: PersonSearch;
  let erasure: PersonErasure;
  let exports: PersonExports;
  let declined: string;
  let completed: string;
  let endedRequest: string;
  let keptRequest: string;

  async function request(envelopeId: string, documentId: string, matchId: string): Promise<string> {
    const row = await db
      .insertInto('approval_requests')
      .values({
        envelope_id: envelopeId,
        document_id: documentId,
        document_version: 1,
        document_sha256: 'x',
        match_id: matchId,
        doc_key: 'de-wm-pp-rv',
        file_name: 'Vertrag.docx',
        customer: 'Elbwerk Logistik AG',
        requested_by: CARL.email,
        requested_by_name: CARL.name,
        reasons: '[]',
        rules: '{}',
        send_request: JSON.stringify({ recipients: [{ role: 'Projektpartner', ...PETRA }] }),
        status: 'approved',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('approval_decisions')
      .values({
        request_id: row.id,
        decision: 'approved',
        decided_by: 'leitung@demo.local',
        decided_by_name: 'Lea Leitung',
        comment: `Marge passt, ${PETRA.name} kennen wir`,
      })
      .execute();
    return row.id;
  }

  beforeAll(async () => {
    db = await database.open();
    const audit = new AuditLog(db);
    search = new PersonSearch(db);
    const rules = new RetentionRules(db, audit);
    erasure = new PersonErasure({ db, audit, search, rules, configuredAdministrators: new Set() });
    exports = new PersonExports(db, audit, search, undefined);
    await db
      .insertInto('users')
      .values({ email: CARL.email, name: CARL.name, permission: 1, updated_at: new Date() })
      .execute();
    const declinedDocument = await storeDocument(db, {
      matchId: 'PL-81',
      createdAt: new Date(Date.now() - YEAR),
    });
    declined = await storeEnvelope(db, {
      documentId: declinedDocument,
      matchId: 'PL-81',
      status: 'declined',
      createdAt: new Date(Date.now() - YEAR),
      recipients: [{ ...PETRA, status: 'declined' }],
    });
    const completedDocument = await storeDocument(db, {
      matchId: 'PL-82',
      createdAt: new Date(Date.now() - YEAR),
    });
    completed = await storeEnvelope(db, {
      documentId: completedDocument,
      matchId: 'PL-82',
      status: 'completed',
      createdAt: new Date(Date.now() - YEAR),
      completedAt: new Date('2026-02-01T00:00:00Z'),
      recipients: [{ name: 'Otto Other', email: 'otto@other.example' }],
    });
    await db
      .updateTable('envelopes')
      .set({ sender_name: CARL.name, sender_email: CARL.email, created_by: CARL.email })
      .where('id', 'in', [declined, completed])
      .execute();
    await db
      .insertInto('envelope_events')
      .values({ envelope_id: declined, type: 'sent', actor: CARL.email, ip: '192.0.2.1' })
      .execute();
    endedRequest = await request(declined, declinedDocument, 'PL-81');
    keptRequest = await request(completed, completedDocument, 'PL-82');
    await db
      .insertInto('webhook_events')
      .values({
        type: 'envelope.declined',
        payload: JSON.stringify({ data: { matchId: 'PL-81', signer: PETRA } }),
        created_at: new Date('2026-11-01T00:00:00Z'),
      })
      .execute();
  });
  afterAll(() => db.destroy());

  it('finds her in approval requests, decisions and webhook events, and exports those records', async () => {
    const { hits } = await search.find(PETRA.email);
    const places = hits.filter((h) => h.source.startsWith('approval') || h.source === 'webhook_event');
    expect(places.map((h) => `${h.source} ${h.matchId}`).sort()).toEqual([
      'approval_decision PL-81',
      'approval_decision PL-82',
      'approval_request PL-81',
      'approval_request PL-82',
      'webhook_event PL-81',
    ]);
    const created = await exports.create('ops@demo.local', PETRA.email);
    const row = await db
      .selectFrom('person_exports')
      .select('content')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    const json = JSON.parse(new PizZip(row.content).file('person.json')?.asText() ?? '{}');
    expect(json.datensaetze.approvalRequests.map((r: { id: string }) => r.id).sort()).toEqual(
      [endedRequest, keptRequest].sort(),
    );
    expect(json.datensaetze.approvalDecisions).toHaveLength(2);
    expect(json.datensaetze.webhookEvents).toHaveLength(1);
  });

  it('replaces her in the ended envelope’s approval, and lists the contract’s approval and the webhook event with rule and date', async () => {
    const result = await erasure.erase('ops@demo.local', { email: PETRA.email });
    const ended = await db
      .selectFrom('approval_requests')
      .select(['send_request'])
      .where('id', '=', endedRequest)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(ended.send_request)).not.toMatch(/petra/i);
    expect(JSON.stringify(ended.send_request)).toMatch(ERASED);
    const decision = await db
      .selectFrom('approval_decisions')
      .select('comment')
      .where('request_id', '=', endedRequest)
      .executeTakeFirstOrThrow();
    expect(decision.comment).toMatch(/^Marge passt, gelöscht am \d\d\.\d\d\.\d{4} kennen wir$/);
    const kept = await db
      .selectFrom('approval_requests')
      .select('send_request')
      .where('id', '=', keptRequest)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(kept.send_request)).toContain(PETRA.email);
    expect(result.retained).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: keptRequest,
          rule: 'Abgeschlossene Verträge und ihre gesiegelten PDFs',
          until: '2036-02-01T00:00:00.000Z',
        }),
        expect.objectContaining({
          what: 'Webhook-Ereignis envelope.declined',
          rule: 'Webhook-Zustellungen (mit ihren Versuchen)',
          until: '2027-01-30T00:00:00.000Z',
        }),
      ]),
    );
  });

  it('replaces a colleague as sender of ended envelopes and lists the completed one with its rule', async () => {
    const result = await erasure.erase('ops@demo.local', { email: CARL.email });
    const sender = await db
      .selectFrom('envelopes')
      .select(['sender_name', 'sender_email', 'created_by'])
      .where('id', '=', declined)
      .executeTakeFirstOrThrow();
    expect(sender.sender_name).toMatch(ERASED);
    expect(sender.sender_email).toMatch(ERASED);
    expect(sender.created_by).toMatch(ERASED);
    const sent = await db
      .selectFrom('envelope_events')
      .select(['actor', 'ip'])
      .where('envelope_id', '=', declined)
      .where('type', '=', 'sent')
      .executeTakeFirstOrThrow();
    expect(sent.actor).toMatch(ERASED);
    expect(sent.ip).toBeNull();
    expect(
      (
        await db
          .selectFrom('envelopes')
          .select('sender_email')
          .where('id', '=', completed)
          .executeTakeFirstOrThrow()
      ).sender_email,
    ).toBe(CARL.email);
    expect(result.retained).toContainEqual(
      expect.objectContaining({
        what: `Absender des Umschlags ${completed}`,
        until: '2036-02-01T00:00:00.000Z',
      }),
    );
    const asker = await db
      .selectFrom('approval_requests')
      .select(['requested_by', 'requested_by_name'])
      .where('id', '=', endedRequest)
      .executeTakeFirstOrThrow();
    expect(asker.requested_by).toMatch(ERASED);
    expect(asker.requested_by_name).toMatch(ERASED);
  });
});
