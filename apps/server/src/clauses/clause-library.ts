import type {
  ClauseComparison,
  ClauseContent,
  ClauseDetail,
  ClauseProblem,
  ClauseSettings,
  ClauseSummary,
  ClauseVersion,
  NewClause,
  NewClauseVersion,
} from '@vertragsgenerator/domain';
import type { Kysely, Selectable } from 'kysely';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import type { ClauseVersionsTable } from '../db/schema-clauses.js';
import { conflict, type HttpError, notFound } from '../shared/http-error.js';
import type { EventSink } from '../shared/product-events.js';
import {
  checkPublishable,
  draftCount,
  type Publication,
  publicationAuditValues,
  publicationFields,
  publishedColumns,
} from '../templates/version-publication.js';
import { compareClauseContents } from './clause-comparison.js';
import { type ClauseKeysOf, ClauseUsage, type TemplatePlacement } from './clause-usage.js';

export interface ClauseLibraryDeps {
  db: Db;
  audit: AuditLog;
  /** Told of each publication in its transaction (webhooks). */
  events?: EventSink<Kysely<Database>>;
  /** What is wrong with a version's content; stored with it, so that publishing needs no new check. */
  lint: (content: ClauseContent) => ClauseProblem[];
  clauseKeysOf: ClauseKeysOf;
}

type VersionRow = Selectable<ClauseVersionsTable>;
type ClauseRow = Selectable<Database['clauses']>;

/**
 * The clause library (docs/templates.md#klauseln): clauses and their versions, published and rolled back
 * as templates are (templates/template-versions.ts). A document gets the version published when it is
 * made; publishing changes one column under the clause's row lock, so a document reads the old or the new.
 */
export class ClauseLibrary {
  private readonly usage: ClauseUsage;

  constructor(private readonly deps: ClauseLibraryDeps) {
    this.usage = new ClauseUsage(deps.clauseKeysOf);
  }

  async list(): Promise<ClauseSummary[]> {
    const { db } = this.deps;
    const clauses = await db.selectFrom('clauses').selectAll().orderBy('key').execute();
    if (clauses.length === 0) return [];
    const versions = await db
      .selectFrom('clause_versions')
      .select(['clause', 'version', 'published_at'])
      .execute();
    const placements = await this.usage.placements(db);
    return clauses.map((clause) =>
      summary(
        clause,
        versions.filter((version) => version.clause === clause.key),
        placements,
      ),
    );
  }

  async detail(key: string): Promise<ClauseDetail> {
    const { db } = this.deps;
    const clause = await db.selectFrom('clauses').selectAll().where('key', '=', key).executeTakeFirst();
    if (!clause) throw unknownClause(key);
    const rows = await db
      .selectFrom('clause_versions')
      .selectAll()
      .where('clause', '=', key)
      .orderBy('version', 'desc')
      .execute();
    const placements = await this.usage.placements(db);
    return {
      ...summary(clause, rows, placements),
      versions: rows.map((row) => versionOf(row, clause.published_version)),
      usedInTemplates: ClauseUsage.templatesPlacing(placements, key),
      contracts: await this.usage.contracts(db, key, clause.published_version),
    };
  }

  /** A new clause with its first version, a draft. */
  async create(input: NewClause, actor: string): Promise<ClauseDetail> {
    await this.deps.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('clauses')
        .values({ key: input.key, name: input.name, needs_approval: input.needsApproval, created_by: actor })
        .onConflict((oc) => oc.column('key').doNothing())
        .returning('key')
        .executeTakeFirst();
      if (!inserted) throw conflict(`Eine Klausel mit dem Schlüssel „${input.key}“ gibt es schon.`);
      await this.insertVersion(trx, input.key, 1, input, actor);
      await this.deps.audit.record(
        {
          actor,
          action: 'clause.create',
          subject: input.key,
          newValue: `${input.name}; Version 1: ${input.comment}`,
        },
        trx,
      );
    });
    return this.detail(input.key);
  }

  /** The clause's name and whether a change of its text in a document needs Freigabe; not versioned. */
  async updateSettings(key: string, settings: ClauseSettings, actor: string): Promise<ClauseDetail> {
    await this.deps.db.transaction().execute(async (trx) => {
      const clause = await lockClause(trx, key);
      if (clause.name === settings.name && clause.needs_approval === settings.needsApproval) return;
      await trx
        .updateTable('clauses')
        .set({ name: settings.name, needs_approval: settings.needsApproval })
        .where('key', '=', key)
        .execute();
      await this.deps.audit.record(
        {
          actor,
          action: 'clause.settings',
          subject: key,
          oldValue: describeSettings(clause.name, clause.needs_approval),
          newValue: describeSettings(settings.name, settings.needsApproval),
        },
        trx,
      );
    });
    return this.detail(key);
  }

  /** Stores a version as the next number, a draft, with the problems the check finds in it. */
  async addVersion(key: string, input: NewClauseVersion, actor: string): Promise<ClauseVersion> {
    return this.deps.db.transaction().execute(async (trx) => {
      // Locked, so that two saves at once get consecutive numbers.
      const clause = await lockClause(trx, key);
      const last = await trx
        .selectFrom('clause_versions')
        .select((eb) => eb.fn.max('version').as('last'))
        .where('clause', '=', key)
        .executeTakeFirst();
      const number = (last?.last ?? 0) + 1;
      const row = await this.insertVersion(trx, key, number, input, actor);
      await this.deps.audit.record(
        { actor, action: 'clause.version', subject: key, newValue: `Version ${number}: ${input.comment}` },
        trx,
      );
      return versionOf(row, clause.published_version);
    });
  }

  /**
   * Makes a version the published one: a checked draft, or an earlier version again (a rollback). Of two
   * people publishing at once the second is told what the first did; the change, its audit entry and its
   * event are one transaction.
   */
  async publish(key: string, version: number, publication: Publication): Promise<ClauseDetail> {
    await this.deps.db.transaction().execute(async (trx) => {
      const clause = await lockClause(trx, key);
      const target = await trx
        .selectFrom('clause_versions')
        .select(['version', 'problems', 'published_at'])
        .where('clause', '=', key)
        .where('version', '=', version)
        .executeTakeFirst();
      if (!target) throw unknownVersion(key, version);
      checkPublishable(version, clause.published_version, publication, target.problems.map(describeProblem));
      const rollback = target.published_at !== null;
      await trx
        .updateTable('clause_versions')
        .set(publishedColumns(publication))
        .where('clause', '=', key)
        .where('version', '=', version)
        .execute();
      await trx.updateTable('clauses').set({ published_version: version }).where('key', '=', key).execute();
      await this.deps.audit.record(
        {
          actor: publication.actor,
          action: rollback ? 'clause.rollback' : 'clause.publish',
          subject: key,
          ...publicationAuditValues(clause.published_version, version, publication),
        },
        trx,
      );
      await this.deps.events?.record(
        { kind: 'clause.published', key, version, publishedBy: publication.actor },
        trx,
      );
    });
    return this.detail(key);
  }

  /** A version's text against `base`, by default the published version (none: against nothing). */
  async compare(key: string, version: number, base?: number): Promise<ClauseComparison> {
    const { db } = this.deps;
    const clause = await db.selectFrom('clauses').selectAll().where('key', '=', key).executeTakeFirst();
    if (!clause) throw unknownClause(key);
    const baseNumber = base ?? clause.published_version;
    const [next, before] = await Promise.all([
      this.content(key, version),
      baseNumber === null ? null : this.content(key, baseNumber),
    ]);
    return { base: baseNumber, version, parts: compareClauseContents(before, next) };
  }

  /**
   * Removes a clause with every version. Refused while any stored template version places it: a template
   * that was published with it could be published again (a rollback), and would then place nothing.
   */
  async delete(key: string, actor: string): Promise<void> {
    await this.deps.db.transaction().execute(async (trx) => {
      const clause = await lockClause(trx, key);
      const placing = ClauseUsage.templatesPlacing(await this.usage.placements(trx), key);
      if (placing.length > 0) {
        const named = placing.map(
          (template) =>
            `${template.name} (${template.versions.length === 1 ? 'Version' : 'Versionen'} ${template.versions.join(', ')})`,
        );
        throw conflict(
          `Die Klausel ${key} kann nicht gelöscht werden: ${placing.length === 1 ? 'die Vorlage' : 'die Vorlagen'} ${named.join(', ')} ${placing.length === 1 ? 'verwendet' : 'verwenden'} sie.`,
        );
      }
      const versions = await trx
        .deleteFrom('clause_versions')
        .where('clause', '=', key)
        .returning('version')
        .execute();
      await trx.deleteFrom('clauses').where('key', '=', key).execute();
      await this.deps.audit.record(
        {
          actor,
          action: 'clause.delete',
          subject: key,
          oldValue: `${clause.name}; ${versions.length === 1 ? '1 Version' : `${versions.length} Versionen`}`,
        },
        trx,
      );
    });
  }

  private async content(key: string, version: number): Promise<ClauseContent> {
    const row = await this.deps.db
      .selectFrom('clause_versions')
      .select('content')
      .where('clause', '=', key)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw unknownVersion(key, version);
    return row.content;
  }

  private insertVersion(
    trx: Kysely<Database>,
    key: string,
    version: number,
    input: NewClauseVersion,
    actor: string,
  ): Promise<VersionRow> {
    return trx
      .insertInto('clause_versions')
      .values({
        clause: key,
        version,
        content: JSON.stringify(input.content),
        comment: input.comment,
        created_by: actor,
        problems: JSON.stringify(this.deps.lint(input.content)),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  }
}

async function lockClause(trx: Kysely<Database>, key: string): Promise<ClauseRow> {
  const clause = await trx
    .selectFrom('clauses')
    .selectAll()
    .where('key', '=', key)
    .forUpdate()
    .executeTakeFirst();
  if (!clause) throw unknownClause(key);
  return clause;
}

export const unknownClause = (key: string): HttpError => notFound(`Eine Klausel ${key} gibt es nicht.`);
const unknownVersion = (key: string, version: number): HttpError =>
  notFound(`Version ${version} der Klausel ${key} gibt es nicht.`);

function describeSettings(name: string, needsApproval: boolean): string {
  return `${name}; Änderung braucht Freigabe: ${needsApproval ? 'ja' : 'nein'}`;
}

/** A problem in one line, as the refusal names it: `Variante „Schweiz“, englischer Text: …`. */
function describeProblem(problem: ClauseProblem): string {
  return problem.place ? `${problem.place}: ${problem.message}` : problem.message;
}

function summary(
  clause: ClauseRow,
  versions: Pick<VersionRow, 'version' | 'published_at'>[],
  placements: TemplatePlacement[],
): ClauseSummary {
  const published = versions.find((version) => version.version === clause.published_version);
  return {
    key: clause.key,
    name: clause.name,
    needsApproval: clause.needs_approval,
    publishedVersion: clause.published_version,
    publishedAt: published?.published_at?.toISOString() ?? null,
    drafts: draftCount(versions, clause.published_version),
    templates: ClauseUsage.templatesPlacing(placements, clause.key)
      .filter((template) => template.published)
      .map((template) => template.name),
  };
}

function versionOf(row: VersionRow, publishedVersion: number | null): ClauseVersion {
  return { ...publicationFields(row, publishedVersion), content: row.content, problems: row.problems };
}
