import type { MatchAnswer, ResolvedMatch } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import pRetry from 'p-retry';
import type { CrmConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { type MatchSource, MatchSourceUnavailableError, MatchUnreadableError } from '../match-source.js';
import { CrmMatchCache } from './crm-cache.js';
import {
  CRM_RECORDS_PER_CALL,
  type CrmClient,
  type CrmObserver,
  CrmRefusedError,
  CrmSignInRefusedError,
  CrmTransientError,
} from './crm-client.js';
import { HttpCrmClient } from './http-crm-client.js';
import { type CrmMapping, loadCrmMapping, mapCrmRecord } from './mapping.js';

/** Wait before the first retry; each further wait doubles (250 ms, 500 ms, 1 s …). */
const RETRY_BACKOFF_MS = 250;

/**
 * With a usable stored record, the CRM gets this fraction of CRM_TIMEOUT_MS before the stored record
 * answers (1 s of the default 5 s): long enough for a CRM on a normal day, short enough that a user in
 * front of the table hardly notices a slow one. Tied to the timeout so that one setting scales both.
 */
const CACHE_DEADLINE_DIVISOR = 5;

/**
 * Calls to the CRM at a time in `findMany`: a batch gets on without a thousand requests at once, which
 * a CRM's rate limit would refuse.
 */
const CONCURRENT_REQUESTS = 4;

/** What users read, with a 503, when the CRM cannot answer. */
export const CRM_UNAVAILABLE_MESSAGE =
  'CRM nicht erreichbar: Die Match-Daten können gerade nicht abgerufen werden. Bitte versuche es in einem Moment erneut.';

/** What users read, with a 503, when the CRM refuses our sign-in: only an operator can help. */
export const CRM_SIGN_IN_REFUSED_MESSAGE =
  'CRM verweigert die Anmeldung: Die Match-Daten können gerade nicht abgerufen werden. Bitte melde das der Administration; erneutes Versuchen hilft nicht.';

export interface CrmRetryOptions {
  /** Attempts after the first one. */
  retries: number;
  /** Wait before the first retry; each further wait doubles. */
  backoffMs: number;
}

export interface CrmCacheOptions {
  store: CrmMatchCache;
  /** How old a stored record may be to stand in for the CRM. */
  maxAgeSeconds: number;
  /** How long a lookup waits for the CRM before it answers with a stored record. */
  firstDeadlineMs: number;
}

/**
 * Matches from an external CRM: one client per kind of CRM (plain HTTP, Salesforce), the
 * field mapping, retries, and the optional read-through cache in the database.
 */
export class CrmMatchSource implements MatchSource {
  private readonly observers: CrmObserver[] = [];

  constructor(
    private readonly client: CrmClient,
    private readonly mapping: CrmMapping,
    private readonly retry: CrmRetryOptions,
    private readonly cache?: CrmCacheOptions,
  ) {}

  /** Tells `observer` (the metrics) what the operators must know of the CRM. */
  observe(observer: CrmObserver): void {
    this.observers.push(observer);
  }

  async find(matchId: string, log?: FastifyBaseLogger): Promise<MatchAnswer | undefined> {
    if (!this.cache) return this.fetchMatch(matchId, log);
    const cached = await this.storedMatch(matchId, log);
    const live = this.fetchMatch(matchId, log);
    if (!cached) return live;

    // A usable stored record exists, so the user need not wait out every timeout and retry: the CRM gets
    // a short first deadline, after which the stored record answers. The request carries on and refreshes
    // the store when the CRM does answer, so a slow CRM does not keep serving an ever older record.
    const { firstDeadlineMs } = this.cache;
    const TOO_SLOW = Symbol('too slow');
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<typeof TOO_SLOW>((resolve) => {
      timer = setTimeout(resolve, firstDeadlineMs, TOO_SLOW);
    });
    try {
      const first = await Promise.race([live, deadline]);
      if (first !== TOO_SLOW) return first;
      live.catch((error: unknown) =>
        log?.warn({ err: error, matchId }, 'CRM lookup after answering from cache failed'),
      );
      log?.warn({ matchId, cachedAt: cached.cachedAt }, 'CRM slow: answered from cache');
      return cached;
    } catch (error) {
      if (!(error instanceof MatchSourceUnavailableError)) throw error;
      log?.warn({ err: error, matchId, cachedAt: cached.cachedAt }, 'CRM unavailable: answered from cache');
      return cached;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The cache only stands in for the CRM: when the database cannot read it, the CRM alone answers. */
  private async storedMatch(matchId: string, log?: FastifyBaseLogger): Promise<MatchAnswer | undefined> {
    if (!this.cache) return undefined;
    try {
      return await this.cache.store.find(matchId, this.cache.maxAgeSeconds);
    } catch (error) {
      log?.error({ err: error, matchId }, 'CRM cache unreadable');
      return undefined;
    }
  }

  private async fetchMatch(matchId: string, log?: FastifyBaseLogger): Promise<MatchAnswer | undefined> {
    const record = await this.withRetries(
      () => this.client.fetchRecord(matchId),
      { matchId },
      log,
      () => this.reportSignInRefusal(),
    );
    const match = this.matchIn(record, matchId, log);
    if (match && this.cache) {
      await this.cache.store
        .save(match)
        .catch((error: unknown) => log?.error({ err: error, matchId }, 'CRM cache not written'));
    }
    return match;
  }

  /**
   * `find` for many IDs: each answered as `find` answers it, with `find`'s retries, cache and first
   * deadline, an unreadable record as its `MatchUnreadableError`. The CRM is asked by the client's
   * `fetchRecords` for up to CRM_RECORDS_PER_CALL IDs a call, or without it by `fetchRecord` per ID;
   * either with at most CONCURRENT_REQUESTS calls at a time, each retried on its own. Throws
   * `MatchSourceUnavailableError` when the CRM cannot answer for an ID the cache cannot answer for
   * either; once one call has failed after its retries, the calls not yet sent are not sent, since they
   * would meet the same CRM (their IDs are answered from the cache or not at all).
   */
  async findMany(
    matchIds: readonly string[],
    log?: FastifyBaseLogger,
  ): Promise<Map<string, MatchAnswer | undefined | MatchUnreadableError>> {
    const ids = [...new Set(matchIds)];
    if (ids.length === 0) return new Map();
    const stored = await this.storedMatches(ids, log);

    let reportedSignInRefusal = false;
    const signInRefused = () => {
      if (reportedSignInRefusal) return;
      reportedSignInRefusal = true;
      this.reportSignInRefusal();
    };
    let failure: MatchSourceUnavailableError | undefined;
    let finished = false;
    let answeredFromCache = false;
    const limit = limiter(CONCURRENT_REQUESTS);
    const perCall = this.client.fetchRecords ? CRM_RECORDS_PER_CALL : 1;
    const live = new Map<string, Promise<MatchAnswer | undefined | MatchUnreadableError>>();
    for (let start = 0; start < ids.length; start += perCall) {
      const slice = ids.slice(start, start + perCall);
      const answers = limit(async () => {
        // The CRM failed for another call: this one is not sent.
        if (failure) throw failure;
        // findMany has thrown: nobody waits for this call.
        if (finished && !answeredFromCache) return new Map();
        try {
          return await this.fetchSlice(slice, log, signInRefused);
        } catch (error) {
          // A call that carried on after the stored records answered, as in `find`.
          if (finished && answeredFromCache)
            log?.warn({ err: error, matchIds: slice }, 'CRM lookup after answering from cache failed');
          if (error instanceof MatchSourceUnavailableError) failure ??= error;
          throw error;
        }
      });
      // Each ID's answer below is awaited, unless the stored record answered first or findMany threw.
      answers.catch(() => undefined);
      for (const matchId of slice)
        live.set(
          matchId,
          answers.then((byId) => byId.get(matchId)),
        );
    }

    // As in `find`: with a usable stored record, the CRM gets the short first deadline, counted for all
    // IDs from here, after which the stored record answers while the request carries on.
    const TOO_SLOW = Symbol('too slow');
    let timer: NodeJS.Timeout | undefined;
    const firstDeadlineMs = this.cache?.firstDeadlineMs;
    const deadline =
      firstDeadlineMs !== undefined && stored.size > 0
        ? new Promise<typeof TOO_SLOW>((resolve) => {
            timer = setTimeout(resolve, firstDeadlineMs, TOO_SLOW);
          })
        : undefined;
    const slow: string[] = [];
    const unavailable: string[] = [];
    const answerFor = async (matchId: string) => {
      const answer = live.get(matchId) as Promise<MatchAnswer | undefined | MatchUnreadableError>;
      const cached = stored.get(matchId);
      if (!cached || !deadline) return answer;
      try {
        const first = await Promise.race([answer, deadline]);
        if (first !== TOO_SLOW) return first;
        slow.push(matchId);
        return cached;
      } catch (error) {
        if (!(error instanceof MatchSourceUnavailableError)) throw error;
        unavailable.push(matchId);
        return cached;
      }
    };
    try {
      const answers = await Promise.all(
        ids.map(async (matchId) => [matchId, await answerFor(matchId)] as const),
      );
      if (slow.length > 0) log?.warn({ matchIds: slow }, 'CRM slow: answered from cache');
      if (unavailable.length > 0)
        log?.warn({ err: failure, matchIds: unavailable }, 'CRM unavailable: answered from cache');
      answeredFromCache = slow.length > 0;
      return new Map(answers);
    } finally {
      finished = true;
      clearTimeout(timer);
    }
  }

  /** The stored matches of `findMany`; as in `find`, an unreadable cache leaves the CRM alone to answer. */
  private async storedMatches(
    matchIds: string[],
    log?: FastifyBaseLogger,
  ): Promise<Map<string, MatchAnswer>> {
    if (!this.cache) return new Map();
    try {
      return await this.cache.store.findMany(matchIds, this.cache.maxAgeSeconds);
    } catch (error) {
      log?.error({ err: error, matchCount: matchIds.length }, 'CRM cache unreadable');
      return new Map();
    }
  }

  /** One call of `findMany` to the CRM, with retries: the answer per ID, the matches stored in the cache. */
  private async fetchSlice(
    matchIds: string[],
    log: FastifyBaseLogger | undefined,
    signInRefused: () => void,
  ): Promise<Map<string, MatchAnswer | undefined | MatchUnreadableError>> {
    const fetchRecords = this.client.fetchRecords?.bind(this.client);
    let records: Map<string, unknown>;
    if (fetchRecords) {
      records = await this.withRetries(() => fetchRecords(matchIds), { matchIds }, log, signInRefused);
    } else {
      records = new Map();
      for (const matchId of matchIds) {
        const record = await this.withRetries(
          () => this.client.fetchRecord(matchId),
          { matchId },
          log,
          signInRefused,
        );
        records.set(matchId, record);
      }
    }
    const answers = new Map<string, MatchAnswer | undefined | MatchUnreadableError>();
    const matches: ResolvedMatch[] = [];
    for (const matchId of matchIds) {
      try {
        const match = this.matchIn(records.get(matchId), matchId, log);
        answers.set(matchId, match);
        if (match) matches.push(match);
      } catch (error) {
        if (!(error instanceof MatchUnreadableError)) throw error;
        answers.set(matchId, error);
      }
    }
    if (this.cache && matches.length > 0) {
      await this.cache.store
        .saveMany(matches)
        .catch((error: unknown) => log?.error({ err: error, matchIds }, 'CRM cache not written'));
    }
    return answers;
  }

  /** `attempt` with CRM_RETRIES for transient errors; what still fails as `MatchSourceUnavailableError`. */
  private async withRetries<T>(
    attempt: () => Promise<T>,
    about: Record<string, unknown>,
    log: FastifyBaseLogger | undefined,
    signInRefused: () => void,
  ): Promise<T> {
    try {
      return await pRetry(attempt, {
        retries: this.retry.retries,
        minTimeout: this.retry.backoffMs,
        factor: 2,
        shouldRetry: ({ error }) => error instanceof CrmTransientError,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) =>
          log?.warn({ err: error, ...about, attemptNumber, retriesLeft }, 'CRM attempt failed'),
      });
    } catch (error) {
      if (error instanceof CrmSignInRefusedError) {
        log?.error({ err: error, ...about }, 'CRM refuses the sign-in');
        signInRefused();
        throw new MatchSourceUnavailableError(`CRM: ${error.message}`, CRM_SIGN_IN_REFUSED_MESSAGE, {
          cause: error,
        });
      }
      if (error instanceof CrmTransientError || error instanceof CrmRefusedError) {
        throw new MatchSourceUnavailableError(`CRM: ${error.message}`, CRM_UNAVAILABLE_MESSAGE, {
          cause: error,
        });
      }
      throw error;
    }
  }

  private reportSignInRefusal(): void {
    for (const observer of this.observers) observer.crmSignInRefused();
  }

  /** The match in the CRM's record for `matchId`; throws `MatchUnreadableError` (mapCrmRecord). */
  private matchIn(record: unknown, matchId: string, log?: FastifyBaseLogger): ResolvedMatch | undefined {
    if (record === undefined) return undefined;
    const mapped = mapCrmRecord(this.mapping, record, matchId);
    if (mapped.kind === 'other') {
      // Usually a search that found nothing; a wrong match-ID path in the mapping looks the same, so say so.
      log?.info({ matchId, found: mapped.matchId }, 'CRM answer holds no record with the requested match ID');
      return undefined;
    }
    return mapped.match;
  }
}

/** At most `concurrency` of the tasks given to the answer run at a time; the others wait their turn in order. */
function limiter(concurrency: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    // A finished task hands its place straight to the next waiting one, so `running` stays as it is.
    if (running < concurrency) running++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  };
}

/** The match source a CRM configuration names, with its mapping checked: a wrong mapping stops the start. */
export async function createCrmMatchSource(config: CrmConfig, db: Db): Promise<CrmMatchSource> {
  const mapping = await loadCrmMapping(config.mappingFile);
  const client =
    config.kind === 'salesforce'
      ? // Loaded only when used: jsforce is large.
        new (await import('./salesforce-crm-client.js')).SalesforceCrmClient(
          config,
          mapping,
          config.mappingFile,
        )
      : new HttpCrmClient({ url: config.url, auth: config.auth, timeoutMs: config.timeoutMs });
  const cache =
    config.cacheSeconds > 0
      ? {
          store: new CrmMatchCache(db),
          maxAgeSeconds: config.cacheSeconds,
          firstDeadlineMs: Math.ceil(config.timeoutMs / CACHE_DEADLINE_DIVISOR),
        }
      : undefined;
  return new CrmMatchSource(client, mapping, { retries: config.retries, backoffMs: RETRY_BACKOFF_MS }, cache);
}
