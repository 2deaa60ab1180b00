import { matchPath } from 'react-router';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { PATHS } from '@/lib/paths';

/**
 * The tab the generation opens for a document (measured by bench/browser) starts what it needs most while
 * the shell is still loading its runtime configuration, checking the sign-in and fetching the route's code
 * — which would otherwise all come first. (The signing page of an e-mail link has an entry of its own,
 * app/signing, which does the same for it.)
 */
export function preloadForPage(pathname: string) {
  if (matchPath(PATHS.document, pathname)) preloadFirstViewRenderer();
}
