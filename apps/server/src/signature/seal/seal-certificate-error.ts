/**
 * A seal that cannot be used: wrong password, no key, expired. The message says what to fix. A module
 * of its own: the server's start recognises it without loading node-forge, which reads the seal.
 */
export class SealCertificateError extends Error {
  override name = 'SealCertificateError';
}
