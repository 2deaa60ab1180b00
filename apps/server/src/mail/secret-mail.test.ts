import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { pgliteTestDatabase } from '../test/databases.js';
import { DELIVERED_SECRET_BODY, MailOutbox } from './mail-outbox.js';
import type { MailMessage } from './mailer.js';

describe('a mail that holds a one-time secret', () => {
  let db: Db;
  const delivered: MailMessage[] = [];
  let outbox: MailOutbox;

  beforeAll(async () => {
    db = await pgliteTestDatabase.open();
    outbox = new MailOutbox(
      db,
      {
        async send(message) {
          delivered.push(message);
        },
      },
      'support@demo.local',
      { warn() {} },
    );
  });
  afterAll(() => db.destroy());

  const bodyOf = async (subject: string) =>
    (
      await db
        .selectFrom('outgoing_mail')
        .select('body')
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow()
    ).body;

  it('is delivered whole and its stored text is gone once it was sent', async () => {
    await outbox.enqueue([
      { to: 'klara@kunde.example', subject: 'Code', text: 'Dein Code: 482913', secret: true },
      { to: 'klara@kunde.example', subject: 'Gewöhnlich', text: 'Nichts Geheimes' },
    ]);
    // Until it is delivered the text is needed: it is what will be sent.
    expect(await bodyOf('Code')).toBe('Dein Code: 482913');

    expect(await outbox.deliverDue()).toBe(2);
    expect(delivered.find((m) => m.subject === 'Code')?.text).toBe('Dein Code: 482913');
    expect(await bodyOf('Code')).toBe(DELIVERED_SECRET_BODY);
    expect(await bodyOf('Gewöhnlich')).toBe('Nichts Geheimes');
  });
});
