import { formatDateTime } from '@vertragsgenerator/domain';
import { sql } from 'kysely';
import type { Db } from '../../db/database.js';
import { LeasedRuns } from '../../shared/leased-runs.js';
import type { Actor, EnvelopesRepository } from '../envelopes-repository.js';

/** Recipients handled per transaction of a run. */
const BATCH = 50;
/** Expiries are recorded without a person. */
const SYSTEM: Actor = { email: '', ip: null, userAgent: null };

export interface LinkExpiriesDeps {
  db: Db;
  envelopes: EnvelopesRepository;
  now?: () => Date;
}

/**
 * Records that a waiting signer's link expired: an `expired` entry in the envelope's history, which
 * other systems are told of as `envelope.expired`. Once per link: a renewed link that expires again is
 * recorded again (the entry counts only after the signer's last `link_renewed`). The run locks the
 * recipients it records (FOR UPDATE SKIP LOCKED) and checks in the same transaction, so with several
 * replicas every expiry is recorded once.
 */
export class LinkExpiries {
  private readonly runs = new LeasedRuns();
  private readonly now: () => Date;

  constructor(private readonly deps: LinkExpiriesDeps) {
    this.now = deps.now ?? (() => new Date());
  }

  /** Records every expiry not yet recorded; returns how many. */
  recordDue(): Promise<number> {
    return this.runs.track(this.run());
  }

  stop(): Promise<void> {
    return this.runs.stop();
  }

  private async run(): Promise<number> {
    let recorded = 0;
    for (;;) {
      if (this.runs.stopping) return recorded;
      const found = await this.deps.db.transaction().execute(async (trx) => {
        const expired = await trx
          .selectFrom('envelope_recipients as r')
          .innerJoin('envelopes as e', 'e.id', 'r.envelope_id')
          .select(['r.id', 'r.envelope_id', 'r.name', 'r.email', 'r.token_expires_at'])
          .where('e.status', '=', 'sent')
          .where('r.status', 'in', ['sent', 'opened'])
          .where('r.token_expires_at', '<=', this.now())
          .where(
            sql<boolean>`not exists (
              select 1 from envelope_events x
              where x.recipient_id = r.id and x.type = 'expired'
                and x.id > coalesce((select max(l.id) from envelope_events l
                  where l.recipient_id = r.id and l.type = 'link_renewed'), 0))`,
          )
          .orderBy('r.token_expires_at')
          .limit(BATCH)
          .forUpdate(['r'])
          .skipLocked()
          .execute();
        // The `not exists` above read the events as they were when the statement began; a replica that
        // held a link's lock then and has committed its event since has let go of the lock, and this
        // statement took it. Read again, now that the locks are held: that event is seen and the link skipped.
        const recordedMeanwhile = new Set(
          expired.length === 0
            ? []
            : (
                await trx
                  .selectFrom('envelope_events as x')
                  .select('x.recipient_id')
                  .where(
                    'x.recipient_id',
                    'in',
                    expired.map((recipient) => recipient.id),
                  )
                  .where('x.type', '=', 'expired')
                  .where(
                    sql<boolean>`x.id > coalesce((select max(l.id) from envelope_events l
                      where l.recipient_id = x.recipient_id and l.type = 'link_renewed'), 0)`,
                  )
                  .execute()
              ).map((row) => row.recipient_id),
        );
        let made = 0;
        for (const recipient of expired) {
          if (recordedMeanwhile.has(recipient.id)) continue;
          made++;
          await this.deps.envelopes.addEvent(
            {
              envelopeId: recipient.envelope_id,
              recipientId: recipient.id,
              type: 'expired',
              actor: SYSTEM,
              detail: `Link von ${recipient.name} <${recipient.email}> am ${formatDateTime(recipient.token_expires_at as Date)} Uhr abgelaufen`,
            },
            trx,
          );
        }
        return { read: expired.length, made };
      });
      recorded += found.made;
      if (found.read < BATCH) return recorded;
    }
  }
}
