import { z } from 'zod';

/**
 * Team-Operations: who administers the tool, whatever the database says
 * (docs/architecture.md#permissions).
 */

export const ADMIN_ENV = {
  /** Comma-separated e-mails that are always administrators. */
  ADMIN_EMAILS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((email) => email.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.string().email('must be a comma-separated list of e-mail addresses')))
    .optional(),
  /** Where access requests from /login are mailed; default: every administrator. */
  ACCESS_REQUEST_EMAIL: z.string().trim().email('must be an e-mail address').optional(),
  /** Calls per minute each API client may make; more answer 429. */
  API_CLIENT_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
};

type AdminEnv = z.infer<z.ZodObject<typeof ADMIN_ENV>>;

export interface AdminConfig {
  /** Lower case. */
  administrators: ReadonlySet<string>;
  accessRequestEmail?: string;
  apiClientRequestsPerMinute: number;
}

export function adminConfig(e: AdminEnv): AdminConfig {
  return {
    administrators: new Set(e.ADMIN_EMAILS ?? []),
    apiClientRequestsPerMinute: e.API_CLIENT_REQUESTS_PER_MINUTE,
    ...(e.ACCESS_REQUEST_EMAIL ? { accessRequestEmail: e.ACCESS_REQUEST_EMAIL.toLowerCase() } : {}),
  };
}
