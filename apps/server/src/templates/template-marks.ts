import {
  catalogueEntry,
  type DocumentClause,
  type Language,
  type TemplateMark,
  type TemplateMarks,
} from '@vertragsgenerator/domain';
import type { AuditLog } from '../admin/audit-log.js';
import type { Db } from '../db/database.js';
import { HttpError, notFound } from '../shared/http-error.js';
import { bodyParagraphs } from './paragraph-diff.js';

/**
 * The paragraphs of a template version whose change needs Freigabe (Haftung, Kundenschutz,
 * Vertragsstrafe…), marked by legal on the template's page, and which of them a document's edited text
 * changed: its generated paragraph of a mark no longer stands in the version asked about.
 */
export class TemplateMarksStore {
  constructor(
    private readonly db: Db,
    private readonly audit: AuditLog,
    /** The marks a document's clauses bring: the paragraphs of those whose changes need approval. */
    private readonly clauseMarks?: ClauseMarks,
  ) {}

  /** A version's body paragraphs (to choose from) and its marks. */
  async get(template: string, version: number): Promise<TemplateMarks> {
    const row = await this.db
      .selectFrom('template_versions')
      .select(['content', 'marks'])
      .where('template', '=', template)
      .where('version', '=', version)
      .executeTakeFirst();
    if (!row) throw notFound(`Die Version ${version} der Vorlage ${template} gibt es nicht.`);
    return { paragraphs: bodyParagraphs(row.content), marks: row.marks };
  }

  /**
   * Replaces a version's marks; each must name one of its paragraphs, each paragraph once. Audited with
   * the labels before and after.
   */
  async set(template: string, version: number, marks: TemplateMark[], actor: string): Promise<TemplateMarks> {
    const { paragraphs, marks: before } = await this.get(template, version);
    const known = new Set(paragraphs);
    const fields: Record<string, string[]> = {};
    const seen = new Set<string>();
    marks.forEach((mark, index) => {
      if (!known.has(mark.paragraph))
        fields[`marks.${index}.paragraph`] = ['Diesen Absatz gibt es in dieser Version nicht.'];
      else if (seen.has(mark.paragraph))
        fields[`marks.${index}.paragraph`] = ['Dieser Absatz ist schon markiert.'];
      seen.add(mark.paragraph);
    });
    if (Object.keys(fields).length > 0)
      throw new HttpError(400, 'invalid_input', 'Die markierten Absätze passen nicht zur Version.', fields);
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('template_versions')
        .set({ marks: JSON.stringify(marks) })
        .where('template', '=', template)
        .where('version', '=', version)
        .execute();
      await this.audit.record(
        {
          actor,
          action: 'template.marks',
          subject: `${template} Version ${version}`,
          oldValue: labels(before),
          newValue: labels(marks),
        },
        trx,
      );
    });
    return { paragraphs, marks };
  }

  /**
   * The labels of the marks of the document — its template version's and its clauses' — whose generated
   * paragraph the edited text (`current`) no longer holds as it was generated: changed or removed.
   */
  async changedMarks(documentId: string, generated: string[], current: string[]): Promise<string[]> {
    const kept = new Set(current);
    const labels = (await this.marksOf(documentId))
      .filter((mark) => {
        const filled = filledPattern(mark.paragraph);
        return generated.some((paragraph) => filled.test(paragraph) && !kept.has(paragraph));
      })
      .map((mark) => mark.label);
    return [...new Set(labels)];
  }

  /** The generated paragraphs that stand for a marked paragraph of the document. */
  async markedAmong(documentId: string, generated: string[]): Promise<Set<string>> {
    const patterns = (await this.marksOf(documentId)).map((mark) => filledPattern(mark.paragraph));
    return new Set(generated.filter((paragraph) => patterns.some((pattern) => pattern.test(paragraph))));
  }

  private async marksOf(documentId: string): Promise<TemplateMark[]> {
    const document = await this.db
      .selectFrom('documents')
      .select(['doc_key', 'template_version', 'clauses'])
      .where('id', '=', documentId)
      .executeTakeFirst();
    const entry = document && catalogueEntry(document.doc_key);
    if (!entry) return [];
    const template =
      document.template_version === null
        ? undefined
        : await this.db
            .selectFrom('template_versions')
            .select('marks')
            .where('template', '=', entry.template)
            .where('version', '=', document.template_version)
            .executeTakeFirst();
    const clauses = document.clauses?.length
      ? ((await this.clauseMarks?.marksOf(document.clauses, entry.params.language)) ?? [])
      : [];
    return [...(template?.marks ?? []), ...clauses];
  }
}

/** Where the marks of a document's clauses come from (clauses/clause-marks.ts). */
export interface ClauseMarks {
  marksOf(clauses: DocumentClause[], language: Language): Promise<TemplateMark[]>;
}

const labels = (marks: TemplateMark[]) => marks.map((mark) => mark.label).join(', ') || '—';

/**
 * A template paragraph as a pattern of what generation made of it: a placeholder (`{kunde}`) stands for
 * any text, a condition's or loop's content (`{#mitKunde}…{/mitKunde}`, `{^…}`) may be there or not. A
 * section that opens in one paragraph and closes in another is open to the paragraph's end.
 */
function filledPattern(paragraph: string): RegExp {
  let pattern = '';
  let open = 0;
  for (const [, text = '', tag] of paragraph.matchAll(/([^{]*)(\{[^{}]*\}|$)/g)) {
    pattern += text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    if (!tag) continue;
    if (/^\{[#^]/.test(tag)) {
      pattern += '(?:';
      open++;
    } else if (tag.startsWith('{/')) {
      if (open > 0) {
        pattern += ')?';
        open--;
      }
    } else {
      pattern += '[\\s\\S]*?';
    }
  }
  return new RegExp(`^${pattern}${')?'.repeat(open)}$`);
}
