import './reviews.css';
import { VisuallyHidden } from '@mantine/core';

/**
 * Inserted or struck text as a reviewer marks it on paper, underlined or crossed out besides its colour,
 * and named for a screen reader, which reads neither.
 */
export function MarkedText({
  text,
  change,
  label,
}: {
  text: string;
  change: 'added' | 'removed';
  label: string;
}) {
  if (change === 'added') {
    return (
      <ins className="review-inserted review-text">
        <VisuallyHidden>{label}: </VisuallyHidden>
        {text}
      </ins>
    );
  }
  return (
    <del className="review-deleted review-text">
      <VisuallyHidden>{label}: </VisuallyHidden>
      {text}
    </del>
  );
}
