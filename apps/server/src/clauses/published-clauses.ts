import type { Db } from '../db/database.js';
import type { PublishedClause, PublishedClauses } from './clause-choice.js';

/**
 * The published version of each clause, read from the database for every document that places clauses:
 * one query for all of a template's clauses, so a publication in any replica applies to the next document.
 */
export class PublishedClausesInDatabase implements PublishedClauses {
  constructor(private readonly db: Db) {}

  async published(keys: readonly string[]): Promise<Map<string, PublishedClause>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('clauses')
      .innerJoin('clause_versions', (join) =>
        join
          .onRef('clause_versions.clause', '=', 'clauses.key')
          .onRef('clause_versions.version', '=', 'clauses.published_version'),
      )
      .select(['clauses.key', 'clauses.name', 'clause_versions.version', 'clause_versions.content'])
      .where('clauses.key', 'in', [...keys])
      .execute();
    return new Map(rows.map((row) => [row.key, row]));
  }
}
