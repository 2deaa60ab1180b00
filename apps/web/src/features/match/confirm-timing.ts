import { useCallback, useEffect, useRef } from 'react';

/** Performance entries the browser benchmark reads (bench/browser). */
export const CONFIRM_TIMING = {
  submit: 'match:submit',
  rendered: 'match:rendered',
  measure: 'match:confirm-to-table',
} as const;

interface MatchQueryState {
  data: unknown;
  dataUpdatedAt: number;
  errorUpdatedAt: number;
}

/**
 * Measures from a confirmed ID to the committed table of that confirmation. Returns what to call on
 * confirmation. Update times, not the mere presence of data, tell whether the answer is the one asked
 * for: data of an earlier confirmation must not end the measure.
 */
export function useConfirmToTableTiming({ data, dataUpdatedAt, errorUpdatedAt }: MatchQueryState) {
  const confirmedAt = useRef<number | null>(null);

  useEffect(() => {
    const since = confirmedAt.current;
    if (since === null) return;
    if (data !== undefined && dataUpdatedAt >= since) {
      confirmedAt.current = null;
      performance.mark(CONFIRM_TIMING.rendered);
      performance.measure(CONFIRM_TIMING.measure, CONFIRM_TIMING.submit, CONFIRM_TIMING.rendered);
    } else if (errorUpdatedAt >= since) {
      // A failed load renders no table; a later background refetch must not be taken for this one.
      confirmedAt.current = null;
    }
  }, [data, dataUpdatedAt, errorUpdatedAt]);

  return useCallback(() => {
    confirmedAt.current = Date.now();
    performance.mark(CONFIRM_TIMING.submit);
  }, []);
}
