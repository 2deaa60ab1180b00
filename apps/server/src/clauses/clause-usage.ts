import { type ClauseContractUse, CONTRACT_KIND_LABELS } from '@vertragsgenerator/domain';
import { type Kysely, sql } from 'kysely';
import { LRUCache } from 'lru-cache';
import { stillRunning } from '../contracts/reminders/running-contracts.js';
import type { Database } from '../db/schema.js';

/** The clause keys a template's DOCX places, by its tags. */
export type ClauseKeysOf = (content: Uint8Array) => string[];

/** One stored template version and the clauses it places. */
export interface TemplatePlacement {
  template: string;
  version: number;
  /** It is the version documents are rendered from now. */
  published: boolean;
  keys: readonly string[];
}

/**
 * Which template versions place which clauses, and which running contracts hold them. A version's bytes
 * never change, so the keys it places are read from its DOCX once per SHA-256 and kept.
 */
export class ClauseUsage {
  private readonly keysBySha256 = new LRUCache<string, readonly string[]>({ max: 256 });

  constructor(private readonly clauseKeysOf: ClauseKeysOf) {}

  /** Every stored version of every template, each with the clause keys it places. */
  async placements(db: Kysely<Database>): Promise<TemplatePlacement[]> {
    const rows = await db
      .selectFrom('template_versions')
      .innerJoin('templates', 'templates.name', 'template_versions.template')
      .select([
        'template_versions.template',
        'template_versions.version',
        'template_versions.sha256',
        'templates.published_version',
      ])
      .orderBy('template_versions.template')
      .orderBy('template_versions.version')
      .execute();
    const placements: TemplatePlacement[] = [];
    for (const row of rows) {
      placements.push({
        template: row.template,
        version: row.version,
        published: row.version === row.published_version,
        keys: await this.keysOf(db, row.template, row.version, row.sha256),
      });
    }
    return placements;
  }

  /** The templates placing `key` in any version, with those versions and whether the published one does. */
  static templatesPlacing(placements: TemplatePlacement[], key: string) {
    const byTemplate = new Map<string, { name: string; published: boolean; versions: number[] }>();
    for (const placement of placements) {
      if (!placement.keys.includes(key)) continue;
      const entry = byTemplate.get(placement.template) ?? {
        name: placement.template,
        published: false,
        versions: [],
      };
      entry.versions.push(placement.version);
      entry.published ||= placement.published;
      byTemplate.set(placement.template, entry);
    }
    return [...byTemplate.values()];
  }

  /**
   * The running contracts whose document holds `key`, those holding an older version than the published
   * one first: they are the ones legal may want to look at after a change.
   */
  async contracts(
    db: Kysely<Database>,
    key: string,
    publishedVersion: number | null,
  ): Promise<ClauseContractUse[]> {
    const rows = await db
      .selectFrom('contract_records as c')
      .innerJoin('documents as d', 'd.id', 'c.document_id')
      .select(['c.id', 'c.match_id', 'c.kind', 'c.counterparty', 'c.document_id', 'd.clauses'])
      .where(stillRunning())
      .where(sql<boolean>`d.clauses @> ${JSON.stringify([{ key }])}::jsonb`)
      .execute();
    const uses = rows.flatMap((row): ClauseContractUse[] => {
      const held = row.clauses?.find((clause) => clause.key === key);
      if (!held) return [];
      return [
        {
          contractId: row.id,
          matchId: row.match_id,
          title: `${CONTRACT_KIND_LABELS[row.kind]} ${row.counterparty}`.trim(),
          documentId: row.document_id,
          version: held.version,
          variant: held.variant,
          outdated: publishedVersion !== null && held.version < publishedVersion,
        },
      ];
    });
    return uses.sort(
      (a, b) =>
        Number(b.outdated) - Number(a.outdated) ||
        a.version - b.version ||
        a.matchId.localeCompare(b.matchId) ||
        a.contractId.localeCompare(b.contractId),
    );
  }

  private async keysOf(
    db: Kysely<Database>,
    template: string,
    version: number,
    sha256: string,
  ): Promise<readonly string[]> {
    const known = this.keysBySha256.get(sha256);
    if (known) return known;
    const row = await db
      .selectFrom('template_versions')
      .select('content')
      .where('template', '=', template)
      .where('version', '=', version)
      .executeTakeFirstOrThrow();
    const keys = [...new Set(this.clauseKeysOf(row.content))];
    this.keysBySha256.set(sha256, keys);
    return keys;
  }
}
