import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition, useSyncExternalStore } from 'react';
import { createRoot } from 'react-dom/client';
import { cssVariablesResolver, theme } from '@/app/theme';
import { appQueryClient } from '@/components/page-providers';
import { SigningPage } from '@/features/signature/signing-page';
import { preloadSigningPage } from '@/features/signature/signing-preload';
import { linkToken, onLinkTokenChange } from '../link-page/link-token';

/**
 * Shows the signing page in signing.html's #root, with the view its entry asked for early if any.
 * The page is an app of its own: the theme, the query cache and notifications, and nothing of the
 * signed-in app (its router, the sign-in, its runtime configuration), which a signer's phone would only
 * load and run before the contract shows.
 */
export async function showSigningPage(earlyView: Promise<Response> | undefined): Promise<void> {
  const container = document.getElementById('root');
  if (!container) throw new Error('signing.html lacks the #root element');
  const viewKnown = preloadSigningPage(appQueryClient, linkToken(), earlyView);
  // The entry waited for its early answer: the view is a moment away, and the page's first render shows it
  // where the entry's heading is (early-heading.ts), not a loader in its place for that moment.
  if (earlyView) await viewKnown;
  const root = createRoot(container);
  // As a transition, React builds the page in slices of a few milliseconds: on a phone, building it at
  // once would hold up everything else on the page, a tap included, for a good part of a second.
  startTransition(() =>
    root.render(
      <StrictMode>
        <SigningApp />
      </StrictMode>,
    ),
  );
}

export function SigningApp() {
  const token = useSyncExternalStore(onLinkTokenChange, linkToken);
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      {/* The query cache and notifications of the app's PageProviders, without the dialogs that plain
          functions open, which this page has none of: their provider brings Mantine's Modal into the
          page's first load (the decline dialog loads it when a signer asks to decline). */}
      <QueryClientProvider client={appQueryClient}>
        <Notifications position="top-right" />
        {/* Another link is another signer's page: nothing typed for the first stays. */}
        <SigningPage key={token} token={token} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
