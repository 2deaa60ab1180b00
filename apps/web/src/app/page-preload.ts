import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { preloadSigningPage } from '@/features/signature/signing-preload';
import { PATHS } from '@/lib/paths';

/**
 * The two pages people reach from outside and then wait on a document (measured by bench/browser): the tab
 * the generation opens for a document, and the signing page of an e-mail link. Each starts what it needs most
 * while the shell is still loading its runtime configuration, checking the sign-in and fetching the route's
 * code — which would otherwise all come first.
 */
export function preloadForPage(
  { pathname, hash }: Pick<Location, 'pathname' | 'hash'>,
  queryClient: QueryClient,
) {
  if (matchPath(PATHS.document, pathname)) preloadFirstViewRenderer();
  else if (matchPath(PATHS.signing, pathname)) preloadSigningPage(queryClient, hash.replace(/^#/, ''));
}
