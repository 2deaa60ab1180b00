import { sql } from 'kysely';
import type { Db } from '../db/database.js';

/** Longer than any batch: a replica that crashed mid-run leaves the lease to expire, and another resumes. */
export const LEASE_MS = 5 * 60_000;

/**
 * One row says which replica runs the deletion and until when. Taking it is one INSERT … ON CONFLICT,
 * which succeeds only where the lease expired or is the taker's own, so with any number of replicas one
 * run deletes at a time; the holder renews it after every batch.
 */
export class RetentionLease {
  constructor(
    private readonly db: Db,
    readonly holder: string,
  ) {}

  async take(now: Date): Promise<boolean> {
    const until = new Date(now.getTime() + LEASE_MS);
    const row = await this.db
      .insertInto('retention_lease')
      .values({ id: 1, holder: this.holder, until })
      .onConflict((oc) =>
        oc
          .column('id')
          .doUpdateSet({ holder: this.holder, until })
          .where((eb) =>
            eb.or([eb('retention_lease.until', '<', now), eb('retention_lease.holder', '=', this.holder)]),
          ),
      )
      .returning('holder')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Gives the lease back at once, so the next run need not wait for it to expire. */
  async release(): Promise<void> {
    await this.db
      .updateTable('retention_lease')
      .set({ until: sql<Date>`'epoch'::timestamptz` })
      .where('holder', '=', this.holder)
      .execute();
  }
}
