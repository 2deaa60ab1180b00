import type { SigningView } from '@vertragsgenerator/domain';

export const signingView: SigningView = {
  subject: 'Rahmenvertrag zur Unterschrift',
  message: 'Hallo Karl,\nbitte unterschreib den Rahmenvertrag.',
  fileName: 'Rahmenvertrag PL-12345.docx',
  documentSha256: 'a'.repeat(64),
  sender: { name: 'Lena Legal', email: 'legal@demo.local' },
  signer: { name: 'Karl Kunde', email: 'karl@kunde.de', role: 'Kunde' },
  state: 'open',
  pdfAvailable: true,
};
