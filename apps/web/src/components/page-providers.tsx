import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import '@mantine/notifications/styles.css';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext } from 'react';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    // A failed call is answered by the UI; a silent retry would only delay that answer.
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  });
}

/** The app's one query cache, which a page's early start fills before the page shows (app/signing/signing-app.tsx). */
export const appQueryClient = createQueryClient();

const Provided = createContext(false);

/**
 * The query cache, notifications (`notifications.show`) and the dialogs plain functions open
 * (`modals.openConfirmModal`), for every page that talks to the server; showing /login needs none of them
 * (bench/size). Provided once: the routes of those pages wrap themselves in it, and a page rendered inside
 * it already (the tests' AppProviders) keeps the outer one.
 */
export function PageProviders({
  queryClient = appQueryClient,
  children,
}: {
  queryClient?: QueryClient;
  children: ReactNode;
}) {
  if (useContext(Provided)) return children;
  return (
    <Provided value={true}>
      <QueryClientProvider client={queryClient}>
        <Notifications position="top-right" />
        {/* Dialogs that plain functions open (`modals.openConfirmModal`) render here. */}
        <ModalsProvider>{children}</ModalsProvider>
      </QueryClientProvider>
    </Provided>
  );
}
