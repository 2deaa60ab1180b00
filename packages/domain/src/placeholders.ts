import { z } from 'zod';

/**
 * `/vorlagen/platzhalter`: the field dictionary as legal staff read it, each placeholder
 * with how it is written in a template and an example from a demo match.
 */
export const placeholderSchema = z.object({
  name: z.string(),
  kind: z.enum(['text', 'condition', 'loop']),
  description: z.string(),
  /** As typed in Word: `{kunde}`, `{#mitKunde}…{/mitKunde}`. */
  syntax: z.string(),
  /** A text's value, a condition's „ja bei … von … Dokumentarten", a loop's number of entries; null: none. */
  example: z.string().nullable(),
  /** A loop's fields, each with an example from its first entry. */
  item: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      syntax: z.string(),
      example: z.string().nullable(),
    }),
  ),
});
export type Placeholder = z.infer<typeof placeholderSchema>;

export const placeholderDictionarySchema = z.object({
  /** The demo match the examples come from. */
  matchId: z.string(),
  placeholders: z.array(placeholderSchema),
});
export type PlaceholderDictionary = z.infer<typeof placeholderDictionarySchema>;
