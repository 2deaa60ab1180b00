import { Group, Stack } from '@mantine/core';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentApproval, StoredDocument } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { DownloadApprovalNotice, EditorDownloadButton } from './download-approval';

const APPROVAL = 'GET /backend/documents/doc-1/approval';
const ASK = 'POST /backend/documents/doc-1/approval';
const DOWNLOAD = 'GET /backend/documents/doc-1/download';

const version = (n: number) => ({
  version: n,
  size: 1000,
  sha256: String(n).repeat(64),
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-26T09:00:00Z',
});

const contract: StoredDocument = {
  id: 'doc-1',
  matchId: 'PL-10006',
  docKey: 'docx-de-wm-rv',
  fileName: 'Kundenvertrag PL-10006.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-26T09:00:00Z',
  versions: [version(2), version(1)],
} as StoredDocument;

const EDITED = 'Text nach der Erstellung geändert';

const request = (extra: Partial<NonNullable<DocumentApproval['request']>>): DocumentApproval['request'] => ({
  id: 'req-1',
  status: 'open',
  requestedBy: { email: 'legal@demo.local', name: 'Lena Legal' },
  requestedAt: '2026-11-26T09:00:00Z',
  reasons: [{ kind: 'edited_text' }],
  reasonTexts: [EDITED],
  decidedBy: null,
  decidedAt: null,
  comment: null,
  voidReason: null,
  documentVersion: 2,
  send: null,
  ...extra,
});

const needed: DocumentApproval = {
  applies: true,
  version: 2,
  required: true,
  reasons: [{ kind: 'edited_text' }],
  reasonTexts: [EDITED],
  released: null,
  request: null,
};

function renderEditorTop(document = contract, shownVersion: number | undefined = 2, dirty = false) {
  return renderWithProviders(
    <Stack>
      <Group>
        <EditorDownloadButton document={document} shownVersion={shownVersion} dirty={dirty} />
      </Group>
      <DownloadApprovalNotice document={document} shownVersion={shownVersion} dirty={dirty} />
    </Stack>,
  );
}

describe('the editor’s download of a final document', () => {
  it('becomes „Zur Freigabe senden“ with the reasons in words, then waits for the approval', async () => {
    const waiting: DocumentApproval = { ...needed, request: request({}) };
    const api = stubApi({
      [APPROVAL]: [jsonResponse(200, needed), jsonResponse(200, waiting)],
      [ASK]: jsonResponse(201, {}),
    });
    renderEditorTop();
    const ask = await screen.findByRole('button', { name: 'Zur Freigabe senden' });
    expect(
      screen.getByText('Vor dem Herunterladen braucht dieses Dokument eine Freigabe'),
    ).toBeInTheDocument();
    expect(screen.getByText(EDITED)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Herunterladen' })).not.toBeInTheDocument();

    await userEvent.click(ask);
    expect(await screen.findByText('Wartet auf Freigabe')).toBeInTheDocument();
    expect(api.callsTo(ASK)).toHaveLength(1);
    expect(
      screen.getByText(/^Version 2 wurde am 26\.11\.2026 10:00 zur Freigabe gesendet\./),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zur Freigabe senden' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Herunterladen' })).not.toBeInTheDocument();
  });

  it('asks only for a saved text: with unsaved changes the button waits for the save', async () => {
    stubApi({ [APPROVAL]: jsonResponse(200, needed) });
    renderEditorTop(contract, 2, true);
    expect(await screen.findByRole('button', { name: 'Zur Freigabe senden' })).toBeDisabled();
    expect(
      screen.getByText('Speichere deine Änderungen, bevor du das Dokument zur Freigabe sendest.'),
    ).toBeInTheDocument();
  });

  it('offers the download once released, with who released it and when', async () => {
    const released: DocumentApproval = {
      ...needed,
      required: false,
      released: {
        by: { email: 'leitung@demo.local', name: 'Lars Leitung' },
        at: '2026-11-26T11:30:00Z',
        comment: 'Passt so.',
      },
      request: request({
        status: 'approved',
        decidedBy: { email: 'leitung@demo.local', name: 'Lars Leitung' },
      }),
    };
    const api = stubApi({
      [APPROVAL]: jsonResponse(200, released),
      [DOWNLOAD]: new Response(new Blob(['docx']), { status: 200 }),
    });
    const downloads = captureDownloads();
    renderEditorTop();
    expect(await screen.findByText('Freigegeben von Lars Leitung am 26.11.2026 12:30.')).toBeInTheDocument();
    expect(screen.getByText('Kommentar: Passt so.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Herunterladen' }));
    await waitFor(() => expect(api.callsTo(DOWNLOAD)).toHaveLength(1));
    expect(api.callsTo(DOWNLOAD)[0]?.url).toBe('/backend/documents/doc-1/download?version=2');
    await waitFor(() => expect(downloads).toEqual(['Kundenvertrag PL-10006.docx']));
  });

  it('after a decline shows the reason and asks for a change before the next request', async () => {
    const declined: DocumentApproval = {
      ...needed,
      request: request({
        status: 'declined',
        decidedBy: { email: 'leitung@demo.local', name: 'Lars Leitung' },
        decidedAt: '2026-11-26T11:00:00Z',
        comment: 'Die Haftungsklausel bitte streichen.',
      }),
    };
    stubApi({ [APPROVAL]: jsonResponse(200, declined) });
    renderEditorTop();
    expect(await screen.findByText('Freigabe abgelehnt')).toBeInTheDocument();
    expect(screen.getByText('Lars Leitung hat am 26.11.2026 12:00 abgelehnt.')).toBeInTheDocument();
    expect(screen.getByText('Begründung: Die Haftungsklausel bitte streichen.')).toBeInTheDocument();
    expect(
      screen.getByText('Ändere das Dokument, speichere es und sende es dann erneut zur Freigabe.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zur Freigabe senden' })).not.toBeInTheDocument();
  });

  it('takes a new request once a changed version follows the declined one', async () => {
    const changed: DocumentApproval = {
      ...needed,
      version: 3,
      request: request({ status: 'declined', comment: 'Bitte ändern.' }),
    };
    stubApi({ [APPROVAL]: jsonResponse(200, changed) });
    renderEditorTop({ ...contract, versions: [version(3), version(2), version(1)] }, 3);
    expect(await screen.findByRole('button', { name: 'Zur Freigabe senden' })).toBeEnabled();
    expect(screen.queryByText('Freigabe abgelehnt')).not.toBeInTheDocument();
  });

  it('downloads at once where no rule applies', async () => {
    stubApi({ [APPROVAL]: jsonResponse(200, { ...needed, required: false, reasons: [], reasonTexts: [] }) });
    renderEditorTop();
    // Held while the server's answer is on its way, offered once it says no rule applies.
    expect(await screen.findByRole('button', { name: 'Herunterladen' })).toBeDisabled();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Herunterladen' })).toBeEnabled());
    expect(screen.queryByText(/Freigabe/)).not.toBeInTheDocument();
  });

  it('leaves a document for signature to the sender view, and asks nothing', () => {
    const api = stubApi({});
    renderEditorTop({ ...contract, docKey: 'de-wm-pp-rv' } as StoredDocument);
    expect(screen.getByRole('button', { name: 'Herunterladen' })).toBeInTheDocument();
    expect(screen.queryByText(/Freigabe/)).not.toBeInTheDocument();
    expect(api.fetchMock).not.toHaveBeenCalled();
  });
});
