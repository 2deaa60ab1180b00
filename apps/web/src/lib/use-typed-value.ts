import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useRef, useState } from 'react';

const TYPING_DELAY_MS = 300;

/**
 * A search or filter typed into a list's field (`value` as the address keeps it): the address follows
 * what was typed once typing pauses — one request for a word, not one per letter — and the field follows
 * the address when Back or Forward changes it. `commit` is told whether the typing continued a value the
 * address already had: that is the same step for Back.
 */
export function useTypedValue(value: string, commit: (typed: string, continued: boolean) => void) {
  const [typed, setTyped] = useState(value);
  const [debounced] = useDebouncedValue(typed.trim(), TYPING_DELAY_MS);
  /** The value this field last put into the address: when it comes back, the user may have typed on. */
  const committed = useRef(value);
  useEffect(() => {
    if (value === committed.current) return;
    committed.current = value;
    setTyped(value);
  }, [value]);
  // Only a change of what was typed commits: Back to an earlier view must not be undone by it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: value and commit follow the address
  useEffect(() => {
    if (debounced === value) return;
    committed.current = debounced;
    commit(debounced, value !== '');
  }, [debounced]);
  return [typed, setTyped] as const;
}
