import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { deleteExpiredPayloads, payloadAdapterFactory } from './payload-adapter.js';

describe.each(testDatabases())('identity provider storage on $name', (database) => {
  let db: Db;
  let Adapter: ReturnType<typeof payloadAdapterFactory>;
  beforeAll(async () => {
    db = await database.open();
    Adapter = payloadAdapterFactory(db);
  });
  afterAll(() => db.destroy());

  it('stores, finds by id, uid and user code, consumes and destroys', async () => {
    const sessions = new Adapter('Session');
    await sessions.upsert('s1', { uid: 'u1', accountId: 'legal@demo.local' }, 60);
    expect(await sessions.find('s1')).toMatchObject({ accountId: 'legal@demo.local' });
    expect(await sessions.findByUid('u1')).toMatchObject({ accountId: 'legal@demo.local' });
    expect(await new Adapter('Interaction').find('s1')).toBeUndefined();

    const codes = new Adapter('DeviceCode');
    await codes.upsert('d1', { userCode: 'ABCD' }, 60);
    expect(await codes.findByUserCode('ABCD')).toBeDefined();
    await codes.consume('d1');
    expect((await codes.find('d1'))?.consumed).toEqual(expect.any(Number));

    await sessions.destroy('s1');
    expect(await sessions.find('s1')).toBeUndefined();
  });

  it('treats expired payloads as gone and deletes them in housekeeping', async () => {
    const interactions = new Adapter('Interaction');
    await interactions.upsert('old', { uid: 'old' }, 1);
    await db
      .updateTable('idp_payloads')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('id', '=', 'old')
      .execute();
    expect(await interactions.find('old')).toBeUndefined();
    expect(await deleteExpiredPayloads(db)).toBeGreaterThanOrEqual(1);
  });

  it('revokes only what was issued under a grant, not the interaction that mentions it', async () => {
    await new Adapter('AuthorizationCode').upsert('c1', { grantId: 'g1' }, 60);
    await new Adapter('AccessToken').upsert('a1', { grantId: 'g1' }, 60);
    await new Adapter('Interaction').upsert('i1', { grantId: 'g1', uid: 'i1' }, 60);
    await new Adapter('AccessToken').revokeByGrantId('g1');
    expect(await new Adapter('AuthorizationCode').find('c1')).toBeUndefined();
    expect(await new Adapter('AccessToken').find('a1')).toBeUndefined();
    expect(await new Adapter('Interaction').find('i1')).toBeDefined();
  });
});
