import { z } from 'zod';
import { PERMISSION_LEVELS } from './permissions.js';

/**
 * Request and response shapes of the API that browser and server share.
 * Errors always have the shape of `apiErrorSchema` (docs/architecture.md#api-conventions).
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
    /** Where the browser exchanges its sign-in code when the server must add the client secret. */
    tokenEndpoint: z.string().optional(),
  }),
  editor: z.enum(['builtin', 'google', 'download']),
  /** Google's API host for the Drive calls of `editor: google`. */
  googleDriveApiUrl: z.string().url(),
  signature: z.enum(['builtin', 'docusign']),
});
export type RuntimeConfig = z.infer<typeof runtimeConfigSchema>;

/** The signed-in user as the server sees them (saveUser, verifyUser). */
export const sessionUserSchema = z.object({
  email: z.string(),
  name: z.string(),
  permission: permissionLevelSchema.nullable(),
  /** Team-Operations: may open /verwaltung, with or without a level. */
  administrator: z.boolean().default(false),
  /**
   * The approval rules now name the user as approver (leaders, legal staff, deputies), computed on the
   * server: the web offers /freigaben by it. Optional only for answers of an older server.
   */
  approver: z.boolean().optional(),
});
export type SessionUser = z.infer<typeof sessionUserSchema>;

/**
 * The token travels only in the Authorization header; an email in the body must match it
 * (docs/decisions.md#token-only-in-the-authorization-header).
 */
export const saveUserBodySchema = z.object({
  email: z.string().trim().toLowerCase().email().optional(),
});

/** POST /backend/private/getPermission/{email} answers 200 with this, or 204 without a level. */
export const permissionAnswerSchema = z.object({ data: permissionLevelSchema });

/** An entry of the staff directory (GET /backend/users), capitalised as the earlier tool's clients read it. */
export const directoryUserSchema = z.object({ Name: z.string(), Email: z.string() });
export type DirectoryUser = z.infer<typeof directoryUserSchema>;

/**
 * GET /backend/signatories: the people who sign offers and terminations for our companies; a form's
 * `selectedPerson` is the `id`. Their e-mail addresses stay on the server.
 */
export const signatoryOptionSchema = z.object({ id: z.string(), name: z.string(), function: z.string() });
export type SignatoryOption = z.infer<typeof signatoryOptionSchema>;
export const signatoryListSchema = z.array(signatoryOptionSchema);

/**
 * POST /backend/documentCheck/{docId}/{matchId}: the match values the key's template shows but the
 * match lacks (`field` a match field, `label` its German name), in the order of the match table, one
 * entry per label. The document still renders; it shows blank lines there.
 */
export const documentCheckSchema = z.object({
  missing: z.array(z.object({ field: z.string(), label: z.string() })),
  /**
   * The clauses of the key's template the person generating may leave out or add (`dataList.klauseln`),
   * each with its default and the variant the deal gets; one no rule gives a variant for this deal is left out.
   */
  optionalClauses: z.array(
    z.object({ key: z.string(), name: z.string(), checked: z.boolean(), variant: z.string() }),
  ),
});
export type DocumentCheck = z.infer<typeof documentCheckSchema>;

export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.enum(['up', 'down']),
});

/**
 * GET /backend/ready: whether this replica should get requests. `starting` and `draining` are the
 * server's own phases; `degraded`: a part it needs is down. The outbox is reported, never decisive: a
 * mail server that refuses is no reason to stop serving contracts.
 */
export const readinessSchema = z.object({
  status: z.enum(['ready', 'starting', 'draining', 'degraded']),
  database: z.enum(['up', 'down']),
  renderer: z.object({
    status: z.enum(['up', 'closed']),
    /** Documents waiting for a render thread or rendering. */
    pending: z.number().int(),
  }),
  outbox: z.object({
    status: z.enum(['up', 'unknown']),
    waiting: z.number().int().optional(),
    oldestWaitingSeconds: z.number().optional(),
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;

/**
 * POST /backend/sendSupportEmail. The reporter comes from the verified token
 * (docs/decisions.md#support-reporter-from-the-token), so the body's `userEmail` and `userName`, which
 * older clients send, are accepted but not used.
 */
export const supportReportSchema = z.object({
  subject: z
    .string()
    .trim()
    .min(1, 'Bitte gib einen Betreff ein.')
    .max(200, 'Der Betreff ist zu lang (max. 200 Zeichen).'),
  msgBody: z
    .string()
    .trim()
    .min(1, 'Bitte beschreibe das Problem.')
    .max(10_000, 'Die Beschreibung ist zu lang (max. 10.000 Zeichen).'),
  matchId: z.string().trim().max(64).nullish(),
});
export type SupportReport = z.infer<typeof supportReportSchema>;
