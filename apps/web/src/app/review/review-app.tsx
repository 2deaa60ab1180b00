import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariablesResolver, theme } from '@/app/theme';
import { appQueryClient } from '@/components/page-providers';
import { preloadReviewPage, ReviewPage } from '@/features/review-link';
import { linkToken, onLinkTokenChange } from '../link-page/link-token';

/**
 * Shows the review page in review.html's #root, with the view its entry asked for early if any. The page
 * is an app of its own: the theme, the query cache and notifications, and nothing of the signed-in app
 * (its router, the sign-in, its runtime configuration), which a counterparty's phone would only load and
 * run before the contract shows.
 */
export async function showReviewPage(earlyView: Promise<Response> | undefined): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('review.html lacks the #root element');
  const viewKnown = preloadReviewPage(appQueryClient, linkToken(), earlyView);
  // The view is a moment away: the page's first render shows it, not a loader for that moment.
  if (earlyView) await viewKnown;
  const root = createRoot(container);
  // As a transition, React builds the page in slices of a few milliseconds: on a phone, building it at
  // once would hold up everything else on the page, a tap included, for a good part of a second.
  startTransition(() =>
    root.render(
      <StrictMode>
        <ReviewApp />
      </StrictMode>,
    ),
  );
}

export function ReviewApp() {
  const token = useSyncExternalStore(onLinkTokenChange, linkToken);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <QueryClientProvider client={appQueryClient}>
        <Notifications position="top-right" />
        {/* Another link is another reviewer's page: nothing typed for the first stays. */}
        <ReviewPage key={token} token={token} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
