import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type ApprovalRequest,
  DEFAULT_APPROVAL_RULES,
  type GenerationApprovalRequired,
} from '@vertragsgenerator/domain';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { type GenerationOutcome, useGenerationFlow } from '@/lib/document-generation';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { DocumentGeneration } from './document-generation';
import type { HandOverDocument } from './use-generation';

const GENERATE = 'POST /backend/generateDocx/';
const ASK = 'POST /backend/documents/doc-7/approval';
const REASONS = ['Marge remote 12,4 % liegt unter 15 % (WM)', 'Text nach der Erstellung geändert'];

/** The server's answer where the editor would hand out the file and the rules hold it back. */
const held: GenerationApprovalRequired = {
  error: 'approval_required',
  message: `Dieses Dokument braucht eine Freigabe, bevor du es bekommst: ${REASONS.join('; ')}.`,
  documentId: 'doc-7',
  reasons: [
    { kind: 'margin', channel: 'remote', company: 'wm', threshold: 15, percent: 12.4, problem: null },
    { kind: 'edited_text' },
  ],
  reasonTexts: REASONS,
};

const asked: ApprovalRequest = {
  id: 'req-7',
  envelopeId: null,
  documentId: 'doc-7',
  documentVersion: 1,
  matchId: 'PL-10001',
  docKey: 'docx-de-wm-rv',
  fileName: 'Rahmenvertrag PL-10001.docx',
  customer: 'Elbwerk Logistik AG',
  requestedBy: { email: 'legal@demo.local', name: 'Lena Legal' },
  requestedAt: '2026-11-27T08:00:00Z',
  reasons: held.reasons,
  reasonTexts: REASONS,
  status: 'open',
  decidedBy: null,
  decidedAt: null,
  comment: null,
  voidReason: null,
  rules: DEFAULT_APPROVAL_RULES,
  escalatesAt: null,
  currentGroups: ['leaders'],
  mayDecide: false,
  send: null,
};

/** A form reduced to its order: the flow's button and status, and the outcome the form would act on. */
function Orderer() {
  const flow = useGenerationFlow();
  const [outcome, setOutcome] = useState<GenerationOutcome | null>(null);
  return (
    <form
      onSubmit={async (event) => {
        event.preventDefault();
        setOutcome(
          await flow.generate({ target: 'docx', docId: 'docx-de-wm-rv', matchId: 'PL-10001', dataList: {} }),
        );
      }}
    >
      {flow.status}
      <button type="submit">Dokument erstellen</button>
      {outcome && <p>Ergebnis: {outcome.ok ? 'ok' : 'abgelehnt'}</p>}
    </form>
  );
}

let downloads: string[];
let handOver: ReturnType<typeof vi.fn<HandOverDocument>>;

beforeEach(() => {
  downloads = captureDownloads();
  handOver = vi.fn<HandOverDocument>(async () => ({ blockedUrl: null }));
});

function renderFlow(api: Parameters<typeof stubApi>[0]) {
  const stub = stubApi(api);
  renderRoutes(
    [
      {
        path: '/dokument',
        element: (
          <DocumentGeneration handOverDocument={handOver}>
            <Orderer />
          </DocumentGeneration>
        ),
      },
      { path: '/start', element: <p>Startseite</p> },
    ],
    '/dokument',
  );
  return stub;
}

const submit = () => userEvent.click(screen.getByRole('button', { name: 'Dokument erstellen' }));

describe('a generated document that needs an approval', () => {
  it('hands nothing over, shows the reasons, and after Zur Freigabe senden that it waits and where the download comes from', async () => {
    const { callsTo } = renderFlow({ [GENERATE]: jsonResponse(409, held), [ASK]: jsonResponse(201, asked) });
    await submit();
    const status = await screen.findByRole('status');
    await within(status).findByText('Freigabe nötig');
    for (const reason of REASONS) expect(within(status).getByText(reason)).toBeInTheDocument();
    // Neither the editor, Google Drive nor a download got a file, and a 409 is not tried again.
    expect(handOver).not.toHaveBeenCalled();
    expect(downloads).toEqual([]);
    expect(callsTo(GENERATE)).toHaveLength(1);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByText('Ergebnis: ok')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Zur Freigabe senden' }));
    await within(status).findByText('Wartet auf Freigabe');
    expect(callsTo(ASK)).toHaveLength(1);
    expect(within(status).getByText(/Dokumentliste des Matches/)).toBeInTheDocument();
    expect(within(status).getByText(/Link in der Mail mit der Entscheidung/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zur Freigabe senden' })).not.toBeInTheDocument();
    await userEvent.click(within(status).getByRole('link', { name: 'Zur Startseite' }));
    expect(await screen.findByText('Startseite')).toBeInTheDocument();
  });

  it('is asked for with the keyboard alone', async () => {
    const { callsTo } = renderFlow({ [GENERATE]: jsonResponse(409, held), [ASK]: jsonResponse(201, asked) });
    await userEvent.tab();
    expect(screen.getByRole('button', { name: 'Dokument erstellen' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Freigabe nötig');
    await userEvent.tab({ shift: true });
    expect(screen.getByRole('button', { name: 'Zur Freigabe senden' })).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await screen.findByText('Wartet auf Freigabe');
    expect(callsTo(ASK)).toHaveLength(1);
  });

  it('shows that it waits when a request for it already waits', async () => {
    renderFlow({
      [GENERATE]: jsonResponse(409, held),
      [ASK]: jsonResponse(409, {
        error: 'approval_pending',
        message: 'Für dieses Dokument wartet schon eine Anfrage auf Freigabe.',
      }),
    });
    await submit();
    await userEvent.click(await screen.findByRole('button', { name: 'Zur Freigabe senden' }));
    expect(await screen.findByText('Wartet auf Freigabe')).toBeInTheDocument();
  });

  it('keeps the button and shows the server’s words when the request is refused', async () => {
    const noApprover =
      'Niemand außer dir darf dieses Dokument freigeben. Bitte wende dich an die Verwaltung.';
    const { callsTo } = renderFlow({
      [GENERATE]: jsonResponse(409, held),
      [ASK]: [jsonResponse(422, { error: 'no_approver', message: noApprover }), jsonResponse(201, asked)],
    });
    await submit();
    await userEvent.click(await screen.findByRole('button', { name: 'Zur Freigabe senden' }));
    // Announced by the flow's live region it stands in.
    expect(await within(screen.getByRole('status')).findByText(noApprover)).toBeInTheDocument();
    expect(screen.queryByText('Wartet auf Freigabe')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Zur Freigabe senden' }));
    await screen.findByText('Wartet auf Freigabe');
    expect(callsTo(ASK)).toHaveLength(2);
  });

  it('treats another 409 as the refusal it is: its message, nothing to ask for', async () => {
    renderFlow({
      [GENERATE]: jsonResponse(409, {
        error: 'document_changed',
        message: 'Das Dokument wurde gerade geändert.',
      }),
    });
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Das Dokument wurde gerade geändert.');
    expect(screen.queryByRole('button', { name: 'Zur Freigabe senden' })).not.toBeInTheDocument();
    expect(handOver).not.toHaveBeenCalled();
  });

  it('hands the file over as before when the answer is the file', async () => {
    renderFlow({
      [GENERATE]: new Response(new Blob(['PK docx']), {
        status: 200,
        headers: { 'Content-Disposition': 'attachment; filename="a.docx"', 'X-Document-Id': 'doc-8' },
      }),
    });
    await submit();
    await waitFor(() => expect(handOver).toHaveBeenCalledTimes(1));
    expect(handOver.mock.calls[0]?.[0]).toMatchObject({ fileName: 'a.docx', documentId: 'doc-8' });
    expect(screen.queryByText('Freigabe nötig')).not.toBeInTheDocument();
  });
});
