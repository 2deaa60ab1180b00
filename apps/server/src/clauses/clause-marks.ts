import type { DocumentClause, Language, TemplateMark } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import type { ClauseMarks } from '../templates/template-marks.js';
import { blockTexts, parseClauseMarkup } from './clause-markup.js';

/**
 * A clause flagged „Änderungen brauchen Freigabe“ marks its paragraphs in every document holding it, as a
 * marked template paragraph does: the text of the version and variant the document got, in its language,
 * labelled with the clause's name. The flag is read as it is now, so flagging a clause later covers the
 * documents already made with it.
 */
export class ClauseMarksInDatabase implements ClauseMarks {
  constructor(private readonly db: Db) {}

  async marksOf(clauses: DocumentClause[], language: Language): Promise<TemplateMark[]> {
    const rows = await this.db
      .selectFrom('clause_versions')
      .innerJoin('clauses', 'clauses.key', 'clause_versions.clause')
      .select(['clauses.key', 'clauses.name', 'clause_versions.version', 'clause_versions.content'])
      .where('clauses.needs_approval', '=', true)
      .where((eb) =>
        eb.or(
          clauses.map((clause) =>
            eb.and([
              eb('clause_versions.clause', '=', clause.key),
              eb('clause_versions.version', '=', clause.version),
            ]),
          ),
        ),
      )
      .execute();
    return rows.flatMap((row) => {
      const held = clauses.find((clause) => clause.key === row.key && clause.version === row.version);
      const variant = row.content.variants.find((candidate) => candidate.name === held?.variant);
      if (!variant) return [];
      return blockTexts(parseClauseMarkup(variant[language])).map((paragraph) => ({
        paragraph,
        label: row.name,
      }));
    });
  }
}
