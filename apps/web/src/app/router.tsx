import { FORM_ROUTES, type FormName, type SessionUser } from '@vertragsgenerator/domain';
import {
  createBrowserRouter,
  type LoaderFunctionArgs,
  Navigate,
  type RouteObject,
  type ShouldRevalidateFunctionArgs,
  useRouteLoaderData,
} from 'react-router';
import { preloadFirstViewRenderer } from '@/components/docx-first-view/load-first-view';
import { FullPageLoader } from '@/components/full-page-loader';
import { AuthCallbackPage } from '@/features/auth/auth-callback-page';
import { LoginPage } from '@/features/auth/login-page';
import { CLAUSE_PATHS } from '@/features/clauses/paths';
import type { AuthService } from '@/lib/auth/auth-service';
import { PATHS, SESSION_ROUTE } from '@/lib/paths';
import { NotFoundPage, RouteErrorPage } from './pages';

/**
 * Only /login and /auth/callback come with the first chunk; every other page, the shell around them and
 * its route guard load with the first page that needs them. /login's JavaScript has a budget (bench/size),
 * and a signer's phone needs none of the signed-in pages.
 */
export function appRoutes(auth: AuthService): RouteObject[] {
  const formRoutes = (Object.entries(FORM_ROUTES) as [FormName, string][]).map(([form, path]) => ({
    path,
    lazy: async () => {
      const { DocumentFormPage } = await import('./document-forms');
      return { Component: () => <DocumentFormPage form={form} /> };
    },
  }));

  const startPage = async () => ({ Component: (await import('@/features/match/start-page')).StartPage });
  const formatPage = async () => ({ Component: (await import('@/features/format/format-page')).FormatPage });
  const senderViewPage = async () => ({ Component: (await import('@/features/signature')).SenderViewPage });
  // The document's first view starts loading beside the page's code, as in a tab opened on a document
  // (page-preload.ts), not only once the file is there; the page's loader asks for the document and its
  // file beside the session check. The query client comes with the page, not with /login's first chunk.
  const editorPage = async () => {
    preloadFirstViewRenderer();
    const [{ preloadStoredDocument }, { EditorWithNegotiationPage }, { appQueryClient }] = await Promise.all([
      import('@/features/editor'),
      import('./editor-page'),
      import('@/components/page-providers'),
    ]);
    return {
      Component: EditorWithNegotiationPage,
      loader: ({ params }: LoaderFunctionArgs) => {
        if (params.documentId) preloadStoredDocument(appQueryClient, params.documentId);
        return null;
      },
      // Once per document: the session check's revalidations need no second copy of the file.
      shouldRevalidate: ({ currentParams, nextParams }: ShouldRevalidateFunctionArgs) =>
        currentParams.documentId !== nextParams.documentId,
    };
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
  const clausePage = (page: 'ClausesPage' | 'ClausePage') => async () => ({
    Component: (await import('@/features/clauses'))[page],
  });
  const approvalsPage = (page: 'ApprovalsPage' | 'ApprovalBatchPage') => async () => ({
    Component: (await import('@/features/approvals'))[page],
  });
  const contractsPage = async () => ({
    Component: (await import('./contracts-page')).ContractsWithCalendarPage,
  });
  const contractPage = async () => ({
    Component: (await import('@/features/contracts')).ContractPage,
  });
  const batchesPage = (page: 'BatchesPage' | 'BatchPage') => async () => ({
    Component: (await import('@/features/batches'))[page],
  });
  const figuresPage = async () => ({
    Component: (await import('@/features/figures')).FiguresPage,
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
        {
          // The signed-in user, for the pages that show more to some levels (useRouteLoaderData).
          id: SESSION_ROUTE,
          lazy: async () => (await import('./session-layout')).sessionRoute(auth),
          // The check runs on every navigation, not only when the layout first mounts: a session ended
          // elsewhere (a logout in another tab) sends this tab to /login on its next navigation.
          shouldRevalidate: () => true,
          HydrateFallback: FullPageLoader,
          children: [
            { path: PATHS.start, lazy: startPage },
            { path: PATHS.format, lazy: formatPage },
            ...formRoutes,
            { path: PATHS.envelope, lazy: senderViewPage },
            { path: PATHS.document, lazy: editorPage },
            { path: PATHS.administration, lazy: administrationPage },
            { path: PATHS.signatureOverview, lazy: signatureOverviewPage },
            { path: PATHS.approvals, lazy: approvalsPage('ApprovalsPage') },
            // A batch's grouped Freigabe: its deals approved whole or one by one.
            { path: PATHS.approvalBatch, lazy: approvalsPage('ApprovalBatchPage') },
            { path: PATHS.figures, lazy: figuresPage },
            { path: PATHS.contracts, lazy: contractsPage },
            { path: PATHS.contract, lazy: contractPage },
            { path: PATHS.batches, lazy: batchesPage('BatchesPage') },
            { path: PATHS.batch, lazy: batchesPage('BatchPage') },
            { path: PATHS.sealCheck, lazy: sealCheckPage },
            { path: PATHS.templates, lazy: templatePage('TemplatesPage') },
            { path: PATHS.placeholders, lazy: templatePage('PlaceholdersPage') },
            { path: PATHS.template, lazy: templatePage('TemplatePage') },
            { path: CLAUSE_PATHS.clauses, lazy: clausePage('ClausesPage') },
            { path: CLAUSE_PATHS.clause, lazy: clausePage('ClausePage') },
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
