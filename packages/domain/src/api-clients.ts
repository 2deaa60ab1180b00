import { z } from 'zod';
import { permissionLevelSchema } from './api.js';

/** Every API-client token starts with this: recognisable in logs and by secret scanners. */
export const API_CLIENT_TOKEN_PREFIX = 'vg_';

/** The longest an API client may stay valid: a token for ever is a token nobody remembers to revoke. */
export const API_CLIENT_MAX_DAYS = 730;

const isoDay = /^\d{4}-\d{2}-\d{2}$/;

/** POST /backend/admin/api-clients: a system that calls the API on its own, e.g. the CRM's button. */
export const apiClientCreateSchema = z.object({
  name: z
    .string({ error: 'Bitte gib einen Namen an.' })
    .trim()
    .min(1, 'Bitte gib einen Namen an.')
    .max(80, 'Der Name darf höchstens 80 Zeichen lang sein.')
    .regex(/^[^\p{Cc}]*$/u, 'Der Name darf keine Steuerzeichen enthalten.'),
  permission: permissionLevelSchema.describe('The permission level the client acts with: 1, 2 or 3'),
  /** The last day the token is accepted (end of that day, UTC). */
  expiresOn: z
    .string({ error: 'Bitte gib an, bis wann der Zugang gilt.' })
    .regex(isoDay, 'Bitte gib ein Datum im Format JJJJ-MM-TT an.')
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), 'Dieses Datum gibt es nicht.'),
});
export type ApiClientCreate = z.infer<typeof apiClientCreateSchema>;

export const apiClientSchema = z.object({
  id: z.string(),
  name: z.string(),
  permission: permissionLevelSchema,
  /** The token's first characters, to tell which token a log line or a leak names. */
  tokenHint: z.string(),
  createdBy: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  revokedBy: z.string().nullable(),
});
export type ApiClient = z.infer<typeof apiClientSchema>;

/** The answer of the creation: the only time the token is shown. */
export const apiClientCreatedSchema = z.object({
  client: apiClientSchema,
  token: z.string().describe('Shown once; only its SHA-256 is stored'),
});
export type ApiClientCreated = z.infer<typeof apiClientCreatedSchema>;
