import type { Db } from '../../db/database.js';
import { LeasedRuns, retryBackoffSeconds } from '../../shared/leased-runs.js';
import { sha256Hex } from '../../shared/sha256.js';
import { archiveTimestamp, type Timestamping } from './document-timestamp.js';

/** Longer than any renewal takes: a lease outlives the attempt that holds it. */
const LEASE_MS = 10 * 60_000;

/**
 * Keeps B-LTA evidence alive: before the TSA certificate of a sealed PDF's last document timestamp
 * expires (`seal_renew_at`, SEAL_RENEW_DAYS_BEFORE ahead), the PDF gets the validation data of that
 * timestamp and a new document timestamp over everything. Each due envelope is leased with one UPDATE …
 * SKIP LOCKED, so with any number of replicas each PDF is renewed once; a failed renewal is tried again
 * with growing pauses, and `seal_renewals_overdue` shows one that stays late. A new timestamp whose TSA
 * certificate would make the PDF due again at once (the TSA still signs with the certificate that ends
 * soon) gains nothing and is not stored: it counts as a failed renewal, so that the run neither renews
 * the same PDF over and over nor hides the problem. The previous version's SHA-256 stays in
 * `sealed_pdf_versions`: a copy mailed before is still recognised by Prüfen.
 */
export class SealRenewal {
  private readonly runs = new LeasedRuns();
  private readonly failures = new Map<string, number>();
  private readonly now: () => Date;

  constructor(
    private readonly deps: {
      db: Db;
      /** Without timestamp authorities nothing can be renewed; due PDFs stay due (and overdue). */
      timestamping: Timestamping | undefined;
      log: { warn(obj: object, msg: string): void };
      /** The clock that says what is due; the renewal dates come from the TSA certificates, not the database. */
      now?: () => Date;
    },
  ) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Renews every due PDF; returns how many were renewed. */
  renewDue(): Promise<number> {
    if (!this.deps.timestamping) return Promise.resolve(0);
    return this.runs.track(this.run(this.deps.timestamping));
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  private run(timestamping: Timestamping): Promise<number> {
    return this.runs.eachLeased(
      () => this.lease(),
      (leased) => this.renewOrPostpone(leased.id, timestamping),
    );
  }

  /** Renews one leased envelope's timestamp; a failure is logged, and it is tried again after a pause. */
  private async renewOrPostpone(envelopeId: string, timestamping: Timestamping): Promise<boolean> {
    try {
      const renewed = await this.renew(envelopeId, timestamping);
      this.failures.delete(envelopeId);
      return renewed;
    } catch (error) {
      const attempts = (this.failures.get(envelopeId) ?? 0) + 1;
      this.failures.set(envelopeId, attempts);
      this.deps.log.warn(
        { err: error, envelopeId, attempts },
        'archive timestamp not renewed; retrying later',
      );
      await this.deps.db
        .updateTable('envelopes')
        .set({ seal_renew_at: this.later(retryBackoffSeconds(attempts) * 1000) })
        .where('id', '=', envelopeId)
        .execute();
      return false;
    }
  }

  private later(milliseconds: number): Date {
    return new Date(this.now().getTime() + milliseconds);
  }

  private lease() {
    const { db } = this.deps;
    return db
      .updateTable('envelopes')
      .set({ seal_renew_at: this.later(LEASE_MS) })
      .where('id', '=', (qb) =>
        qb
          .selectFrom('envelopes')
          .select('id')
          .where('seal_renew_at', '<=', this.now())
          .where('sealed_pdf', 'is not', null)
          .orderBy('seal_renew_at')
          .limit(1)
          .forUpdate()
          .skipLocked(),
      )
      .returning(['id'])
      .executeTakeFirst();
  }

  private async renew(envelopeId: string, timestamping: Timestamping): Promise<boolean> {
    const { db } = this.deps;
    const current = await db
      .selectFrom('envelopes')
      .select(['sealed_pdf', 'sealed_sha256'])
      .where('id', '=', envelopeId)
      .executeTakeFirstOrThrow();
    if (!current.sealed_pdf || !current.sealed_sha256) return false;
    const renewed = await archiveTimestamp(current.sealed_pdf, timestamping);
    if (renewed.renewBy <= this.now()) {
      throw new Error(
        `the new timestamp's TSA certificate is due for renewal itself (${renewed.renewBy.toISOString()}): the TSA still signs with a certificate that ends within SEAL_RENEW_DAYS_BEFORE`,
      );
    }
    const sha256 = sha256Hex(renewed.pdf);
    return db.transaction().execute(async (trx) => {
      // Only over the version this run read: another run's renewal is not overwritten.
      const { numUpdatedRows } = await trx
        .updateTable('envelopes')
        .set({
          sealed_pdf: renewed.pdf,
          sealed_sha256: sha256,
          seal_level: renewed.level,
          seal_renew_at: renewed.renewBy,
        })
        .where('id', '=', envelopeId)
        .where('sealed_sha256', '=', current.sealed_sha256)
        .executeTakeFirst();
      if (numUpdatedRows === 0n) return false;
      await trx
        .insertInto('sealed_pdf_versions')
        .values({ sha256, envelope_id: envelopeId, level: renewed.level })
        .execute();
      return true;
    });
  }
}
