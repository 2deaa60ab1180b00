import { useEffect } from 'react';
import { type Blocker, useBlocker } from 'react-router';

/**
 * Keeps unsaved changes from being lost by leaving the page: the browser asks before the tab closes or
 * reloads, and a navigation inside the app waits in the returned blocker until the user decides.
 */
export function useLeaveGuard(dirty: boolean): Blocker {
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      // Browsers show their own text; both calls are needed for all of them to show it at all.
      event.preventDefault();
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return useBlocker(
    ({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname,
  );
}
