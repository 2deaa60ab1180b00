import { z } from 'zod';
import { RECIPIENT_ROLES } from './signature.js';

/**
 * Prüfen (`/pruefen`): what a dropped PDF is. `sealed`: an unchanged sealed PDF of an envelope here.
 * `unknown_envelope`: our seal, valid over the whole file, but no envelope here has it (made by another
 * installation, or its database was restored from an older backup). `changed`: our seal, but the file
 * is not what was sealed (a byte changed, or something was added after sealing). `other_signature`:
 * signed, not with our seal. `unsealed`: no signature at all.
 */
export const SEAL_CHECK_VERDICTS = [
  'sealed',
  'unknown_envelope',
  'changed',
  'other_signature',
  'unsealed',
] as const;
export type SealCheckVerdict = (typeof SEAL_CHECK_VERDICTS)[number];

/**
 * The PAdES baseline level (ETSI EN 319 142-1) a sealed PDF reached: B-B signed; B-T with a trusted
 * time of the signature; B-LT with the certificates and revocation data to validate it inside the PDF;
 * B-LTA with a document timestamp over all of that, renewed before it expires.
 */
export const SEAL_LEVELS = ['B-B', 'B-T', 'B-LT', 'B-LTA'] as const;
export type SealLevel = (typeof SEAL_LEVELS)[number];

/** The largest PDF Prüfen takes: a sealed envelope with a long contract is a few MB. */
export const SEAL_CHECK_MAX_BYTES = 20 * 1024 * 1024;

export const sealCheckSchema = z.object({
  verdict: z.enum(SEAL_CHECK_VERDICTS),
  /** SHA-256 of the file as received, hex. */
  sha256: z.string(),
  /** The file's first signature; null when it has none. */
  signature: z
    .object({
      commonName: z.string().nullable(),
      valid: z.boolean(),
      coversWholeFile: z.boolean(),
    })
    .nullable(),
  /** The envelope whose sealed PDF this is (`sealed` only). */
  envelope: z
    .object({
      id: z.string(),
      matchId: z.string(),
      subject: z.string(),
      fileName: z.string(),
      completedAt: z.string().nullable(),
      /** The PAdES level the sealed PDF reached; null for a document signed at DocuSign. */
      sealLevel: z.enum(SEAL_LEVELS).nullable(),
      signers: z.array(
        z.object({
          role: z.enum(RECIPIENT_ROLES),
          name: z.string(),
          email: z.string(),
          signedAt: z.string().nullable(),
        }),
      ),
    })
    .nullable(),
});
export type SealCheck = z.infer<typeof sealCheckSchema>;
