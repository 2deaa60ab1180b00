import './paragraph-comparison.css';
import { Box, Text, VisuallyHidden } from '@mantine/core';
import type { ParagraphChange } from '@vertragsgenerator/domain';

/** The words of a comparison, from the feature that shows it. */
export interface ParagraphComparisonTexts {
  /** The scrollable region's name, e.g. „Was sich ändert“. */
  label: string;
  /** Read out before inserted text, e.g. „eingefügt“. */
  added: string;
  /** Read out before struck text, e.g. „gestrichen“. */
  removed: string;
  /** The fold of unchanged paragraphs between changes. */
  keptParagraphs: (count: number) => string;
}

/** Inserted and struck text as a reviewer marks it on paper, named for screen readers as well. */
function Part({
  text,
  change,
  words,
}: ParagraphChange['parts'][number] & { words: ParagraphComparisonTexts }) {
  if (change === 'added') {
    return (
      <ins className="paragraph-added">
        <VisuallyHidden>{words.added}: </VisuallyHidden>
        {text}
      </ins>
    );
  }
  if (change === 'removed') {
    return (
      <del className="paragraph-removed">
        <VisuallyHidden>{words.removed}: </VisuallyHidden>
        {text}
      </del>
    );
  }
  return <>{text}</>;
}

/** Unchanged paragraphs between changes are folded to a count: the reviewer reads what changed. */
type Shown =
  | { kind: 'paragraph'; paragraph: ParagraphChange; index: number }
  | { kind: 'kept'; count: number; index: number };

function fold(paragraphs: readonly ParagraphChange[]): Shown[] {
  const shown: Shown[] = [];
  paragraphs.forEach((paragraph, index) => {
    const last = shown.at(-1);
    if (paragraph.change !== 'kept') shown.push({ kind: 'paragraph', paragraph, index });
    else if (last?.kind === 'kept') last.count++;
    else shown.push({ kind: 'kept', count: 1, index });
  });
  return shown;
}

/** Whether a comparison holds any change at all. */
export function hasChanges(paragraphs: readonly ParagraphChange[]): boolean {
  return paragraphs.some((paragraph) => paragraph.change !== 'kept');
}

/**
 * A text against an earlier one, paragraph by paragraph: inserted and struck runs marked, unchanged
 * paragraphs folded. A focusable region, so that a keyboard scrolls it.
 */
export function ParagraphComparison({
  paragraphs,
  texts,
}: {
  paragraphs: readonly ParagraphChange[];
  texts: ParagraphComparisonTexts;
}) {
  return (
    <Box className="paragraph-comparison" tabIndex={0} role="region" aria-label={texts.label}>
      {fold(paragraphs).map((shown) =>
        shown.kind === 'kept' ? (
          <Text key={shown.index} size="sm" c="dimmed" fs="italic">
            {texts.keptParagraphs(shown.count)}
          </Text>
        ) : (
          <Text key={shown.index} className={`paragraph-whole-${shown.paragraph.change}`}>
            {shown.paragraph.parts.map((part, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: the parts of a paragraph never reorder
              <Part key={i} {...part} words={texts} />
            ))}
          </Text>
        ),
      )}
    </Box>
  );
}
