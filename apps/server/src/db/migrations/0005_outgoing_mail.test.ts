import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { MailOutbox } from '../../mail/mail-outbox.js';
import { pgliteTestDatabase } from '../../test/databases.js';
import { RecordingMailer } from '../../test/test-app.js';
import { migrationProvider } from './index.js';

describe('migration 0005: one mail outbox', () => {
  it('moves reports still waiting for delivery into the outbox, with the text they would have had', async () => {
    const db = await pgliteTestDatabase.openBlank();
    try {
      const migrator = new Migrator({ db, provider: migrationProvider });
      expect((await migrator.migrateTo('0004_documents')).error).toBeUndefined();
      await sql`
        insert into support_reports (reporter_email, reporter_name, subject, body, match_id, created_at, mailed_at, attempts)
        values ('berater@demo.local', 'Berta Berater', 'Wartet noch', 'SMTP war weg.', 'PL-10001', '2026-11-20T08:00:00Z', null, 3),
               ('legal@demo.local', 'Lena Legal', 'Schon versandt', 'Ist raus.', null, '2026-11-19T08:00:00Z', now(), 1)
      `.execute(db);
      expect((await migrator.migrateToLatest()).error).toBeUndefined();

      const queued = await db.selectFrom('outgoing_mail').selectAll().execute();
      expect(queued).toHaveLength(1);
      expect(queued[0]).toMatchObject({
        recipient: null,
        reply_to: 'berater@demo.local',
        subject: '[Vertragsgenerator] Problem gemeldet: Wartet noch',
        attempts: 3,
        sent_at: null,
      });
      expect(queued[0]?.body.split('\n')).toEqual([
        'Berta Berater <berater@demo.local> hat ein Problem gemeldet.',
        '',
        'Betreff: Wartet noch',
        'Match-ID: PL-10001',
        'Gemeldet am: 2026-11-20T08:00:00.000Z',
        expect.stringMatching(/^Meldung Nr\.: \d+$/),
        '',
        'SMTP war weg.',
      ]);

      // The support mailbox is the one configured when the mail goes out.
      const mailer = new RecordingMailer();
      await new MailOutbox(db, mailer, 'it-support@firma.example', { warn() {} }).deliverDue(
        new Date(Date.now() + 60_000),
      );
      expect(mailer.sent.map((m) => m.to)).toEqual(['it-support@firma.example']);
    } finally {
      await db.destroy();
    }
  });
});
