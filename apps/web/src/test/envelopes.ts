import type { EnvelopeRecipient, EnvelopeView } from '@vertragsgenerator/domain';

export const customerSigner: EnvelopeRecipient = {
  id: 'r-1',
  role: 'Kunde',
  name: 'Karl Kunde',
  email: 'karl@kunde.de',
  routingOrder: 1,
  status: 'waiting',
  signedAt: null,
  declineReason: null,
  linkExpiresAt: null,
};

export const ccRecipient: EnvelopeRecipient = {
  id: 'r-2',
  role: 'CC',
  name: 'Clara Kopie',
  email: 'clara@demo.local',
  routingOrder: 1,
  status: 'copy',
  signedAt: null,
  declineReason: null,
  linkExpiresAt: null,
};

/** A draft envelope as the server describes it to the sender view and in answers to an action on it. */
export const draftEnvelope: EnvelopeView = {
  id: 'env-1',
  provider: 'builtin',
  status: 'created',
  matchId: 'PL-12345',
  docKey: 'rv-de-wm-k',
  documentId: 'doc-1',
  fileName: 'Rahmenvertrag PL-12345.docx',
  documentSha256: 'a'.repeat(64),
  subject: 'Rahmenvertrag zur Unterschrift',
  message: 'Hallo Karl,\nbitte unterschreib den Rahmenvertrag.',
  sender: { name: 'Lena Legal', email: 'legal@demo.local' },
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-20T09:00:00Z',
  recipients: [customerSigner, ccRecipient],
  events: [
    {
      type: 'created',
      at: '2026-11-20T09:00:00Z',
      actor: 'legal@demo.local',
      ip: '10.0.0.7',
      userAgent: null,
      detail: null,
    },
  ],
  pdfAvailable: false,
};
