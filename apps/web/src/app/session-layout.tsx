import { MatchDocumentsProvider } from '@/components/match-documents';
import { PageProviders } from '@/components/page-providers';
import { MatchHistory } from '@/features/history';
import type { AuthService } from '@/lib/auth/auth-service';
import { createRouteGuard } from './route-guard';
import { AppLayout } from './shell/app-layout';

/**
 * The route around every page but /login, /auth/callback and the signing page: the route guard as its
 * loader and the shell. It comes with the first such page, not with /login (bench/size): the guard's
 * session check brings the API client and the domain's schemas.
 */
export function sessionRoute(auth: AuthService) {
  return {
    loader: createRouteGuard(auth),
    element: (
      <PageProviders>
        <MatchDocumentsProvider value={MatchHistory}>
          <AppLayout />
        </MatchDocumentsProvider>
      </PageProviders>
    ),
  };
}
