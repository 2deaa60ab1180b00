import type { SigningView } from '@vertragsgenerator/domain';

/** A signing link's token, as the mail's link carries it after `#`. */
export const LINK_TOKEN = 'Zk9vYmFyLXRva2VuLTEyMzQ1Njc4OTA';

/** A link whose signer confirmed the code mailed to them: the document is open for signing. */
export const signingView: SigningView = {
  subject: 'Rahmenvertrag zur Unterschrift',
  message: 'Hallo Karl,\nbitte unterschreib den Rahmenvertrag.',
  fileName: 'Rahmenvertrag PL-12345.docx',
  documentSha256: 'a'.repeat(64),
  sender: { name: 'Lena Legal', email: 'legal@demo.local' },
  signer: { name: 'Karl Kunde', email: 'karl@kunde.de', role: 'Kunde' },
  state: 'open',
  pdfAvailable: true,
  verification: {
    required: true,
    verified: true,
    email: 'k***@kunde.de',
    codeSent: false,
    resendInSeconds: 0,
    lockedUntil: null,
  },
};

/** The same link before the code is confirmed: address masked, message withheld, no code sent yet. */
export const unverifiedView: SigningView = {
  ...signingView,
  message: '',
  signer: { ...signingView.signer, email: 'k***@kunde.de' },
  verification: { ...signingView.verification, verified: false },
};
