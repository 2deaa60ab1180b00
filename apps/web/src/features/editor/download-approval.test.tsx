import { screen, waitFor } from '@testing-library/react';
import {
  type ApprovalRulesView,
  approvalDocumentTypeOptions,
  DEFAULT_APPROVAL_RULES,
  type StoredDocument,
} from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { DownloadApprovalNotice } from './download-approval';

const rules = (extra: Partial<ApprovalRulesView['rules']> = {}): ApprovalRulesView => ({
  rules: { ...DEFAULT_APPROVAL_RULES, ...extra },
  version: '1',
  changedBy: null,
  changedAt: null,
  mayChange: false,
  documentTypeOptions: approvalDocumentTypeOptions(),
});

const version = (n: number) => ({
  version: n,
  size: 1000,
  sha256: String(n).repeat(64),
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-26T09:00:00Z',
});

const termination: StoredDocument = {
  id: 'doc-1',
  matchId: 'PL-10006',
  docKey: 'kuendigung-wm-k-termination-gerecht',
  fileName: 'Kündigung PL-10006.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-26T09:00:00Z',
  versions: [version(2), version(1)],
} as StoredDocument;

const thinMatch = { matchId: 'PL-10006', vk: 98, ek: 110, vk2: 120, ek2: 90 };

describe('DownloadApprovalNotice', () => {
  it('tells before the download of a final document why it needs an approval, in the rules’ words', async () => {
    stubApi({
      'GET /backend/approval-rules': jsonResponse(200, rules({ documentTypes: ['termination'] })),
      'POST /backend/match/PL-10006': jsonResponse(200, thinMatch),
    });
    renderWithProviders(<DownloadApprovalNotice document={termination} />);
    expect(
      await screen.findByText('Vor der Weitergabe braucht dieses Dokument eine Freigabe'),
    ).toBeInTheDocument();
    expect(screen.getByText(/^Marge remote -12,2\d % liegt unter 15 % \(WM\)$/)).toBeInTheDocument();
    // Onsite: (120 − 90) ÷ 120 = 25 %, above the threshold.
    expect(screen.queryByText(/^Marge onsite/)).not.toBeInTheDocument();
    expect(screen.getByText('Text nach der Erstellung geändert')).toBeInTheDocument();
    expect(screen.getByText('Dokumenttyp Kündigung braucht immer eine Freigabe')).toBeInTheDocument();
  });

  it('says nothing where no rule applies', async () => {
    const api = stubApi({
      'GET /backend/approval-rules': jsonResponse(200, rules()),
      'POST /backend/match/PL-10006': jsonResponse(200, { ...thinMatch, vk: 130, ek: 90 }),
    });
    renderWithProviders(
      <DownloadApprovalNotice document={{ ...termination, versions: [version(1)] } as StoredDocument} />,
    );
    await waitFor(() => expect(api.callsTo('POST /backend/match/PL-10006')).toHaveLength(1));
    await waitFor(() => expect(api.callsTo('GET /backend/approval-rules')).toHaveLength(1));
    expect(screen.queryByText(/Freigabe/)).not.toBeInTheDocument();
  });

  it('leaves a document for signature to the sender view, and asks nothing', () => {
    const api = stubApi({});
    renderWithProviders(
      <DownloadApprovalNotice document={{ ...termination, docKey: 'de-wm-pp-rv' } as StoredDocument} />,
    );
    expect(screen.queryByText(/Freigabe/)).not.toBeInTheDocument();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });
});
