import '@/lib/zod-jitless';
import './review-styles.css';
// Imported, not in review-styles.css: the page's code imports the same module (through Mantine's
// notifications), which then comes with this entry's style sheet instead of one that loads after the code.
import '@mantine/notifications/styles.css';
import { linkToken } from '../link-page/link-token';
import { showEarlyHeader } from './early-header';
import { askForReviewView } from './early-view';

/**
 * The review page's entry: a few hundred bytes that ask for the reviewer's view at once, while the page's
 * code (React, Mantine, the page), which review.html names for preloading, is still on its way, and show
 * the page's top as soon as it is there.
 */
const token = linkToken();
const earlyView = token ? askForReviewView(token) : undefined;
// A lost answer is the page's to report, once its code has loaded (review-api.ts reviewViewOf).
earlyView?.catch(() => {});

// The page's code runs only once the view's top has been painted: run at once, it would hold that paint up.
(earlyView ? showEarlyHeader(earlyView) : Promise.resolve())
  .then(() => import('./review-app'))
  .then(
    ({ showReviewPage }) => showReviewPage(earlyView),
    (error: unknown) => {
      console.error('Loading the review page failed', error);
      const root = document.getElementById('root');
      if (root) root.textContent = 'Die Seite konnte nicht geladen werden. Bitte laden Sie sie neu.';
    },
  );
