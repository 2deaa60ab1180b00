import type { StoredDocument } from '@vertragsgenerator/domain';

/** A generated contract as the server describes it, without its versions: each test gives its own. */
export const contractFields: Omit<StoredDocument, 'versions'> = {
  id: 'doc-1',
  matchId: 'PL-10001',
  docKey: 'docx-de-wm-rv',
  fileName: 'PL-10001 Rahmenvertrag Kunde Elbwerk.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-20T09:00:00Z',
};
