import { useEffect, useRef } from 'react';

/**
 * The button that opened an inline form gets the focus back when the form closes (sent or cancelled):
 * otherwise a keyboard user would start again at the top of the page.
 */
export function useFocusReturn<T extends HTMLElement>(open: boolean) {
  const opener = useRef<T>(null);
  const wasOpen = useRef(open);
  useEffect(() => {
    if (wasOpen.current && !open) opener.current?.focus();
    wasOpen.current = open;
  }, [open]);
  return opener;
}
