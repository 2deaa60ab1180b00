import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { PersonSearch } from './person-search.js';

/** The search shows at most so many hits per source and says where it stopped; below the limit it says nothing. */
describe.each(testDatabases())('the person search’s limit on $name', (database) => {
  let db: Db;
  beforeAll(async () => {
    db = await database.open();
    await db
      .insertInto('outgoing_mail')
      .values(
        [1, 2, 3].map((n) => ({ recipient: 'lena@limit.example', subject: `Mail ${n}`, body: 'Hallo Lena' })),
      )
      .execute();
    await db
      .insertInto('support_reports')
      .values({
        reporter_email: 'lena@limit.example',
        reporter_name: 'Lena Limit',
        subject: 'Frage',
        body: '…',
      })
      .execute();
  });
  afterAll(() => db.destroy());

  it('names the sources cut at the limit', async () => {
    const search = new PersonSearch(db);
    const cut = await search.find('lena@limit.example', 2);
    expect(cut.truncated).toEqual(['mail']);
    expect(cut.hits.filter((h) => h.source === 'mail')).toHaveLength(2);
    const whole = await search.find('lena@limit.example', 3);
    expect(whole.truncated).toEqual([]);
    expect(whole.hits.map((h) => h.source).sort()).toEqual(['mail', 'mail', 'mail', 'support_report']);
  });
});
