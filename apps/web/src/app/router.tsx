import { FORM_ROUTES, type FormName, type SessionUser } from '@vertragsgenerator/domain';
import { createBrowserRouter, Navigate, type RouteObject, useRouteLoaderData } from 'react-router';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { FullPageLoader } from '@/components/full-page-loader';
import { MatchDocumentsProvider } from '@/components/match-documents';
import { AuthCallbackPage } from '@/features/auth/auth-callback-page';
import { LoginPage } from '@/features/auth/login-page';
import { FormatPage } from '@/features/format/format-page';
import { MatchHistory } from '@/features/history';
import { StartPage } from '@/features/match/start-page';
import type { AuthService } from '@/lib/auth/auth-service';
import { PATHS, SESSION_ROUTE } from '@/lib/paths';
import { NotFoundPage, RouteErrorPage } from './pages';
import { createRouteGuard } from './route-guard';
import { AppLayout } from './shell/app-layout';

export function appRoutes(auth: AuthService): RouteObject[] {
  const formRoutes = (Object.entries(FORM_ROUTES) as [FormName, string][]).map(([form, path]) => ({
    path,
    // The forms are not needed for /login and /start, whose initial JavaScript has a budget (bench/size).
    lazy: async () => {
      const { DocumentFormPage } = await import('./document-forms');
      return { Component: () => <DocumentFormPage form={form} /> };
    },
  }));

  // Both e-signature pages come with the document viewer, which /login and /start must not load.
  const signaturePage = (page: 'SenderViewPage' | 'SigningPage') => async () => ({
    Component: (await import('@/features/signature'))[page],
  });

  // Like the forms, not needed for /login and /start. The document's first view starts loading beside
  // the page's code, as in a tab opened on a document (page-preload.ts), not only once the file is there.
  const editorPage = async () => {
    preloadFirstViewRenderer();
    return { Component: (await import('@/features/editor')).EditorPage };
  };
  const signatureOverviewPage = async () => ({
    Component: (await import('@/features/signature-overview')).SignatureOverviewPage,
  });
  const sealCheckPage = async () => ({
    Component: (await import('@/features/seal-check')).SealCheckPage,
  });
  const templatePage = (page: 'TemplatesPage' | 'TemplatePage' | 'PlaceholdersPage') => async () => ({
    Component: (await import('@/features/templates'))[page],
  });
  const approvalsPage = async () => ({
    Component: (await import('@/features/approvals')).ApprovalsPage,
  });
  const administrationPage = async () => {
    const { AdministrationPage } = await import('@/features/admin');
    // The tabs depend on who is signed in: legal staff keep only the approval rules there.
    return {
      Component: () => <AdministrationPage user={useRouteLoaderData(SESSION_ROUTE) as SessionUser | null} />,
    };
  };

  return [
    {
      errorElement: <RouteErrorPage />,
      children: [
        { path: PATHS.root, element: <Navigate to={PATHS.login} replace /> },
        { path: PATHS.login, Component: LoginPage },
        { path: PATHS.authCallback, Component: AuthCallbackPage },
        // Public: a signer has no account; the link token is the only credential.
        { path: PATHS.signing, lazy: signaturePage('SigningPage'), HydrateFallback: FullPageLoader },
        {
          // The signed-in user, for the pages that show more to some levels (useRouteLoaderData).
          id: SESSION_ROUTE,
          loader: createRouteGuard(auth),
          // The check runs on every navigation, not only when the layout first mounts: a session ended
          // elsewhere (a logout in another tab) sends this tab to /login on its next navigation.
          shouldRevalidate: () => true,
          HydrateFallback: FullPageLoader,
          element: (
            <MatchDocumentsProvider value={MatchHistory}>
              <AppLayout />
            </MatchDocumentsProvider>
          ),
          children: [
            { path: PATHS.start, Component: StartPage },
            { path: PATHS.format, Component: FormatPage },
            ...formRoutes,
            { path: PATHS.envelope, lazy: signaturePage('SenderViewPage') },
            { path: PATHS.document, lazy: editorPage },
            { path: PATHS.administration, lazy: administrationPage },
            { path: PATHS.signatureOverview, lazy: signatureOverviewPage },
            { path: PATHS.approvals, lazy: approvalsPage },
            { path: PATHS.sealCheck, lazy: sealCheckPage },
            { path: PATHS.templates, lazy: templatePage('TemplatesPage') },
            { path: PATHS.placeholders, lazy: templatePage('PlaceholdersPage') },
            { path: PATHS.template, lazy: templatePage('TemplatePage') },
            { path: '*', Component: NotFoundPage },
          ],
        },
      ],
    },
  ];
}

export function createAppRouter(auth: AuthService) {
  return createBrowserRouter(appRoutes(auth));
}
