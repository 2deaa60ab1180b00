import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/database.js';
import { testDatabases } from '../../test/databases.js';
import { MatchSourceUnavailableError, MatchUnreadableError } from '../match-source.js';
import { CrmMatchCache } from './crm-cache.js';
import { type CrmClient, CrmRefusedError, CrmSignInRefusedError, CrmTransientError } from './crm-client.js';
import {
  CRM_SIGN_IN_REFUSED_MESSAGE,
  CRM_UNAVAILABLE_MESSAGE,
  type CrmCacheOptions,
  CrmMatchSource,
} from './crm-match-source.js';
import { parseCrmMapping } from './mapping.js';

const MAPPING = parseCrmMapping(
  {
    matchId: 'id',
    fields: { kunde: { path: 'customer', required: true }, ek: { path: 'buy', format: 'number' } },
  },
  'test mapping',
);
const RETRY = { retries: 2, backoffMs: 5 };

const id = (n: number) => `PL-${10_000 + n}`;
const crmRecord = (matchId: string, customer = `Kunde ${matchId}`) => ({
  id: matchId,
  customer,
  buy: '92,50',
});

/** What the fake CRM does for one attempt of an ID: its record, or an error to throw. */
type Answer = (matchId: string, attempt: number) => unknown;

/**
 * A CRM client in memory without `fetchRecords`, as the HTTP CRM: each `fetchRecord` takes a few
 * milliseconds, so that calls overlap, and it counts how many run at once.
 */
class OneByOneClient implements CrmClient {
  readonly calls: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(
    private readonly answer: Answer,
    private readonly delayMs = 2,
  ) {}

  async fetchRecord(matchId: string): Promise<unknown> {
    this.calls.push(matchId);
    const attempt = this.calls.filter((call) => call === matchId).length;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await sleep(this.delayMs);
      const answer = this.answer(matchId, attempt);
      if (answer instanceof Error) throw answer;
      return answer;
    } finally {
      this.inFlight--;
    }
  }
}

/** A CRM client with `fetchRecords`, as Salesforce's: it records the IDs of every call. */
class BulkClient implements CrmClient {
  readonly bulkCalls: string[][] = [];
  readonly singleCalls: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  constructor(private readonly answer: (matchIds: readonly string[], call: number) => Map<string, unknown>) {}

  async fetchRecord(matchId: string): Promise<unknown> {
    this.singleCalls.push(matchId);
    return crmRecord(matchId);
  }

  async fetchRecords(matchIds: readonly string[]): Promise<Map<string, unknown>> {
    const call = this.bulkCalls.push([...matchIds]);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await sleep(2);
      return this.answer(matchIds, call);
    } finally {
      this.inFlight--;
    }
  }
}

const knownUpTo = (last: number) => (matchId: string) =>
  Number(matchId.slice(3)) - 10_000 <= last ? crmRecord(matchId) : undefined;

describe('CrmMatchSource.findMany with a client that fetches one record at a time', () => {
  it('asks once per distinct ID, at most 4 at a time, and answers each as find does', async () => {
    const client = new OneByOneClient(knownUpTo(990));
    const source = new CrmMatchSource(client, MAPPING, RETRY);
    const ids = Array.from({ length: 1_000 }, (_, n) => id(n + 1));
    const found = await source.findMany([...ids, id(1), id(500)]);
    expect(client.calls).toHaveLength(1_000);
    expect(new Set(client.calls).size).toBe(1_000);
    expect(client.maxInFlight).toBe(4);
    expect([...found.keys()]).toEqual(ids);
    expect(found.get(id(1))).toEqual({ matchId: id(1), kunde: `Kunde ${id(1)}`, ek: 92.5 });
    expect(found.get(id(990))).toEqual(await source.find(id(990)));
    expect(found.get(id(991))).toBeUndefined();
    expect(found.has(id(1000))).toBe(true);
    expect(found.get(id(1000))).toBeUndefined();
  });

  it('takes an answer for another match as unknown, as find does', async () => {
    const source = new CrmMatchSource(new OneByOneClient(() => crmRecord(id(2))), MAPPING, RETRY);
    expect([...(await source.findMany([id(1), id(2)])).entries()]).toEqual([
      [id(1), undefined],
      [id(2), { matchId: id(2), kunde: `Kunde ${id(2)}`, ek: 92.5 }],
    ]);
  });

  it('retries a transient error for its ID alone', async () => {
    const client = new OneByOneClient((matchId, attempt) =>
      matchId === id(3) && attempt < 3 ? new CrmTransientError('503') : crmRecord(matchId),
    );
    const found = await new CrmMatchSource(client, MAPPING, RETRY).findMany([id(1), id(2), id(3), id(4)]);
    expect(client.calls.filter((call) => call === id(3))).toHaveLength(3);
    expect(client.calls).toHaveLength(6);
    expect(found.get(id(3))).toMatchObject({ matchId: id(3) });
  });

  it('answers an unreadable record with its MatchUnreadableError, for that ID only', async () => {
    const client = new OneByOneClient((matchId) =>
      matchId === id(2) ? { id: matchId, buy: '1' } : crmRecord(matchId),
    );
    const found = await new CrmMatchSource(client, MAPPING, RETRY).findMany([id(1), id(2), id(3)]);
    const unreadable = found.get(id(2));
    expect(unreadable).toBeInstanceOf(MatchUnreadableError);
    expect((unreadable as MatchUnreadableError).userMessage).toContain('Feld „kunde“: Pflichtfeld fehlt');
    expect(found.get(id(1))).toMatchObject({ matchId: id(1) });
    expect(found.get(id(3))).toMatchObject({ matchId: id(3) });
    // An unreadable record is an answer: not retried.
    expect(client.calls).toHaveLength(3);
  });

  it('throws "CRM nicht erreichbar" for a CRM that is down, after the retries, and stops asking', async () => {
    const client = new OneByOneClient(() => new CrmTransientError('connection refused'));
    const ids = Array.from({ length: 100 }, (_, n) => id(n + 1));
    const error = await new CrmMatchSource(client, MAPPING, RETRY)
      .findMany(ids)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchSourceUnavailableError);
    expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_UNAVAILABLE_MESSAGE);
    // Each ID asked was asked three times; once the first failed for good, no further ID was asked.
    const perId = new Map<string, number>();
    for (const call of client.calls) perId.set(call, (perId.get(call) ?? 0) + 1);
    expect([...perId.values()].every((calls) => calls === 1 + RETRY.retries)).toBe(true);
    expect(perId.size).toBeLessThanOrEqual(4);
    await sleep(50);
    expect(new Set(client.calls).size).toBe(perId.size);
  });

  it('does not retry a refusal', async () => {
    const client = new OneByOneClient(() => new CrmRefusedError('401'));
    const error = await new CrmMatchSource(client, MAPPING, RETRY)
      .findMany([id(1)])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchSourceUnavailableError);
    expect(client.calls).toEqual([id(1)]);
  });
});

describe('CrmMatchSource.findMany with a client that fetches many records at once', () => {
  const all = (matchIds: readonly string[]) =>
    new Map(matchIds.map((matchId) => [matchId, crmRecord(matchId)]));

  it('asks fetchRecords for up to 200 IDs a call, never fetchRecord', async () => {
    const client = new BulkClient((matchIds) => all(matchIds.filter((matchId) => matchId !== id(7))));
    const ids = Array.from({ length: 1_000 }, (_, n) => id(n + 1));
    const found = await new CrmMatchSource(client, MAPPING, RETRY).findMany([...ids, ...ids.slice(0, 10)]);
    expect(client.bulkCalls.map((call) => call.length)).toEqual([200, 200, 200, 200, 200]);
    expect(client.bulkCalls.flat()).toEqual(ids);
    expect(client.singleCalls).toEqual([]);
    expect(client.maxInFlight).toBe(4);
    expect(found.size).toBe(1_000);
    expect(found.get(id(1000))).toMatchObject({ matchId: id(1000), ek: 92.5 });
    expect(found.get(id(7))).toBeUndefined();
  });

  it('retries a failed call for its own IDs', async () => {
    const client = new BulkClient((matchIds, call) => {
      if (call === 1) throw new CrmTransientError('503');
      return all(matchIds);
    });
    const ids = Array.from({ length: 450 }, (_, n) => id(n + 1));
    const found = await new CrmMatchSource(client, MAPPING, RETRY).findMany(ids);
    // The three calls start together; the first one's IDs are asked again.
    expect(client.bulkCalls.map((call) => call.length)).toEqual([200, 200, 50, 200]);
    expect(client.bulkCalls[3]).toEqual(client.bulkCalls[0]);
    expect(found.size).toBe(450);
    expect(found.get(id(1))).toMatchObject({ matchId: id(1) });
  });

  it('tells the operators of a refused sign-in once per findMany', async () => {
    const client = new BulkClient(() => {
      throw new CrmSignInRefusedError('401 with a fresh token');
    });
    const source = new CrmMatchSource(client, MAPPING, RETRY);
    let refusals = 0;
    source.observe({ crmSignInRefused: () => refusals++ });
    const error = await source
      .findMany(Array.from({ length: 800 }, (_, n) => id(n)))
      .catch((caught: unknown) => caught);
    expect((error as MatchSourceUnavailableError).userMessage).toBe(CRM_SIGN_IN_REFUSED_MESSAGE);
    expect(client.bulkCalls).toHaveLength(4);
    expect(refusals).toBe(1);
  });
});

describe.each(testDatabases())('CrmMatchSource.findMany with the cache on $name', (database) => {
  let db: Db;
  let cache: CrmCacheOptions;

  beforeAll(async () => {
    db = await database.open();
    cache = { store: new CrmMatchCache(db), maxAgeSeconds: 600, firstDeadlineMs: 100 };
  });
  afterAll(() => db.destroy());

  const stored = (matchIds: string[]) =>
    db
      .selectFrom('crm_match_cache')
      .select(['match_id', 'record'])
      .where('match_id', 'in', matchIds)
      .execute();

  it('stores the answers, and answers from them, marked, per ID while the CRM is down', async () => {
    const ids = [id(101), id(102), id(103)];
    const up = new OneByOneClient((matchId) => (matchId === id(103) ? undefined : crmRecord(matchId)));
    await new CrmMatchSource(up, MAPPING, RETRY, cache).findMany(ids);
    expect((await stored(ids)).map((row) => row.match_id).sort()).toEqual([id(101), id(102)]);

    const down = new OneByOneClient(() => new CrmTransientError('503'));
    const found = await new CrmMatchSource(down, MAPPING, RETRY, cache).findMany([id(101), id(102)]);
    expect(found.get(id(101))).toEqual({
      matchId: id(101),
      kunde: `Kunde ${id(101)}`,
      ek: 92.5,
      cachedAt: expect.any(String),
    });
    expect(found.get(id(102))).toMatchObject({ matchId: id(102), cachedAt: expect.any(String) });

    // An ID without a stored answer cannot be answered: as find, findMany throws.
    const error = await new CrmMatchSource(down, MAPPING, RETRY, cache)
      .findMany([id(101), id(103)])
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MatchSourceUnavailableError);
  });

  it('answers fresh records unmarked and refreshes the store', async () => {
    const ids = [id(201), id(202)];
    await new CrmMatchSource(
      new OneByOneClient((matchId) => crmRecord(matchId, 'Alt AG')),
      MAPPING,
      RETRY,
      cache,
    ).findMany(ids);
    const client = new OneByOneClient((matchId) => crmRecord(matchId, 'Neu AG'));
    const found = await new CrmMatchSource(client, MAPPING, RETRY, cache).findMany(ids);
    expect(found.get(id(201))).toEqual({ matchId: id(201), kunde: 'Neu AG', ek: 92.5 });
    expect((await stored(ids)).map((row) => row.record.kunde)).toEqual(['Neu AG', 'Neu AG']);
  });

  it('answers stored records after the short first deadline when the CRM is slow', async () => {
    const ids = [id(301), id(302)];
    await new CrmMatchSource(
      new OneByOneClient((matchId) => crmRecord(matchId)),
      MAPPING,
      RETRY,
      cache,
    ).findMany(ids);
    const slow = new OneByOneClient((matchId) => crmRecord(matchId, 'Später AG'), 1_000);
    const started = performance.now();
    const found = await new CrmMatchSource(slow, MAPPING, RETRY, cache).findMany(ids);
    expect(performance.now() - started).toBeLessThan(800);
    expect(found.get(id(301))).toMatchObject({ kunde: `Kunde ${id(301)}`, cachedAt: expect.any(String) });
    // The lookups carry on and refresh the store, as find's does.
    await expect
      .poll(async () => (await stored(ids)).map((row) => row.record.kunde), { timeout: 5_000 })
      .toEqual(['Später AG', 'Später AG']);
  });

  it('does not answer with a record older than maxAgeSeconds', async () => {
    await new CrmMatchSource(
      new OneByOneClient((matchId) => crmRecord(matchId)),
      MAPPING,
      RETRY,
      cache,
    ).findMany([id(401)]);
    await db
      .updateTable('crm_match_cache')
      .set({ fetched_at: new Date(Date.now() - 601_000) })
      .where('match_id', '=', id(401))
      .execute();
    const down = new OneByOneClient(() => new CrmTransientError('503'));
    await expect(new CrmMatchSource(down, MAPPING, RETRY, cache).findMany([id(401)])).rejects.toBeInstanceOf(
      MatchSourceUnavailableError,
    );
  });
});
