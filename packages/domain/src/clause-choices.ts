/**
 * What a document got of each clause its template places: kept apart from clauses.ts because the template
 * library's trial names them too, and clauses.ts builds on the template library.
 */
import { z } from 'zod';

/** Which version and variant of a clause a document holds, and the rule that chose it. */
export const documentClauseSchema = z.object({
  key: z.string(),
  version: z.number().int(),
  variant: z.string(),
  /** The variant's rule as written; null when it applies always. */
  rule: z.string().nullable(),
});
export type DocumentClause = z.infer<typeof documentClauseSchema>;

/** How a deal fared with one clause in one document: chosen (with what), left out, or switched off. */
export const clauseChoiceSchema = z.object({
  key: z.string(),
  name: z.string(),
  /** null: the clause is left out — no rule held, or the person generating switched it off. */
  chosen: documentClauseSchema.nullable(),
  /** In German, e.g. „Regel „land = CH“ trifft zu“, „Keine Regel trifft zu“, „beim Erstellen abgewählt“. */
  reason: z.string(),
});
export type ClauseChoice = z.infer<typeof clauseChoiceSchema>;
