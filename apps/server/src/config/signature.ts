import { SIGNING_OTP_MODES, type SigningOtpMode } from '@vertragsgenerator/domain';
import { z } from 'zod';
import { ConfigError, readConfigFile } from './support.js';

/** E-signature settings: built-in signing, or DocuSign when its four required variables are set. */

export const SIGNATURE_ENV = {
  SIGNING_LINK_DAYS: z.coerce.number().int().min(1).max(365).default(14),
  SIGNING_REMINDER_DAYS: z.coerce.number().int().min(0).max(365).default(3),
  SIGNING_OTP: z.enum(SIGNING_OTP_MODES).default('required'),
  DOCUSIGN_INTEGRATION_KEY: z.string().min(1).optional(),
  DOCUSIGN_USER_ID: z.string().min(1).optional(),
  DOCUSIGN_ACCOUNT_ID: z.string().min(1).optional(),
  DOCUSIGN_PRIVATE_KEY_FILE: z.string().min(1).optional(),
  DOCUSIGN_AUTH_URL: z.string().url().default('https://account-d.docusign.com'),
  DOCUSIGN_BASE_PATH: z.string().url().optional(),
  DOCUSIGN_CONNECT_HMAC_KEY: z.string().min(16).optional(),
  DOCUSIGN_TEMPLATES_FILE: z.string().min(1).optional(),
};

type SignatureEnv = z.infer<z.ZodObject<typeof SIGNATURE_ENV>>;

/** Together these switch e-signatures from built-in signing to DocuSign. */
const DOCUSIGN_REQUIRED = [
  'DOCUSIGN_INTEGRATION_KEY',
  'DOCUSIGN_USER_ID',
  'DOCUSIGN_ACCOUNT_ID',
  'DOCUSIGN_PRIVATE_KEY_FILE',
] as const;

/** DocuSign server templates per document key (DOCUSIGN_TEMPLATES_FILE): `{ "de-wm-k-rv-1": "<template id>" }`. */
const docusignTemplatesSchema = z.record(z.string().min(1), z.string().min(1));

/** How long signer links stay valid, and how often those who have not answered are reminded (0: never). */
interface SigningFollowUp {
  linkValidDays: number;
  reminderEveryDays: number;
}

export type SignatureConfig =
  | ({
      kind: 'builtin';
      /** SIGNING_OTP: whether signers confirm a code mailed to them before the document opens. */
      signerCode: SigningOtpMode;
    } & SigningFollowUp)
  | ({
      kind: 'docusign';
      integrationKey: string;
      userId: string;
      accountId: string;
      /** PEM of the RSA key whose public half is registered with the integration key. */
      privateKey: string;
      /** OAuth host: https://account-d.docusign.com (developer) or https://account.docusign.com. */
      authUrl: string;
      /** REST base, e.g. https://eu.docusign.net/restapi; unset: the account's base URI from `userinfo`. */
      basePath: string | undefined;
      /** Connect HMAC key; unset: the Connect webhook is refused. */
      connectHmacKey: string | undefined;
      /** Keys sent as a DocuSign server template; all others upload our generated document. */
      templates: Record<string, string>;
    } & SigningFollowUp);

export function signatureConfig(e: SignatureEnv): SignatureConfig {
  const given = DOCUSIGN_REQUIRED.filter((name) => e[name]);
  const followUp = { linkValidDays: e.SIGNING_LINK_DAYS, reminderEveryDays: e.SIGNING_REMINDER_DAYS };
  if (given.length === 0) return { kind: 'builtin', signerCode: e.SIGNING_OTP, ...followUp };
  const missing = DOCUSIGN_REQUIRED.filter((name) => !e[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.map((name) => `${name}: required with ${given.join(', ')}`).join('\n  ')}`,
    );
  }
  const privateKey = readConfigFile('DOCUSIGN_PRIVATE_KEY_FILE', e.DOCUSIGN_PRIVATE_KEY_FILE as string);
  if (!privateKey.includes('PRIVATE KEY-----')) {
    throw new ConfigError('Invalid configuration:\n  DOCUSIGN_PRIVATE_KEY_FILE: not a PEM private key');
  }
  let templates: Record<string, string> = {};
  if (e.DOCUSIGN_TEMPLATES_FILE) {
    const text = readConfigFile('DOCUSIGN_TEMPLATES_FILE', e.DOCUSIGN_TEMPLATES_FILE);
    let parsed: z.ZodSafeParseResult<Record<string, string>>;
    try {
      parsed = docusignTemplatesSchema.safeParse(JSON.parse(text));
    } catch (error) {
      throw new ConfigError(`Invalid configuration:\n  DOCUSIGN_TEMPLATES_FILE: ${(error as Error).message}`);
    }
    if (!parsed.success) {
      throw new ConfigError(
        'Invalid configuration:\n  DOCUSIGN_TEMPLATES_FILE: expected a JSON object of document key to template id',
      );
    }
    templates = parsed.data;
  }
  return {
    kind: 'docusign',
    ...followUp,
    integrationKey: e.DOCUSIGN_INTEGRATION_KEY as string,
    userId: e.DOCUSIGN_USER_ID as string,
    accountId: e.DOCUSIGN_ACCOUNT_ID as string,
    privateKey,
    authUrl: e.DOCUSIGN_AUTH_URL.replace(/\/+$/, ''),
    basePath: e.DOCUSIGN_BASE_PATH?.replace(/\/+$/, ''),
    connectHmacKey: e.DOCUSIGN_CONNECT_HMAC_KEY,
    templates,
  };
}
