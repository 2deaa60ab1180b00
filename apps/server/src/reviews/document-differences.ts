import type { DocumentDifferences as Differences } from '@vertragsgenerator/domain';
import { paragraphsOf } from '../approvals/approval-evaluation.js';
import type { Db } from '../db/database.js';
import { compareParagraphs } from '../templates/paragraph-diff.js';
import type { TemplateMarksStore } from '../templates/template-marks.js';

/**
 * Where a document's latest version departs from what its template made for this deal (its version 1),
 * paragraph by paragraph — the panel legal reads before a negotiated version goes out — with the
 * paragraphs the template marks as needing Freigabe when changed.
 */
export class DocumentDifferences {
  constructor(
    private readonly db: Db,
    private readonly marks: Pick<TemplateMarksStore, 'markedAmong'>,
  ) {}

  async of(document: { id: string; doc_key: string }): Promise<Differences> {
    const rows = await this.db
      .selectFrom('document_versions')
      .select(['version', 'content'])
      .where('document_id', '=', document.id)
      .where((eb) =>
        eb.or([
          eb('version', '=', 1),
          eb(
            'version',
            '=',
            eb
              .selectFrom('document_versions')
              .select((v) => v.fn.max('version').as('latest'))
              .where('document_id', '=', document.id),
          ),
        ]),
      )
      .orderBy('version')
      .execute();
    const generated = rows[0];
    const latest = rows.at(-1);
    if (!generated || !latest) return { version: 0, paragraphs: [] };
    const before = paragraphsOf(generated.content);
    const marked = await this.marks.markedAmong(document.id, before);
    const paragraphs = compareParagraphs(before, paragraphsOf(latest.content))
      .filter((change) => change.change !== 'kept')
      .map((change) => {
        const was = change.parts
          .filter((part) => part.change !== 'added')
          .map((part) => part.text)
          .join('');
        const now = change.parts
          .filter((part) => part.change !== 'removed')
          .map((part) => part.text)
          .join('');
        return {
          generated: change.change === 'added' ? null : was,
          current: change.change === 'removed' ? null : now,
          marked: change.change !== 'added' && marked.has(was),
        };
      });
    return { version: latest.version, paragraphs };
  }
}
