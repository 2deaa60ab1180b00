import { useCallback, useEffect, useRef, useState } from 'react';

/**
 * After a refused submit, focus goes to the first field marked invalid (WCAG 3.3.1): a keyboard or
 * screen-reader user lands on what to fix instead of searching the page for red. The marks appear with the
 * next render, so the focus follows in an effect, not in the submit handler.
 */
export function useFirstInvalidFocus<T extends HTMLElement>() {
  const container = useRef<T>(null);
  const [requests, setRequests] = useState(0);

  useEffect(() => {
    if (requests === 0) return;
    container.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [requests]);

  const focusFirstInvalid = useCallback(() => setRequests((count) => count + 1), []);
  return { container, focusFirstInvalid };
}
