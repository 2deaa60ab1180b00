import type { ReviewComment, ReviewerView } from '@vertragsgenerator/domain';

/** A review link's token, as the mail's link carries it after `#`. */
export const LINK_TOKEN = 'cmV2aWV3LWxpbmstdG9rZW4tMTIzNDU2';

/** A reviewer who confirmed the code mailed to them: the contract is open for comments and changes. */
export const reviewerView: ReviewerView = {
  fileName: 'Rahmenvertrag PL-12345.docx',
  documentSha256: 'a'.repeat(64),
  language: 'de',
  company: 'Demo GmbH',
  sender: { name: 'Lena Legal', email: 'legal@demo.local' },
  reviewer: { name: 'Karla Kundin', email: 'karla@kunde.de' },
  round: 1,
  message: 'Guten Tag Frau Kundin,\nbitte prüfen Sie den Rahmenvertrag.',
  dueDate: '2026-07-15',
  returnedAt: null,
  verification: {
    required: true,
    verified: true,
    email: 'k***@kunde.de',
    codeSent: false,
    resendInSeconds: 0,
    lockedUntil: null,
  },
  earlier: [],
  comments: [],
};

/** The same link before the code is confirmed: address masked, message withheld, no code sent yet. */
export const unverifiedView: ReviewerView = {
  ...reviewerView,
  message: '',
  verification: { ...reviewerView.verification, verified: false },
};

export function comment(fields: Partial<ReviewComment> & Pick<ReviewComment, 'id' | 'text'>): ReviewComment {
  return {
    round: 1,
    parentId: null,
    visibility: 'external',
    author: { name: 'Karla Kundin', side: 'counterparty' },
    quote: '',
    createdAt: '2026-07-01T08:00:00.000Z',
    ...fields,
  };
}
