import { z } from 'zod';
import { PERMISSION_LEVELS } from './permissions.js';

/**
 * Request and response shapes of the API that browser and server share.
 * Errors always have the shape of `apiErrorSchema` (DESIGN §7).
 */
export const apiErrorSchema = z.object({
  error: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type ApiError = z.infer<typeof apiErrorSchema>;

export const permissionLevelSchema = z.union(PERMISSION_LEVELS.map((l) => z.literal(l)));

/** GET /backend/config: what the SPA needs to know at run time. */
export const runtimeConfigSchema = z.object({
  version: z.string(),
  oidc: z.object({
    authority: z.string().url(),
    clientId: z.string(),
    providerName: z.string(),
    scope: z.string(),
  }),
  editor: z.enum(['builtin', 'google', 'download']),
  signature: z.enum(['builtin', 'docusign']),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The signed-in user as the server sees them (saveUser, verifyUser). */
export const sessionUserSchema = z.object({
  email: z.string(),
  name: z.string(),
  permission: permissionLevelSchema.nullable(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/** The token travels only in the Authorization header (DESIGN §10.1); an email in the body must match it. */
export const saveUserBodySchema = z.object({
  email: z.string().trim().toLowerCase().email().optional(),
});

/** POST /backend/private/getPermission/{email} answers 200 with this, or 204 without a level. */
export const permissionAnswerSchema = z.object({ data: permissionLevelSchema });

/** One entry of the staff directory (GET /backend/users), field names as in SPEC §7. */
export const directoryUserSchema = z.object({ Name: z.string(), Email: z.string() });
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
});
