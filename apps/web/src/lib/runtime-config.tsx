import type { RuntimeConfig } from '@vertragsgenerator/domain';
import { createContext, type ReactNode, useContext } from 'react';

/**
 * Loaded once before the router renders: the SPA is built once and configured by its server
 * (docs/architecture.md#configuration). Read as it comes, not through the API client: the server sends it
 * through `runtimeConfigSchema` already, and the client's zod and schemas are not part of /login's first
 * load (docs/decisions.md#login-loads-only-what-it-shows).
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  // As index.html preloads it: a request of its own would ask the server a second time.
  const response = await fetch('/backend/config');
  if (!response.ok) throw new Error(`GET /backend/config answered ${response.status}`);
  return response.json();
}

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function RuntimeConfigProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext value={config}>{children}</RuntimeConfigContext>;
}

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig needs a RuntimeConfigProvider');
  return config;
}
