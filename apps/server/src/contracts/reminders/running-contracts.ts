import { type SqlBool, sql } from 'kysely';

/** The kinds that run until they end; an additional agreement or a termination only refers to one. */
export const RUNNING_KINDS = ['rahmenvertrag', 'einzelauftrag', 'verlaengerung'] as const;

/**
 * Over `contract_records as c`: a contract whose deadlines still matter — of a kind that runs, neither
 * terminated nor replaced, with no extension or termination below it; an extension also not followed
 * by a later one of the same contract, nor under a contract that was terminated. The reminders and the
 * calendar feed name the deadlines of these only.
 */
export function stillRunning() {
  return sql<SqlBool>`c.kind in (${sql.join(RUNNING_KINDS)})
    and c.terminated_by is null and c.superseded_by is null
    and not exists (
      select 1 from contract_records x where x.parent_id = c.id
        and ((x.relation = 'changes' and x.kind = 'verlaengerung') or x.relation = 'ends'))
    and (c.kind <> 'verlaengerung' or (
      not exists (
        select 1 from contract_records s where s.parent_id = c.parent_id and s.id <> c.id
          and s.kind = 'verlaengerung' and (s.signed_at, s.id) > (c.signed_at, c.id))
      and not exists (
        select 1 from contract_records p where p.id = c.parent_id and p.terminated_by is not null)))`;
}
