import type { ReactNode } from 'react';

/** A field's error, read out by screen readers as soon as it appears. */
export function announced(message: string | undefined): ReactNode {
  return message && <span role="alert">{message}</span>;
}
