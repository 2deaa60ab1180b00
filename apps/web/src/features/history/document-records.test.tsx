import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DeletionRecord, DocumentRead, HistoryEntry } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { MatchHistory } from './match-history';

const entry: HistoryEntry = {
  documentId: 'doc-1',
  docKey: 'de-wm-pp-rv',
  form: 'docusign',
  fileName: 'Vertrag PL-12345.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-21T08:05:00Z',
  status: 'ready',
  version: 1,
  templateVersion: 1,
  envelope: null,
};
const reads: DocumentRead[] = [
  { at: '2026-11-22T09:00:00Z', actor: 'berater@demo.local', kind: 'version', version: 1, envelopeId: null },
  { at: '2026-11-22T08:00:00Z', actor: 'api:crm', kind: 'sealed_pdf', version: null, envelopeId: 'env-1' },
];
const deletion: DeletionRecord = {
  kind: 'document',
  subjectId: 'doc-0',
  docKey: 'angebot-wm',
  sha256: 'ab'.repeat(32),
  rule: 'generated_documents',
  ruleLabel: 'Erstellte Dokumente (Geschäftsbriefe)',
  at: '2026-11-20T03:00:00Z',
};

function renderAs(level: number | null, deletions: DeletionRecord[] = [], administrator = false) {
  stubApi({
    'GET /backend/matches/PL-12345/documents': jsonResponse(200, [entry]),
    'GET /backend/matches/PL-12345/deletions': jsonResponse(200, deletions),
    'POST /backend/private/verifyUser': jsonResponse(200, {
      email: 'nutzer@demo.local',
      name: 'Nutzer',
      permission: level,
      administrator,
    }),
    'GET /backend/documents/doc-1/reads': jsonResponse(200, reads),
  });
  return renderRoutes([{ path: '/start', element: <MatchHistory matchId="PL-12345" /> }], '/start');
}

describe('the reads and deletions in the history', () => {
  it('shows legal staff who read a document, by keyboard', async () => {
    renderAs(2);
    const button = await screen.findByRole('button', { name: 'Zugriffe' });
    button.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Zugriffe auf Vertrag PL-12345.docx' });
    const rows = await within(dialog).findAllByRole('row');
    expect(rows.slice(1).map((row) => row.textContent)).toEqual([
      '22.11.2026 10:00berater@demo.localVersion heruntergeladen (Version 1)',
      '22.11.2026 09:00api:crmGesiegeltes PDF heruntergeladen',
    ]);
  });

  it('offers the reads to an administrator without a level', async () => {
    renderAs(null, [], true);
    expect(await screen.findByRole('button', { name: 'Zugriffe' })).toBeInTheDocument();
  });

  it('offers no reads to a consultant', async () => {
    renderAs(1);
    await screen.findByText('Vertrag PL-12345.docx');
    expect(screen.queryByRole('button', { name: 'Zugriffe' })).not.toBeInTheDocument();
  });

  it('lists what was deleted, by which rule, with its SHA-256', async () => {
    renderAs(1, [deletion]);
    const section = await screen.findByRole('region', { name: 'Gelöscht' });
    expect(within(section).getByText('Erstellte Dokumente (Geschäftsbriefe)')).toBeInTheDocument();
    expect(within(section).getByText('ab'.repeat(32))).toBeInTheDocument();
    expect(within(section).getByText('Dokument')).toBeInTheDocument();
  });
});
