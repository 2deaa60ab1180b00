/** `openssl req` arguments for a new RSA key at `key` and its certificate request at `csr` for `subject`. */
export const newKeyAndRequest = (key: string, csr: string, subject: string): string[] => [
  'req',
  '-new',
  '-newkey',
  'rsa:2048',
  '-nodes',
  '-keyout',
  key,
  '-out',
  csr,
  '-subj',
  subject,
];
