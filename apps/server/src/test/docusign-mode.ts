import { generateKeyPairSync } from 'node:crypto';
import type { SignatureConfig } from '../config/config.js';
import { createDocusignProvider } from '../signature/docusign/docusign-provider.js';
import type { SignatureProvider } from '../signature/signature-provider.js';
import { type DocusignFake, startDocusignFake } from './docusign-fake.js';

export type DocusignConfig = Extract<SignatureConfig, { kind: 'docusign' }>;

/**
 * DocuSign mode against the local DocuSign fake: a key pair made for the run (the integration's, as
 * DocuSign would hold its public half), the fake, the configuration that points at it, and the provider a
 * test app takes — one that gives up on a hanging DocuSign within two seconds instead of fifteen.
 */
export async function docusignMode(
  options: Pick<Partial<DocusignConfig>, 'connectHmacKey' | 'templates'> = {},
): Promise<{ fake: DocusignFake; signature: DocusignConfig; provider: SignatureProvider }> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const ids = { integrationKey: 'ik-test', userId: 'user-test', accountId: 'account-test' };
  const fake = await startDocusignFake({
    ...ids,
    publicKey: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  });
  const signature: DocusignConfig = {
    kind: 'docusign',
    linkValidDays: 14,
    reminderEveryDays: 3,
    ...ids,
    privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    authUrl: fake.authUrl,
    basePath: fake.basePath,
    connectHmacKey: options.connectHmacKey ?? 'connect-hmac-key-for-tests',
    templates: options.templates ?? {},
  };
  const provider = createDocusignProvider(signature, { retryDelaysMs: [1, 1, 1], timeoutMs: 2_000 });
  return { fake, signature, provider };
}
