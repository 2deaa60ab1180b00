import type { ClauseContent, ClauseOption } from '@vertragsgenerator/domain';
import type { z } from 'zod';
import { ApiRequestError } from '@/lib/api';

/** A variant as the editor holds it; `id` stays with the variant when it moves, so React keeps its inputs. */
export interface VariantDraft {
  id: number;
  name: string;
  rule: string;
  de: string;
  en: string;
}

export interface ContentDraft {
  variants: VariantDraft[];
  option: ClauseOption;
}

let nextId = 0;
const newId = () => nextId++;

export function emptyVariant(name = ''): VariantDraft {
  return { id: newId(), name, rule: '', de: '', en: '' };
}

export function draftOf(content: ClauseContent): ContentDraft {
  return {
    option: content.option,
    variants: content.variants.map((variant) => ({ ...variant, rule: variant.rule ?? '', id: newId() })),
  };
}

/** As the API takes it: a blank rule is null, which the server reads as „always“. */
export function contentOf(draft: ContentDraft): ClauseContent {
  return {
    option: draft.option,
    variants: draft.variants.map(({ name, rule, de, en }) => ({
      name,
      rule: rule.trim() === '' ? null : rule,
      de,
      en,
    })),
  };
}

/** The variants with the one at `index` moved by `by` places; unchanged when that leaves the list. */
export function moveVariant(variants: readonly VariantDraft[], index: number, by: -1 | 1): VariantDraft[] {
  const target = index + by;
  const moved = variants[index];
  if (!moved || target < 0 || target >= variants.length) return [...variants];
  const rest = variants.filter((_, i) => i !== index);
  return [...rest.slice(0, target), moved, ...rest.slice(target)];
}

/** Messages by field, keyed like a 400's `fields` (`content.variants.0.name`): the browser's and the server's. */
export type FieldErrors = Readonly<Record<string, readonly string[]>>;
export const NO_ERRORS: FieldErrors = {};

export function fieldErrorsOf(error: z.ZodError): FieldErrors {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.join('.');
    errors[key] = [...(errors[key] ?? []), issue.message];
  }
  return errors;
}

/** The first message for `field`, the browser's before the server's. */
export function errorAt(field: string, ...sources: FieldErrors[]): string | undefined {
  for (const source of sources) {
    const message = source[field]?.[0];
    if (message) return message;
  }
  return undefined;
}

/** The fields a refused request names, keyed by their place in the body as the browser's are. */
export function serverFieldErrors(error: unknown): FieldErrors {
  return error instanceof ApiRequestError ? error.fields : NO_ERRORS;
}
