import type { QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createQueryClient, PageProviders } from '@/components/page-providers';
import { CoreProviders, type CoreProvidersProps } from './core-providers';

export { createQueryClient } from '@/components/page-providers';

export interface AppProvidersProps extends CoreProvidersProps {
  /** A query cache of the test's own; otherwise one for this render alone. */
  queryClient?: QueryClient;
}

/** All the app's providers at once, for rendering a page without its route (the tests). */
export function AppProviders({ queryClient: given, children, ...core }: AppProvidersProps) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  return (
    <CoreProviders {...core}>
      <PageProviders queryClient={queryClient}>{children}</PageProviders>
    </CoreProviders>
  );
}
