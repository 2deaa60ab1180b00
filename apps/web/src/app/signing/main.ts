import '@/lib/zod-jitless';
import './signing-styles.css';
// Imported, not in signing-styles.css: page-providers.tsx, in the page's code, imports the same module,
// which then comes with this entry's style sheet instead of one of its own that would load after the code.
import '@mantine/notifications/styles.css';
import { linkToken } from '../link-page/link-token';
import { showEarlyHeading } from './early-heading';
import { askForSigningView } from './early-view';

/**
 * The signing page's entry: a few hundred bytes that ask for the signer's view at once, while the page's
 * code (React, Mantine, the page), which signing.html names for preloading, is still on its way, and show
 * its heading as soon as it is there.
 */
const token = linkToken();
const earlyView = token ? askForSigningView(token) : undefined;
// A lost answer is the page's to report, once its code has loaded (signing-api.ts signingViewOf).
earlyView?.catch(() => {});

// The page's code, which signing.html names for preloading, runs only once the view's heading has been
// painted: run at once, it would hold that paint up by the good part of a second it takes on a phone.
(earlyView ? showEarlyHeading(earlyView) : Promise.resolve())
  .then(() => import('./signing-app'))
  .then(
    ({ showSigningPage }) => showSigningPage(earlyView),
    (error: unknown) => {
      console.error('Loading the signing page failed', error);
      const root = document.getElementById('root');
      if (root) root.textContent = 'Die Seite konnte nicht geladen werden. Bitte lade sie neu.';
    },
  );
