import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLog } from '../admin/audit-log.js';
import { CountersignatureSettings } from '../admin/countersignature-settings.js';
import type { Db } from '../db/database.js';
import { Metrics } from '../operations/metrics.js';
import { EnvelopesRepository } from '../signature/envelopes-repository.js';
import { testDatabases } from '../test/databases.js';
import { connectMessage } from '../test/docusign-api/connect-message.js';
import { connectApp, deliverSigned, docusignEnvelope } from '../test/docusign-connect-fixture.js';
import { type SummarySigner, withSigners } from '../test/docusign-fake-connect.js';

const partner: SummarySigner = {
  recipientId: '1',
  name: 'Paul Partner',
  email: 'paul@partner.example',
  roleName: 'Projektpartner',
};
const countersigner: SummarySigner = {
  recipientId: '2',
  name: 'Sabine Kroll',
  email: 'sabine.kroll@wm.example',
  roleName: 'Firma',
};
/** Someone the sender put in DocuSign's sender view in place of the countersigner: no role of ours. */
const addedInDocusign: SummarySigner = { recipientId: '3', name: 'Anna Andere', email: 'anna@wm.example' };

describe.each(testDatabases())(
  'DocuSign reports an envelope sent: with or without the company’s countersigner ($name)',
  (database) => {
    let db: Db;
    let app: FastifyInstance;
    let envelopes: EnvelopesRepository;
    let metrics: Metrics;

    beforeAll(async () => {
      db = await database.open();
      envelopes = new EnvelopesRepository(db);
      app = await connectApp(envelopes, () => {});
      metrics = new Metrics({ db, renderQueueDepth: () => 0, databasePoolInUse: () => undefined });
    });
    afterAll(async () => {
      await app.close();
      await db.destroy();
    });

    /** DocuSign's `envelope-sent` for the envelope, listing `signers`, or no recipients at all (null). */
    const sent = (externalId: string, signers: SummarySigner[] | null) => {
      const message = connectMessage('envelope-sent', {
        envelopeId: externalId,
        generatedDateTime: '2026-11-21T10:00:00.0000000Z',
      });
      return signers ? withSigners(message, signers) : message;
    };

    /** The envelope's history as a user reads it: every entry's detail. */
    const history = async (id: string) =>
      ((await envelopes.view(id, false))?.events ?? []).map((event) => event.detail ?? '');

    /** The metric's value for a check and envelope status; 0 where the series is absent. */
    async function figure(check: string, status: string): Promise<number> {
      const text = await metrics.text();
      const line = text
        .split('\n')
        .find((l) =>
          l.startsWith(`docusign_envelopes_without_countersignature{check="${check}",status="${status}"} `),
        );
      return line ? Number(line.split(' ')[1]) : 0;
    }

    it('records a contract sent without a signer of role Firma in the history and counts it', async () => {
      const { id, externalId } = await docusignEnvelope(db, envelopes);
      const before = await figure('missing', 'sent');

      await deliverSigned(app, sent(externalId, [partner, addedInDocusign]));

      const warnings = (await history(id)).filter((detail) =>
        detail.startsWith('In DocuSign ohne Gegenzeichnung versendet'),
      );
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toContain('„Firma“');
      expect(warnings[0]).toContain('„Vertrag“');
      expect(await figure('missing', 'sent')).toBe(before + 1);
    });

    it('records it once when DocuSign delivers the same event again', async () => {
      const { id, externalId } = await docusignEnvelope(db, envelopes);

      await deliverSigned(app, sent(externalId, [partner]));
      await deliverSigned(app, sent(externalId, [partner]));

      const warnings = (await history(id)).filter((detail) => detail.includes('ohne Gegenzeichnung'));
      expect(warnings).toHaveLength(1);
    });

    it('records and counts nothing when the countersigner is among the signers', async () => {
      const { id, externalId } = await docusignEnvelope(db, envelopes);
      const before = await figure('missing', 'sent');

      await deliverSigned(app, sent(externalId, [partner, countersigner]));

      const details = await history(id);
      expect(details.some((detail) => detail.startsWith('DocuSign: sent'))).toBe(true);
      expect(details.filter((detail) => detail.includes('Gegenzeichnung'))).toEqual([]);
      expect(await figure('missing', 'sent')).toBe(before);
    });

    it('says it cannot tell when the Connect message lists no recipients, and counts that apart', async () => {
      const { id, externalId } = await docusignEnvelope(db, envelopes);
      const missing = await figure('missing', 'sent');
      const unchecked = await figure('unchecked', 'sent');

      await deliverSigned(app, sent(externalId, null));

      const entries = (await history(id)).filter((detail) => detail.includes('Gegenzeichnung'));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatch(/^Gegenzeichnung in DocuSign nicht prüfbar: .*Include Recipients/);
      expect(await figure('unchecked', 'sent')).toBe(unchecked + 1);
      expect(await figure('missing', 'sent')).toBe(missing);
    });

    it('counts the envelope under its new status once it moves on', async () => {
      const { externalId } = await docusignEnvelope(db, envelopes);
      await deliverSigned(app, sent(externalId, [partner]));
      const [sentBefore, completedBefore] = [
        await figure('missing', 'sent'),
        await figure('missing', 'completed'),
      ];

      await deliverSigned(
        app,
        connectMessage('envelope-completed', {
          envelopeId: externalId,
          generatedDateTime: '2026-11-21T11:00:00.0000000Z',
        }),
      );

      expect(await figure('missing', 'sent')).toBe(sentBefore - 1);
      expect(await figure('missing', 'completed')).toBe(completedBefore + 1);
    });

    it('leaves a family alone that the administrators allowed without countersignature', async () => {
      const agreement = await docusignEnvelope(db, envelopes, { docKey: 'zusatz-wm-k-descr' });
      const settings = new CountersignatureSettings(db, new AuditLog(db));
      const contract = await docusignEnvelope(db, envelopes);
      await settings.change('admin@demo.local', 'contract', true);
      try {
        await deliverSigned(app, sent(agreement.externalId, [partner]));
        await deliverSigned(app, sent(contract.externalId, [partner]));
      } finally {
        await settings.change('admin@demo.local', 'contract', false);
      }

      for (const { id } of [agreement, contract]) {
        expect((await history(id)).filter((detail) => detail.includes('Gegenzeichnung'))).toEqual([]);
      }
    });
  },
);
