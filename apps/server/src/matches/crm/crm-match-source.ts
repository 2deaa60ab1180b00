import type { MatchAnswer } from '@vertragsgenerator/domain';
import type { FastifyBaseLogger } from 'fastify';
import pRetry from 'p-retry';
import type { CrmConfig } from '../../config/config.js';
import type { Db } from '../../db/database.js';
import { type MatchSource, MatchSourceUnavailableError } from '../match-source.js';
import { CrmMatchCache } from './crm-cache.js';
import {
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
    let record: unknown;
    try {
      record = await pRetry(() => this.client.fetchRecord(matchId), {
        retries: this.retry.retries,
        minTimeout: this.retry.backoffMs,
        factor: 2,
        shouldRetry: ({ error }) => error instanceof CrmTransientError,
        onFailedAttempt: ({ error, attemptNumber, retriesLeft }) =>
          log?.warn({ err: error, matchId, attemptNumber, retriesLeft }, 'CRM attempt failed'),
      });
    } catch (error) {
      if (error instanceof CrmSignInRefusedError) {
        log?.error({ err: error, matchId }, 'CRM refuses the sign-in');
        for (const observer of this.observers) observer.crmSignInRefused();
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
    if (record === undefined) return undefined;
    const mapped = mapCrmRecord(this.mapping, record, matchId);
    if (mapped.kind === 'other') {
      // Usually a search that found nothing; a wrong match-ID path in the mapping looks the same, so say so.
      log?.info({ matchId, found: mapped.matchId }, 'CRM answer holds no record with the requested match ID');
      return undefined;
    }
    if (this.cache) {
      await this.cache.store
        .save(mapped.match)
        .catch((error: unknown) => log?.error({ err: error, matchId }, 'CRM cache not written'));
    }
    return mapped.match;
  }
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
