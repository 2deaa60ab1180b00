import type { ClauseContent, ClauseProblem } from '@vertragsgenerator/domain';
import type { ColumnType } from 'kysely';

/** Table types of the clause library (migration 0037); see there for the meaning of the columns. */

type CreatedAt = ColumnType<Date, Date | string | undefined, never>;

export interface ClausesTable {
  key: string;
  name: string;
  needs_approval: boolean;
  published_version: ColumnType<number | null, number | null | undefined, number | null>;
  created_at: CreatedAt;
  created_by: string;
}

export interface ClauseVersionsTable {
  clause: string;
  version: number;
  content: ColumnType<ClauseContent, string, never>;
  comment: string;
  created_by: string;
  created_at: CreatedAt;
  problems: ColumnType<ClauseProblem[], string, never>;
  published_at: ColumnType<Date | null, Date | string | null | undefined, Date | string | null>;
  published_by: ColumnType<string | null, string | null | undefined, string | null>;
  publish_comment: ColumnType<string | null, string | null | undefined, string | null>;
}
