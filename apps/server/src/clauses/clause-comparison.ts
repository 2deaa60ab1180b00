import type { ClauseComparison, ClauseContent } from '@vertragsgenerator/domain';
import { compareParagraphs } from '../templates/paragraph-diff.js';

const LANGUAGES = ['de', 'en'] as const;

/** A clause text's paragraphs: the markup separates them by a blank line. */
export function clauseParagraphs(text: string): string[] {
  return text
    .split(/\r?\n[ \t]*\r?\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '');
}

/**
 * A version's text against a base's, per variant (matched by name) and language, paragraph by paragraph:
 * the variants of the version in their order, then those the version no longer has.
 */
export function compareClauseContents(
  base: ClauseContent | null,
  next: ClauseContent,
): ClauseComparison['parts'] {
  const baseVariants = base?.variants ?? [];
  const names = [
    ...next.variants.map((variant) => variant.name),
    ...baseVariants
      .map((variant) => variant.name)
      .filter((name) => !next.variants.some((v) => v.name === name)),
  ];
  return [...new Set(names)].flatMap((name) => {
    const before = baseVariants.find((variant) => variant.name === name);
    const after = next.variants.find((variant) => variant.name === name);
    return LANGUAGES.map((language) => ({
      variant: name,
      language,
      paragraphs: compareParagraphs(
        clauseParagraphs(before?.[language] ?? ''),
        clauseParagraphs(after?.[language] ?? ''),
      ),
    }));
  });
}
