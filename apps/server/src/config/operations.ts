import { resolve } from 'node:path';
import { z } from 'zod';

/** Running the server (docs/operations.md): metrics for a scraper, and how long a stop may take. */

export const OPERATIONS_ENV = {
  /** The bearer token a Prometheus scraper sends to GET /backend/metrics; unset, the route is off. */
  METRICS_TOKEN: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  /** Longest the server finishes the requests in flight after SIGTERM before it gives up. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
  /** Folder of the scheduled backups of the embedded database; unset, none are written. */
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_EVERY_HOURS: z.coerce
    .number()
    .min(1)
    .max(24 * 30)
    .default(24),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(1000).default(7),
};

type OperationsEnv = z.infer<z.ZodObject<typeof OPERATIONS_ENV>>;

/** When and where the embedded database is backed up (backup/scheduled-backups.ts writes them). */
export interface BackupSchedule {
  dir: string;
  everyHours: number;
  /** How many of the newest scheduled backups stay; older ones are deleted. */
  keep: number;
}

export interface OperationsConfig {
  metricsToken: string | undefined;
  shutdownTimeoutMs: number;
  /** Undefined: no scheduled backups. */
  backups: BackupSchedule | undefined;
}

export function operationsConfig(e: OperationsEnv): OperationsConfig {
  return {
    metricsToken: e.METRICS_TOKEN,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    backups: e.BACKUP_DIR
      ? { dir: resolve(e.BACKUP_DIR), everyHours: e.BACKUP_EVERY_HOURS, keep: e.BACKUP_KEEP }
      : undefined,
  };
}
