import { z } from 'zod';
import { RECIPIENT_ROLES } from './signature.js';

/**
 * The signer's side of built-in signing (`/backend/signing/…`): the code step, what a signer sees behind
 * their link, signing and declining, and the errors of a link.
 */

/**
 * Whether signers of built-in signing confirm a code mailed to them before the document opens
 * (SIGNING_OTP): `required` for every envelope, `optional` as the sender chooses per envelope, `off`
 * for none.
 */
export const SIGNING_OTP_MODES = ['required', 'optional', 'off'] as const;
export type SigningOtpMode = (typeof SIGNING_OTP_MODES)[number];

/** The signer's code: six digits, valid this long; a new one after the pause; wrong tries until a lock. */
export const SIGNING_CODE_DIGITS = 6;
export const SIGNING_CODE_VALID_MINUTES = 10;
export const SIGNING_CODE_RESEND_SECONDS = 60;
export const SIGNING_CODE_MAX_WRONG = 5;
export const SIGNING_CODE_LOCK_MINUTES = 15;

/** POST /backend/signing/sign (the signer's link token in the `X-Signing-Token` header). */
export const signEnvelopeSchema = z.object({
  consent: z.literal(true, { error: 'Bitte stimme der elektronischen Unterschrift zu.' }),
  typedName: z
    .string()
    .trim()
    .min(2, 'Bitte gib deinen vollständigen Namen ein.')
    .max(200, 'Der Name ist zu lang (max. 200 Zeichen).'),
  /** Optional drawn signature as a PNG data URL (at most about 300 KB). */
  drawnSignature: z
    .string()
    .max(400_000, 'Die gezeichnete Unterschrift ist zu groß.')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, 'Die gezeichnete Unterschrift ist kein PNG-Bild.')
    .optional(),
});
export type SignEnvelopeRequest = z.infer<typeof signEnvelopeSchema>;

/** POST /backend/signing/decline. */
export const declineEnvelopeSchema = z.object({
  reason: z
    .string()
    .trim()
    .min(3, 'Bitte gib einen Grund für die Ablehnung an.')
    .max(1000, 'Der Grund ist zu lang (max. 1.000 Zeichen).'),
});

/**
 * The code step before the document opens: whether this link needs a code and where it stands. The
 * code itself never leaves the server except in the mail to the signer.
 */
export const signerVerificationSchema = z.object({
  /** The signer must confirm a code mailed to their address before the document opens. */
  required: z.boolean(),
  /** The code was confirmed for this link. */
  verified: z.boolean(),
  /** The address the code goes to, masked (`b***@kunde.de`). */
  email: z.string(),
  /** A code went out and still works. */
  codeSent: z.boolean(),
  /** Seconds until a new code may be asked for; 0: now. */
  resendInSeconds: z.number().int().min(0),
  /** Too many wrong codes: the link is locked until then (ISO time); null: not locked. */
  lockedUntil: z.string().nullable(),
});
export type SignerVerification = z.infer<typeof signerVerificationSchema>;

/** POST /backend/signing/verify: the code from the mail. */
export const verifySigningCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .regex(/^[0-9]{6}$/, 'Bitte gib den 6-stelligen Code aus der E-Mail ein.'),
});
export type VerifySigningCodeRequest = z.infer<typeof verifySigningCodeSchema>;

/**
 * Error codes of the code step; each comes with a German message. `verification_locked` and
 * `code_resend_too_early` share 429 with the rate limit, told apart by the code.
 */
export const SIGNING_CODE_ERRORS = {
  /** The document, signing and declining wait for the code. */
  verification_required: 403,
  code_wrong: 400,
  /** No code works now: none was sent, it expired, or a newer one replaced it. */
  code_expired: 400,
  verification_locked: 429,
  code_resend_too_early: 429,
} as const;
export type SigningCodeError = keyof typeof SIGNING_CODE_ERRORS;

/** GET /backend/signing: what a signer sees behind their link. */
export const signingViewSchema = z.object({
  subject: z.string(),
  message: z.string(),
  fileName: z.string(),
  documentSha256: z.string(),
  sender: z.object({ name: z.string(), email: z.string() }),
  signer: z.object({ name: z.string(), email: z.string(), role: z.enum(RECIPIENT_ROLES) }),
  /** `open` until this signer signed or declined. */
  state: z.enum(['open', 'signed', 'declined']),
  pdfAvailable: z.boolean(),
  /** The code step; until it is done, `signer.email` is masked and the sender's message withheld. */
  verification: signerVerificationSchema,
});
export type SigningView = z.infer<typeof signingViewSchema>;

/** The header that carries a signer's link token: never in a URL the server logs. */
export const SIGNING_TOKEN_HEADER = 'x-signing-token';

/**
 * Error codes of the signer routes; each comes with a German page text (`message`). A signer gets the
 * same `link_invalid` for a guessed, foreign or withdrawn link: nothing tells them which it was.
 */
export const SIGNING_LINK_ERRORS = {
  link_invalid: 404,
  link_expired: 410,
  /** The signer already signed or declined with this link. */
  link_used: 410,
  envelope_closed: 409,
} as const;
export type SigningLinkError = keyof typeof SIGNING_LINK_ERRORS;
