import { z } from 'zod';

/** Running the server (DESIGN §12; docs/operations.md): metrics for a scraper, and how long a stop may take. */

export const OPERATIONS_ENV = {
  /** The bearer token a Prometheus scraper sends to GET /backend/metrics; unset, the route is off. */
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  /** Longest the server finishes the requests in flight after SIGTERM before it gives up. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
};

type OperationsEnv = z.infer<z.ZodObject<typeof OPERATIONS_ENV>>;

export interface OperationsConfig {
  metricsToken: string | undefined;
  shutdownTimeoutMs: number;
}

export function operationsConfig(e: OperationsEnv): OperationsConfig {
  return { metricsToken: e.METRICS_TOKEN, shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000 };
}
