import type { MatchRecord } from '@vertragsgenerator/domain';
import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/database.js';
import { testDatabases } from '../test/databases.js';
import { DatabaseMatchSource } from './database-match-source.js';
import { MatchStore } from './match-store.js';

const id = (n: number) => `PL-${10_000 + n}`;

/** Match n: the EK only as its fallback field on odd ones, so the store's resolution shows. */
const record = (n: number): MatchRecord => ({
  matchId: id(n),
  kunde: `Kunde ${n}`,
  ...(n % 2 === 1 ? { tagessatzEk: n } : { ek: n }),
});

describe.each(testDatabases())('DatabaseMatchSource.findMany on $name', (database) => {
  let db: Db;
  let source: DatabaseMatchSource;
  /** The kind of each statement the source sent. */
  const statements: string[] = [];
  const recorder: KyselyPlugin = {
    transformQuery: ({ node }) => {
      statements.push(node.kind);
      return node;
    },
    transformResult: async ({ result }) => result,
  };

  beforeAll(async () => {
    db = await database.open();
    await new MatchStore(db).upsertMany(Array.from({ length: 1_000 }, (_, n) => record(n + 1)));
    source = new DatabaseMatchSource(db.withPlugin(recorder));
  });
  afterAll(() => db.destroy());
  beforeEach(() => {
    statements.length = 0;
  });

  it('finds 1,000 matches in two queries, resolved as find resolves them', async () => {
    const ids = Array.from({ length: 1_000 }, (_, n) => id(n + 1));
    const found = await source.findMany(ids);
    expect(statements).toEqual(['SelectQueryNode', 'SelectQueryNode']);
    expect(found.size).toBe(1_000);
    expect([...found.keys()]).toEqual(ids);
    expect(found.get(id(1))).toEqual({ matchId: id(1), kunde: 'Kunde 1', ek: 1 });
    expect(found.get(id(1000))).toEqual({ matchId: id(1000), kunde: 'Kunde 1000', ek: 1000 });
    for (const n of [1, 2, 499, 500, 501, 1000]) expect(found.get(id(n))).toEqual(await source.find(id(n)));
  });

  it('answers unknown IDs with undefined and looks up an ID given twice once', async () => {
    const found = await source.findMany([id(7), 'PL-99999', id(7), 'PL-88888', id(8)]);
    expect(statements).toEqual(['SelectQueryNode']);
    expect([...found.entries()]).toEqual([
      [id(7), { matchId: id(7), kunde: 'Kunde 7', ek: 7 }],
      ['PL-99999', undefined],
      ['PL-88888', undefined],
      [id(8), { matchId: id(8), kunde: 'Kunde 8', ek: 8 }],
    ]);
    expect(found.has('PL-99999')).toBe(true);
  });

  it('sends one query per 500 distinct IDs, and none for none', async () => {
    const ids = [...Array.from({ length: 1_200 }, (_, n) => id(n + 1)), id(1), id(2)];
    const found = await source.findMany(ids);
    expect(statements).toHaveLength(3);
    expect(found.size).toBe(1_200);
    expect(found.get(id(1001))).toBeUndefined();
    statements.length = 0;
    expect((await source.findMany([])).size).toBe(0);
    expect(statements).toEqual([]);
  });
});
