import { type RuntimeConfig, runtimeConfigSchema } from '@vertragsgenerator/domain';
import { createContext, type ReactNode, useContext } from 'react';
import { apiJson } from './api';

/**
 * Loaded once before the router renders: the SPA is built once and configured by its server
 * (docs/architecture.md#configuration).
 */
export function loadRuntimeConfig(): Promise<RuntimeConfig> {
  return apiJson('/backend/config', runtimeConfigSchema);
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
