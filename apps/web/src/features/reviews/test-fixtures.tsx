import type {
  Review,
  ReviewComment,
  ReviewReviewer,
  ReviewRound,
  StoredDocument,
  Suggestion,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { vi } from 'vitest';
import { renderRoutes } from '@/test/utils';
import { NegotiationPanel } from './negotiation-panel';

export const DOCUMENT_ID = '11111111-1111-4111-8111-111111111111';
export const REVIEW_ID = '22222222-2222-4222-8222-222222222222';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

export const storedDocument = (versions: number[]): StoredDocument => ({
  id: DOCUMENT_ID,
  matchId: 'PL-10001',
  docKey: 'de-wm-k-rv-1',
  fileName: 'PL-10001 Rahmenvertrag Kunde Elbwerk.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-20T09:00:00Z',
  versions: versions.map((version) => ({
    version,
    size: 24_000 + version,
    sha256: String(version).repeat(64).slice(0, 64),
    createdBy: 'legal@demo.local',
    createdAt: `2026-11-2${version}T09:00:00Z`,
  })),
});

export const karl: ReviewReviewer = {
  id: uuid(101),
  name: 'Karl Kunde',
  email: 'karl@elbwerk.de',
  linkExpiresAt: '2099-12-20T09:00:00Z',
  withdrawnAt: null,
  openedAt: '2026-11-21T08:00:00Z',
  remindedAt: null,
};

export const kim: ReviewReviewer = {
  id: uuid(102),
  name: 'Kim Kundin',
  email: 'kim@elbwerk.de',
  linkExpiresAt: '2099-12-20T09:00:00Z',
  withdrawnAt: null,
  openedAt: null,
  remindedAt: '2026-11-26T06:00:00Z',
};

export const insertion: Suggestion = {
  id: uuid(201),
  kind: 'insert',
  text: 'mit einer Frist von 30 Tagen',
  context: 'Der Vertrag kann gekündigt werden mit einer Frist von 30 Tagen.',
  author: 'Karl Kunde',
  at: '2026-11-22T10:00:00Z',
  outcome: 'open',
  decidedBy: null,
  decidedAt: null,
};

export const deletion: Suggestion = {
  ...insertion,
  id: uuid(202),
  kind: 'delete',
  text: 'unbeschränkt',
  context: 'Der Auftragnehmer haftet unbeschränkt.',
};

export const sentRound: ReviewRound = {
  id: uuid(301),
  number: 1,
  state: 'sent',
  message: 'Bitte prüfen Sie den Vertrag bis Ende der Woche.',
  dueDate: '2026-12-04',
  sentBy: 'Lena Legal',
  sentAt: '2026-11-21T07:30:00Z',
  sentVersion: 2,
  sentSha256: 'ab12cd34ef56'.padEnd(64, '0'),
  returnedAt: null,
  returnedBy: null,
  returnedVia: null,
  returnedVersion: null,
  returnedSha256: null,
  reviewers: [karl, kim],
  suggestions: [],
};

export const returnedRound: ReviewRound = {
  ...sentRound,
  state: 'returned',
  returnedAt: '2026-11-22T11:00:00Z',
  returnedBy: 'Karl Kunde',
  returnedVia: 'browser',
  returnedVersion: 3,
  returnedSha256: '98fe76dc54ba'.padEnd(64, '1'),
  suggestions: [insertion, deletion],
};

export const review = (extra: Partial<Review> = {}): Review => ({
  id: REVIEW_ID,
  documentId: DOCUMENT_ID,
  state: 'open',
  language: 'de',
  rounds: [sentRound],
  comments: [],
  agreedAt: null,
  agreedBy: null,
  agreedVersion: null,
  envelopeId: null,
  ...extra,
});

export const comment = (n: number, extra: Partial<ReviewComment> = {}): ReviewComment => ({
  id: uuid(400 + n),
  round: 1,
  parentId: null,
  visibility: 'external',
  author: { name: 'Karl Kunde', side: 'counterparty' },
  quote: '',
  text: `Kommentar ${n}`,
  createdAt: `2026-11-22T1${n}:00:00Z`,
  ...extra,
});

export const API = {
  review: `GET /backend/documents/${DOCUMENT_ID}/review`,
  differences: `GET /backend/documents/${DOCUMENT_ID}/differences`,
  start: `POST /backend/documents/${DOCUMENT_ID}/review`,
  rounds: `POST /backend/reviews/${REVIEW_ID}/rounds`,
  decisions: `POST /backend/reviews/${REVIEW_ID}/decisions`,
  comments: `POST /backend/reviews/${REVIEW_ID}/comments`,
  renew: (reviewerId: string) => `POST /backend/reviews/${REVIEW_ID}/reviewers/${reviewerId}/renew`,
  withdrawLink: (reviewerId: string) => `POST /backend/reviews/${REVIEW_ID}/reviewers/${reviewerId}/withdraw`,
  withdraw: `POST /backend/reviews/${REVIEW_ID}/withdraw`,
  agree: `POST /backend/reviews/${REVIEW_ID}/agree`,
} as const;

/** No paragraph differs from what the template made: the section's quiet answer. */
export const noDifferences = { version: 3, paragraphs: [] };

/**
 * The panel as the editor page hosts it: `onDocumentChanged` stands for the editor reloading its
 * versions, which then know one more (the version the server just made).
 */
export function renderPanel({ version = 3, dirty = false, path = `/dokumente/${DOCUMENT_ID}` } = {}) {
  const documentChanged = vi.fn();
  function Host() {
    const [latest, setLatest] = useState(version);
    return (
      <NegotiationPanel
        document={storedDocument([latest])}
        latestVersion={latest}
        dirty={dirty}
        onDocumentChanged={async () => {
          documentChanged();
          setLatest((current) => current + 1);
        }}
      />
    );
  }
  const rendered = renderRoutes(
    [
      { path: '/dokumente/:documentId', element: <Host /> },
      { path: '/signatur/:envelopeId', element: <p>Umschlag zur Unterschrift</p> },
    ],
    path,
  );
  return { ...rendered, documentChanged };
}
