import {
  type EnvelopeOverview,
  OVERVIEW_FILTERS,
  OVERVIEW_PAGE_SIZE,
  type OverviewFilter,
  type OverviewQuery,
  type OverviewStatus,
  type PermissionLevel,
} from '@vertragsgenerator/domain';
import { type Expression, type SqlBool, sql } from 'kysely';
import { mayManageEnvelope, seesEveryEnvelope } from '../../auth/document-access.js';
import type { Db } from '../../db/database.js';
import { containing } from '../../shared/text-match.js';
import { envelopeSeal } from './envelope-seal.js';

/** Who asks: legal staff see every envelope, everyone else the ones they created. */
export interface OverviewReader {
  email: string;
  permission: PermissionLevel | null;
  /** Whether built-in signing runs here: only then can envelopes be changed from the overview. */
  mayChangeBuiltin: boolean;
}

/** Open envelopes, in the order the statuses are listed; the rest are final. */
const OPEN: readonly OverviewStatus[] = ['draft', 'awaiting_approval', 'sent', 'partially_signed', 'expired'];

/** A draft with an open approval request (Freigabe), or an approved one whose send is not done yet. */
const AWAITING_APPROVAL = sql<SqlBool>`exists (select 1 from approval_requests a where a.envelope_id = e.id
  and (a.status = 'open' or (a.status = 'approved' and a.send_state = 'pending')))`;

/**
 * The overview `/signaturen`: one page of envelopes, newest activity first, with each
 * one's signers, last event and what this user may do, and per filter how many there are.
 *
 * The follow-up statuses are derived in SQL from the envelope and what one aggregate over the signers
 * of sent envelopes says (someone signed; a waiting signer's link expired). Per-envelope EXISTS lookups
 * instead made PostgreSQL estimate the count over 10,000 envelopes so high that it JIT-compiled it,
 * 115 of its 127 ms (`npm run bench -- overview` measures both databases).
 */
export class EnvelopeOverviewQuery {
  constructor(private readonly db: Db) {}

  async page(reader: OverviewReader, query: OverviewQuery, now: Date): Promise<EnvelopeOverview> {
    const status = overviewStatus();
    const matching = this.db
      .selectFrom('envelopes as e')
      .leftJoin(
        (qb) =>
          qb
            .selectFrom('envelope_recipients as x')
            .innerJoin('envelopes as s', 's.id', 'x.envelope_id')
            .where('s.status', '=', 'sent')
            .groupBy('x.envelope_id')
            .select([
              'x.envelope_id',
              sql<boolean>`bool_or(x.status in ('sent', 'opened') and x.token_expires_at <= ${now})`.as(
                'waiting_expired',
              ),
              sql<boolean>`bool_or(x.status = 'signed')`.as('someone_signed'),
            ])
            .as('r'),
        (join) => join.onRef('r.envelope_id', '=', 'e.id'),
      )
      .where((eb) => (seesEveryEnvelope(reader) ? eb.lit(true) : eb('e.created_by', '=', reader.email)))
      .where(() => searchCondition(query.q));

    const [grouped, rows] = await Promise.all([
      matching
        .select([status.as('status'), (eb) => eb.fn.countAll<string>().as('count')])
        .groupBy(status)
        .execute(),
      matching
        // A left join, as the counts have none: an envelope whose document a retention rule deleted stays listed.
        .leftJoin('documents as d', 'd.id', 'e.document_id')
        .where(filterCondition(query.status, status))
        .select([
          'e.id',
          'e.provider',
          status.as('status'),
          'e.match_id',
          'e.customer',
          'e.subject',
          'e.created_by',
          'e.created_at',
          'e.updated_at',
          'd.file_name',
          'e.seal_level',
          'e.seal_error',
          (eb) => eb('e.sealed_pdf', 'is not', null).as('has_sealed_pdf'),
        ])
        .orderBy('e.updated_at', 'desc')
        .orderBy('e.id', 'desc')
        .limit(OVERVIEW_PAGE_SIZE)
        .offset((query.page - 1) * OVERVIEW_PAGE_SIZE)
        .execute(),
    ]);

    const counts = Object.fromEntries(OVERVIEW_FILTERS.map((f) => [f, 0])) as Record<OverviewFilter, number>;
    for (const { status: s, count } of grouped) {
      const n = Number(count);
      counts[s] += n;
      counts.all += n;
      if (OPEN.includes(s)) counts.open += n;
    }

    const ids = rows.map((r) => r.id);
    const [signers, lastEvents] =
      ids.length === 0
        ? [[], []]
        : await Promise.all([
            this.db
              .selectFrom('envelope_recipients')
              .select(['id', 'envelope_id', 'role', 'name', 'email', 'status', 'token_expires_at'])
              .where('envelope_id', 'in', ids)
              .where('role', '<>', 'CC')
              .orderBy('envelope_id')
              .orderBy('position')
              .execute(),
            this.db
              .selectFrom('envelope_events')
              .distinctOn('envelope_id')
              .select(['envelope_id', 'type', 'at', 'actor'])
              .where('envelope_id', 'in', ids)
              .orderBy('envelope_id')
              .orderBy('id', 'desc')
              .execute(),
          ]);

    return {
      envelopes: rows.map((r) => {
        const last = lastEvents.find((e) => e.envelope_id === r.id);
        return {
          id: r.id,
          provider: r.provider,
          status: r.status,
          matchId: r.match_id,
          customer: r.customer,
          subject: r.subject,
          fileName: r.file_name,
          createdBy: r.created_by,
          createdAt: r.created_at.toISOString(),
          updatedAt: r.updated_at.toISOString(),
          signers: signers
            .filter((s) => s.envelope_id === r.id)
            .map((s) => ({
              id: s.id,
              role: s.role,
              name: s.name,
              email: s.email,
              status: s.status,
              linkExpiresAt: s.token_expires_at?.toISOString() ?? null,
            })),
          lastEvent: last ? { type: last.type, at: last.at.toISOString(), actor: last.actor } : null,
          mayChange:
            reader.mayChangeBuiltin &&
            r.provider === 'builtin' &&
            OPEN.includes(r.status) &&
            mayManageEnvelope(reader, r.created_by),
          signedPdfAvailable: Boolean(r.has_sealed_pdf),
          seal: envelopeSeal({
            provider: r.provider,
            completed: r.status === 'completed',
            sealed: Boolean(r.has_sealed_pdf),
            seal_level: r.seal_level,
            seal_error: r.seal_error,
          }),
        };
      }),
      total: counts[query.status],
      page: query.page,
      pageSize: OVERVIEW_PAGE_SIZE,
      counts,
    };
  }
}

/** The follow-up status of envelope `e`, from what `r` says about the signers of a sent one. */
function overviewStatus() {
  return sql<OverviewStatus>`(case
    when e.status = 'created' and ${AWAITING_APPROVAL} then 'awaiting_approval'
    when e.status = 'created' then 'draft'
    when e.status <> 'sent' then e.status
    when r.waiting_expired then 'expired'
    when r.someone_signed then 'partially_signed'
    else 'sent' end)`;
}

function filterCondition(filter: OverviewFilter, status: Expression<OverviewStatus>): Expression<SqlBool> {
  switch (filter) {
    case 'all':
      return sql<SqlBool>`true`;
    case 'open':
      return sql<SqlBool>`e.status in ('created', 'sent')`;
    case 'draft':
      return sql<SqlBool>`(e.status = 'created' and not ${AWAITING_APPROVAL})`;
    case 'awaiting_approval':
      return sql<SqlBool>`(e.status = 'created' and ${AWAITING_APPROVAL})`;
    case 'sent':
    case 'partially_signed':
    case 'expired':
      return sql<SqlBool>`(e.status = 'sent' and ${status} = ${filter})`;
    default:
      return sql<SqlBool>`e.status = ${filter}`;
  }
}

/** Match ID, customer, subject, or a signer's name or address containing the search, any case. */
function searchCondition(q: string): Expression<SqlBool> {
  if (!q) return sql<SqlBool>`true`;
  const like = containing(q);
  return sql<SqlBool>`(e.match_id ilike ${like} or e.customer ilike ${like} or e.subject ilike ${like}
    or exists (select 1 from envelope_recipients s where s.envelope_id = e.id
      and (s.name ilike ${like} or s.email ilike ${like})))`;
}
