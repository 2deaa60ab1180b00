import {
  catalogueTemplates,
  familyTitle,
  keysOfTemplate,
  type TemplateCheckProblem,
  type TemplateDetail,
  type TemplateMark,
  type TemplateSummary,
  type TemplateVersion,
} from '@vertragsgenerator/domain';
import type { Kysely, Selectable } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import type { Database, TemplateVersionsTable } from '../db/schema.js';
import { notFound } from '../shared/http-error.js';
import type { EventSink } from '../shared/product-events.js';
import { sha256Hex } from '../shared/sha256.js';
import { bodyParagraphs } from './paragraph-diff.js';
import { TemplateError, type TemplateSource, type TemplateSources } from './renderer.js';
import {
  checkPublishable,
  draftCount,
  type Publication,
  publicationAuditValues,
  publicationFields,
  publishedColumns,
} from './version-publication.js';

export interface NewTemplateVersion {
  content: Uint8Array;
  comment: string;
  createdBy: string;
  /** What the server's check found; stored with the version, so a later look needs no new check. */
  problems: TemplateCheckProblem[];
}

/** The actor of version 1 of each template, taken from TEMPLATES_DIR on an empty database. */
export const TEMPLATES_FOLDER_ACTOR = 'Vorlagenordner';

type VersionRow = Omit<Selectable<TemplateVersionsTable>, 'content' | 'template' | 'marks'>;
const VERSION_COLUMNS = [
  'version',
  'sha256',
  'size',
  'comment',
  'created_by',
  'created_at',
  'problems',
  'published_at',
  'published_by',
  'publish_comment',
] as const;

/**
 * The templates and their versions (docs/architecture.md#document-catalogue). The database is the source of
 * truth: every process renders the version published there, read for each document, so a publication applies
 * to the next document in every replica. A version's bytes never change, so they are cached by version.
 */
export class TemplateVersions implements TemplateSources {
  private readonly contents = new LRUCache<string, Uint8Array>({ max: 64 });

  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    /** Told of each publication in its transaction (webhooks). */
    private readonly events?: EventSink<Kysely<Database>>,
  ) {}

  /**
   * Makes each catalogue template that has no row yet version 1, published, from the file of the
   * same name (`read`): on an empty database, all of them; later, one that a new catalogue entry
   * brought. Replicas starting together insert each template once (the insert that loses does nothing).
   */
  async seed(
    read: (name: string) => Promise<Uint8Array | undefined>,
    check: (name: string, content: Uint8Array) => Promise<TemplateCheckProblem[]>,
  ): Promise<string[]> {
    const known = new Set(
      (await this.db.selectFrom('templates').select('name').execute()).map((row) => row.name),
    );
    const seeded: string[] = [];
    for (const name of catalogueTemplates()) {
      if (known.has(name)) continue;
      const content = await read(name);
      // A missing file stays missing: documents of its keys fail with „Vorlage fehlt“ as before.
      if (!content) continue;
      const problems = await check(name, content);
      const inserted = await this.db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('templates')
          .values({ name, published_version: null })
          .onConflict((oc) => oc.column('name').doNothing())
          .returning('name')
          .executeTakeFirst();
        if (!row) return false;
        await this.insertVersion(trx, name, 1, {
          content,
          comment: 'Aus dem Vorlagenordner übernommen',
          createdBy: TEMPLATES_FOLDER_ACTOR,
          problems,
        });
        await trx
          .updateTable('template_versions')
          .set({ published_at: new Date(), published_by: TEMPLATES_FOLDER_ACTOR })
          .where('template', '=', name)
          .where('version', '=', 1)
          .execute();
        await trx.updateTable('templates').set({ published_version: 1 }).where('name', '=', name).execute();
        return true;
      });
      if (inserted) seeded.push(name);
    }
    return seeded;
  }

  async current(name: string): Promise<TemplateSource> {
    const row = await this.db
      .selectFrom('templates')
      .innerJoin('template_versions', (join) =>
        join
          .onRef('template_versions.template', '=', 'templates.name')
          .onRef('template_versions.version', '=', 'templates.published_version'),
      )
      .select(['template_versions.version', 'template_versions.sha256'])
      .where('templates.name', '=', name)
      .executeTakeFirst();
    if (!row) {
      throw new TemplateError(name, [
        { message: 'Von dieser Vorlage ist keine Version veröffentlicht (auch nicht im Vorlagenordner).' },
      ]);
    }
    return this.source(name, row.version, row.sha256);
  }

  /** One version with its bytes; 404 when the template or the version does not exist. */
  async version(name: string, version: number): Promise<TemplateSource> {
    const row = await this.db
      .selectFrom('template_versions')
      .select(['version', 'sha256'])
      .where('template', '=', name)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw notFound(`Version ${version} der Vorlage ${name} gibt es nicht.`);
    return this.source(name, row.version, row.sha256);
  }

  /** The version documents are rendered from now; null when none is published. 404 for no such template. */
  async publishedVersion(name: string): Promise<number | null> {
    const template = await this.db
      .selectFrom('templates')
      .select('published_version')
      .where('name', '=', name)
      .executeTakeFirst();
    if (!template) throw unknownTemplate(name);
    return template.published_version;
  }

  async list(): Promise<TemplateSummary[]> {
    const templates = await this.db.selectFrom('templates').selectAll().orderBy('name').execute();
    const versions = await this.db
      .selectFrom('template_versions')
      .select(['template', ...VERSION_COLUMNS])
      .execute();
    return templates.map((template) =>
      summary(
        template.name,
        template.published_version,
        versions.filter((version) => version.template === template.name),
      ),
    );
  }

  async detail(name: string): Promise<TemplateDetail> {
    const template = await this.db
      .selectFrom('templates')
      .selectAll()
      .where('name', '=', name)
      .executeTakeFirst();
    if (!template) throw unknownTemplate(name);
    const rows = await this.db
      .selectFrom('template_versions')
      .select(VERSION_COLUMNS)
      .where('template', '=', name)
      .orderBy('version', 'desc')
      .execute();
    return {
      ...summary(name, template.published_version, rows),
      versions: rows.map((row) => versionOf(row, template.published_version)),
    };
  }

  /** Stores an uploaded version as the next number; its problems were found before. */
  async add(name: string, version: NewTemplateVersion): Promise<TemplateVersion> {
    return this.db.transaction().execute(async (trx) => {
      // The template's row is locked so that two uploads at once get consecutive numbers.
      const template = await lockTemplate(trx, name);
      const last = await trx
        .selectFrom('template_versions')
        .select((eb) => eb.fn.max('version').as('last'))
        .where('template', '=', name)
        .executeTakeFirst();
      const row = await this.insertVersion(trx, name, (last?.last ?? 0) + 1, version, {
        marks: await carriedMarks(trx, name, last?.last ?? null, version.content),
      });
      return versionOf(row, template.published_version);
    });
  }

  /**
   * Makes a version the published one: a checked draft, or an earlier version again (a rollback).
   * The template's row is locked, so of two people publishing at once the second is told what the
   * first did; the change and its audit entry are one transaction.
   */
  async publish(name: string, version: number, publication: Publication): Promise<TemplateDetail> {
    await this.db.transaction().execute(async (trx) => {
      const template = await lockTemplate(trx, name);
      const target = await trx
        .selectFrom('template_versions')
        .select(['version', 'problems', 'published_at'])
        .where('template', '=', name)
        .where('version', '=', version)
        .executeTakeFirst();
      if (!target) throw notFound(`Version ${version} der Vorlage ${name} gibt es nicht.`);
      checkPublishable(
        version,
        template.published_version,
        publication,
        target.problems.map(describeProblem),
      );
      const rollback = target.published_at !== null;
      await trx
        .updateTable('template_versions')
        .set(publishedColumns(publication))
        .where('template', '=', name)
        .where('version', '=', version)
        .execute();
      await trx
        .updateTable('templates')
        .set({ published_version: version })
        .where('name', '=', name)
        .execute();
      await this.audit.record(
        {
          actor: publication.actor,
          action: rollback ? 'template.rollback' : 'template.publish',
          subject: name,
          ...publicationAuditValues(template.published_version, version, publication),
        },
        trx,
      );
      await this.events?.record(
        { kind: 'template.published', name, version, publishedBy: publication.actor },
        trx,
      );
    });
    return this.detail(name);
  }

  private async insertVersion(
    trx: Kysely<Database>,
    name: string,
    number: number,
    { content, comment, createdBy, problems }: NewTemplateVersion,
    { marks = [] }: { marks?: TemplateMark[] } = {},
  ): Promise<VersionRow> {
    return trx
      .insertInto('template_versions')
      .values({
        marks: JSON.stringify(marks),
        template: name,
        version: number,
        content,
        sha256: sha256Hex(content),
        size: content.byteLength,
        comment,
        created_by: createdBy,
        problems: JSON.stringify(problems),
      })
      .returning(VERSION_COLUMNS)
      .executeTakeFirstOrThrow();
  }

  private async source(name: string, version: number, sha256: string): Promise<TemplateSource> {
    const key = `${name}@${version}`;
    let content = this.contents.get(key);
    if (!content) {
      const row = await this.db
        .selectFrom('template_versions')
        .select('content')
        .where('template', '=', name)
        .where('version', '=', version)
        .executeTakeFirstOrThrow();
      content = row.content;
      this.contents.set(key, content);
    }
    return { name, version, sha256, content };
  }
}

async function lockTemplate(trx: Kysely<Database>, name: string) {
  const template = await trx
    .selectFrom('templates')
    .selectAll()
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirst();
  if (!template) throw unknownTemplate(name);
  return template;
}

/** A problem in one line, as the refusal names it: `Haupttext: {kundeNmae} – … Gemeint: {kundeName}?` */
function describeProblem(problem: TemplateCheckProblem): string {
  const where = problem.place ? `${problem.place}: ` : '';
  const tag = problem.tag ? `${problem.tag} – ` : '';
  const meant = problem.suggestion ? ` Gemeint: ${problem.suggestion}?` : '';
  return `${where}${tag}${problem.message}${meant}`;
}

const unknownTemplate = (name: string) => notFound(`Eine Vorlage ${name} gibt es nicht.`);

function summary(name: string, publishedVersion: number | null, versions: VersionRow[]): TemplateSummary {
  const entries = keysOfTemplate(name);
  const published = versions.find((version) => version.version === publishedVersion);
  return {
    name,
    families: [...new Set(entries.map(familyTitle))],
    keys: entries.map((entry) => entry.key),
    publishedVersion,
    publishedBy: published?.published_by ?? null,
    publishedAt: published?.published_at?.toISOString() ?? null,
    drafts: draftCount(versions, publishedVersion),
  };
}

function versionOf(row: VersionRow, publishedVersion: number | null): TemplateVersion {
  return {
    ...publicationFields(row, publishedVersion),
    sha256: row.sha256,
    size: row.size,
    problems: row.problems,
  };
}

/**
 * The marks of the version before that still name a paragraph of the new one: an upload that leaves
 * „Haftung“ as it was keeps it marked; a mark whose paragraph changed is for legal to set again.
 */
async function carriedMarks(
  trx: Kysely<Database>,
  name: string,
  previous: number | null,
  content: Uint8Array,
): Promise<TemplateMark[]> {
  if (previous === null) return [];
  const row = await trx
    .selectFrom('template_versions')
    .select('marks')
    .where('template', '=', name)
    .where('version', '=', previous)
    .executeTakeFirst();
  if (!row || row.marks.length === 0) return [];
  const paragraphs = new Set(bodyParagraphs(content));
  return row.marks.filter((mark) => paragraphs.has(mark.paragraph));
}
