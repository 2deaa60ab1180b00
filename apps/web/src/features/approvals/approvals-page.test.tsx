import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type ApprovalBatchGroup,
  type ApprovalList,
  type ApprovalRequest,
  DEFAULT_APPROVAL_RULES,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { describe, expect, it, vi } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { ApprovalsPage } from './approvals-page';

// jsdom renders neither superdoc nor PDFs; the viewer has its own check in the browser.
vi.mock('@/components/document-viewer', () => ({
  DocumentViewer: ({ documentKey }: { documentKey: string }) => `Dokumentansicht ${documentKey}`,
}));

const LIST = 'GET /backend/approvals?';
const ONE = 'GET /backend/approvals/req-1';
const APPROVE = 'POST /backend/approvals/req-1/approve';
const DECLINE = 'POST /backend/approvals/req-1/decline';

const leader: SessionUser = {
  email: 'leitung@demo.local',
  name: 'Lars Leitung',
  permission: 3,
  administrator: false,
  approver: true,
};

const thinMargin: ApprovalRequest = {
  id: 'req-1',
  envelopeId: 'env-1',
  documentId: 'doc-1',
  documentVersion: 1,
  matchId: 'PL-10006',
  docKey: 'de-wm-pp-rv',
  fileName: 'Projektpartnervertrag PL-10006.docx',
  customer: 'Elbwerk Logistik AG',
  requestedBy: { email: 'berater@demo.local', name: 'Berta Berater' },
  requestedAt: '2026-11-26T09:00:00Z',
  reasons: [
    { kind: 'margin', channel: 'remote', company: 'wm', threshold: 15, percent: 12.4, problem: null },
    { kind: 'margin', channel: 'onsite', company: 'wm', threshold: 15, percent: null, problem: 'missing' },
  ],
  reasonTexts: [
    'Marge remote 12,4 % liegt unter 15 % (WM)',
    'Marge onsite fehlt (VK oder EK nicht angegeben)',
  ],
  status: 'open',
  decidedBy: null,
  decidedAt: null,
  comment: null,
  voidReason: null,
  rules: DEFAULT_APPROVAL_RULES,
  escalatesAt: '2026-11-30T09:00:00Z',
  currentGroups: ['leaders'],
  mayDecide: true,
  send: null,
};

const editedText: ApprovalRequest = {
  ...thinMargin,
  id: 'req-2',
  documentVersion: 3,
  matchId: 'PL-10001',
  fileName: 'Rahmenvertrag PL-10001.docx',
  reasons: [{ kind: 'edited_text' }],
  reasonTexts: ['Text nach der Erstellung geändert'],
};

const approved: ApprovalRequest = {
  ...thinMargin,
  status: 'approved',
  decidedBy: { email: 'legal@demo.local', name: 'Lena Legal' },
  decidedAt: '2026-11-26T10:00:00Z',
  comment: 'Passt so.',
  mayDecide: false,
  currentGroups: [],
  escalatesAt: null,
  send: { state: 'done', at: '2026-11-26T10:00:05Z', error: null },
};

function list(
  requests: ApprovalRequest[],
  counts = { open: requests.length, decided: 0, all: requests.length },
  batches: ApprovalBatchGroup[] = [],
) {
  return {
    requests,
    batches,
    total: requests.length,
    page: 1,
    pageSize: 25,
    counts,
  } satisfies ApprovalList;
}

function renderApprovals(path = '/freigaben', user: SessionUser = leader) {
  return renderRoutes(
    [{ id: SESSION_ROUTE, loader: () => user, children: [{ path: '/freigaben', Component: ApprovalsPage }] }],
    path,
  );
}

const table = () => screen.findByRole('table', { name: 'Anfragen' });

describe('ApprovalsPage', () => {
  it('lists the open requests with who asks, the match and the reasons in words with figures', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, list([thinMargin, editedText])) });
    renderApprovals();
    const rows = within(await table()).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const row = within(rows[1] as HTMLElement);
    expect(row.getByText('PL-10006')).toBeInTheDocument();
    expect(row.getByText('Elbwerk Logistik AG')).toBeInTheDocument();
    expect(row.getByText('Berta Berater')).toBeInTheDocument();
    expect(row.getByText('am 26.11.2026 10:00')).toBeInTheDocument();
    expect(row.getByText('Marge remote 12,4 % liegt unter 15 % (WM)')).toBeInTheDocument();
    expect(row.getByText('Marge onsite fehlt (VK oder EK nicht angegeben)')).toBeInTheDocument();
    expect(row.getByText('Offen')).toBeInTheDocument();
    expect(within(rows[2] as HTMLElement).getByText('Text nach der Erstellung geändert')).toBeInTheDocument();
    expect(api.callsTo(LIST)[0]?.url).toBe('/backend/approvals?status=open&page=1');
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Offen (2)');
    // No batch waits: no section of them.
    expect(screen.queryByRole('region', { name: 'Serien' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Einzelne Anfragen' })).not.toBeInTheDocument();
  });

  it('lists the batches whose deals need Freigabe above the single requests, each linking to its page', async () => {
    const group: ApprovalBatchGroup = {
      batchId: 'batch-7',
      title: 'Einzelauftrag (Projektpartner, WM)',
      requestedBy: { email: 'berater@demo.local', name: 'Berta Berater' },
      requestedAt: '2026-11-27T08:15:00Z',
      deals: 12,
      open: 9,
      approved: 2,
      declined: 1,
      void: 0,
      reasonTexts: ['Marge remote liegt unter 15 % (WM)', 'Text nach der Erstellung geändert'],
      mayDecide: true,
    };
    stubApi({ [LIST]: jsonResponse(200, list([thinMargin], undefined, [group])) });
    const { router } = renderRoutes(
      [
        {
          id: SESSION_ROUTE,
          loader: () => leader,
          children: [
            { path: '/freigaben', Component: ApprovalsPage },
            { path: '/freigaben/serien/:batchId', Component: () => <p>Seite der Serie</p> },
          ],
        },
      ],
      '/freigaben',
    );
    const section = await screen.findByRole('region', { name: 'Serien' });
    const groups = within(section).getByRole('table', { name: 'Serien mit Freigabe-Anfragen' });
    const rows = within(groups).getAllByRole('row');
    expect(rows).toHaveLength(2);
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual([
      'Einzelauftrag (Projektpartner, WM)',
      'Berta Berateram 27.11.2026 09:15',
      '12 Deals · 9 offen · 2 freigegeben · 1 abgelehnt',
      'Marge remote liegt unter 15 % (WM)Text nach der Erstellung geändert',
      'Serie prüfen',
    ]);
    // The single requests follow under a heading of their own, with the batch's deals not among them.
    expect(
      section.compareDocumentPosition(screen.getByRole('heading', { name: 'Einzelne Anfragen' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
    expect(within(await table()).getAllByRole('row')).toHaveLength(2);

    const review = within(groups).getByRole('link', {
      name: 'Serie prüfen: Einzelauftrag (Projektpartner, WM) vom 27.11.2026 09:15',
    });
    expect(review).toHaveAttribute('href', '/freigaben/serien/batch-7');
    await userEvent.click(review);
    expect(await screen.findByText('Seite der Serie')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/freigaben/serien/batch-7');
  });

  it('shows decided requests by filter, with who decided and what they said', async () => {
    const api = stubApi({
      [LIST]: [
        jsonResponse(200, list([], { open: 0, decided: 1, all: 1 })),
        jsonResponse(200, list([approved], { open: 0, decided: 1, all: 1 })),
      ],
      [ONE]: jsonResponse(200, approved),
    });
    renderApprovals();
    expect(await screen.findByText('Keine offenen Anfragen.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Entschieden (1)' }));
    await waitFor(() => expect(api.callsTo(LIST)[1]?.url).toBe('/backend/approvals?status=decided&page=1'));
    const row = within(await table()).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByText('Freigegeben')).toBeInTheDocument();
    await userEvent.click(within(row).getByRole('button', { name: /^Anfrage prüfen/ }));
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    expect(within(detail).getByText('Entschieden von Lena Legal am 26.11.2026 11:00.')).toBeInTheDocument();
    expect(within(detail).getByText('Passt so.')).toBeInTheDocument();
    expect(within(detail).getByText('Gesendet am 26.11.2026 11:00.')).toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: 'Freigeben' })).not.toBeInTheDocument();
  });

  it('shows a document released for download in the viewer, with the comparison of its edited text', async () => {
    const documentRequest: ApprovalRequest = {
      ...thinMargin,
      id: 'req-3',
      envelopeId: null,
      docKey: 'docx-de-wm-rv',
      fileName: 'Kundenvertrag PL-10006.docx',
      documentVersion: 2,
      reasons: [{ kind: 'edited_text' }],
      reasonTexts: ['Text nach der Erstellung geändert'],
    };
    stubApi({
      [LIST]: jsonResponse(200, list([documentRequest])),
      'GET /backend/approvals/req-3': jsonResponse(200, documentRequest),
      'GET /backend/approvals/req-3/comparison': jsonResponse(200, {
        edited: true,
        generatedVersion: 1,
        version: 2,
        paragraphs: [{ change: 'added', parts: [{ text: 'Neue Klausel.', change: 'added' }] }],
      }),
    });
    renderApprovals('/freigaben?anfrage=req-3');
    const row = within(await table()).getAllByRole('row')[1] as HTMLElement;
    expect(within(row).getByText(/Dokument zum Herunterladen · Version 2/)).toBeInTheDocument();
    expect(screen.queryByText('Du entscheidest keine Freigaben')).not.toBeInTheDocument();
    const detail = await screen.findByRole('region', { name: 'Freigabe: Kundenvertrag PL-10006.docx' });
    expect(within(detail).getByText('Dokumentansicht approval:req-3:2')).toBeInTheDocument();
    const comparison = await screen.findByRole('region', { name: 'Änderungen im Text' });
    expect(comparison.querySelector('ins')).toHaveTextContent('eingefügt: Neue Klausel.');
  });

  it('opens a request for review with the keyboard, shows the document, and approves it with a comment', async () => {
    const api = stubApi({
      [LIST]: [jsonResponse(200, list([thinMargin])), jsonResponse(200, list([]))],
      [ONE]: [jsonResponse(200, thinMargin), jsonResponse(200, approved)],
      [APPROVE]: jsonResponse(200, approved),
    });
    const { router } = renderApprovals();
    await table();
    const review = screen.getByRole('button', {
      name: 'Anfrage prüfen: Projektpartnervertrag PL-10006.docx',
    });
    review.focus();
    await userEvent.keyboard('{Enter}');
    const heading = await screen.findByRole('heading', {
      name: 'Freigabe: Projektpartnervertrag PL-10006.docx',
    });
    // The reader continues at the request, and the address names it (a reload shows the same).
    await waitFor(() => expect(heading).toHaveFocus());
    expect(router.state.location.search).toBe('?anfrage=req-1');
    const detail = screen.getByRole('region', { name: 'Freigabe: Projektpartnervertrag PL-10006.docx' });
    expect(
      within(detail).getByText('Berta Berater (berater@demo.local) fragt am 26.11.2026 10:00 an.'),
    ).toBeInTheDocument();
    expect(within(detail).getByText('Marge remote 12,4 % liegt unter 15 % (WM)')).toBeInTheDocument();
    expect(within(detail).getByText(/^Entscheiden dürfen jetzt: Leitung/)).toBeInTheDocument();
    expect(within(detail).getByText('Dokumentansicht approval:req-1:1')).toBeInTheDocument();
    // No edited text: nothing to compare.
    expect(within(detail).queryByRole('heading', { name: /Geänderter Text/ })).not.toBeInTheDocument();

    await userEvent.type(
      within(detail).getByRole('textbox', { name: /^Kommentar \(optional\)/ }),
      'Passt so.',
    );
    await userEvent.click(within(detail).getByRole('button', { name: 'Freigeben' }));
    await waitFor(() => expect(api.callsTo(APPROVE)).toHaveLength(1));
    expect(api.callsTo(APPROVE)[0]?.body).toEqual({ comment: 'Passt so.' });
    expect(
      await screen.findByText('Freigegeben. Der Umschlag wird im Namen der anfragenden Person gesendet.'),
    ).toBeInTheDocument();
    expect(
      await within(detail).findByText('Entschieden von Lena Legal am 26.11.2026 11:00.'),
    ).toBeInTheDocument();
  });

  it('declines only with a reason, named in German at the field', async () => {
    const declined: ApprovalRequest = {
      ...thinMargin,
      status: 'declined',
      decidedBy: { email: 'leitung@demo.local', name: 'Lars Leitung' },
      decidedAt: '2026-11-26T10:00:00Z',
      comment: 'Marge zu dünn, bitte nachverhandeln.',
      mayDecide: false,
    };
    const api = stubApi({
      [LIST]: jsonResponse(200, list([thinMargin])),
      [ONE]: [jsonResponse(200, thinMargin), jsonResponse(200, declined)],
      [DECLINE]: jsonResponse(200, declined),
    });
    renderApprovals('/freigaben?anfrage=req-1');
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    await userEvent.click(within(detail).getByRole('button', { name: 'Ablehnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Freigabe ablehnen' });
    const reason = within(dialog).getByRole('textbox', { name: /^Grund der Ablehnung/ });
    await waitFor(() => expect(reason).toHaveFocus());
    await userEvent.type(reason, '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(
      await within(dialog).findByText('Bitte gib einen Grund für die Ablehnung an.'),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(DECLINE)).toHaveLength(0);

    await userEvent.clear(reason);
    await userEvent.paste('Marge zu dünn, bitte nachverhandeln.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    await waitFor(() => expect(api.callsTo(DECLINE)).toHaveLength(1));
    expect(api.callsTo(DECLINE)[0]?.body).toEqual({ reason: 'Marge zu dünn, bitte nachverhandeln.' });
    expect(
      await screen.findByText('Abgelehnt. Die anfragende Person ist benachrichtigt.'),
    ).toBeInTheDocument();
    expect(await within(detail).findByText('Marge zu dünn, bitte nachverhandeln.')).toBeInTheDocument();
    expect(within(detail).getByText('Begründung:')).toBeInTheDocument();
  });

  it('tells a second approver in the server’s words that someone else was first, and shows the decision', async () => {
    const api = stubApi({
      [LIST]: jsonResponse(200, list([thinMargin])),
      [ONE]: [jsonResponse(200, thinMargin), jsonResponse(200, approved)],
      [APPROVE]: jsonResponse(409, {
        error: 'conflict',
        message: 'Diese Anfrage hat Lena Legal inzwischen entschieden (Freigegeben).',
      }),
    });
    renderApprovals('/freigaben?anfrage=req-1');
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    await userEvent.click(within(detail).getByRole('button', { name: 'Freigeben' }));
    expect(await within(detail).findByRole('alert')).toHaveTextContent(
      'Diese Anfrage hat Lena Legal inzwischen entschieden (Freigegeben).',
    );
    expect(
      await within(detail).findByText('Entschieden von Lena Legal am 26.11.2026 11:00.'),
    ).toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: 'Freigeben' })).not.toBeInTheDocument();
    expect(api.callsTo(APPROVE)).toHaveLength(1);
  });

  it('lets nobody decide their own request (four eyes)', async () => {
    const own = { ...thinMargin, mayDecide: false };
    stubApi({ [LIST]: jsonResponse(200, list([own])), [ONE]: jsonResponse(200, own) });
    renderApprovals('/freigaben?anfrage=req-1', {
      ...leader,
      email: 'berater@demo.local',
      permission: 1,
      approver: false,
    });
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    expect(
      within(detail).getByText(
        'Das ist deine eigene Anfrage: freigeben muss jemand anderes (Vier-Augen-Prinzip).',
      ),
    ).toBeInTheDocument();
    expect(within(detail).queryByRole('button', { name: 'Freigeben' })).not.toBeInTheDocument();
    // The rules do not name a consultant: the page says the list holds only their own requests.
    expect(screen.getByText('Du entscheidest keine Freigaben')).toBeInTheDocument();
  });

  it('lets the requester send again, once checked in DocuSign, a send DocuSign left open', async () => {
    const SEND_AGAIN = 'POST /backend/approvals/req-1/send-again';
    const uncertain: ApprovalRequest = {
      ...approved,
      send: {
        state: 'failed',
        at: null,
        error:
          'Der Versand an DocuSign wurde unterbrochen; ob DocuSign den Umschlag erhalten hat, ist unklar.',
        uncertain: true,
      },
      maySendAgain: true,
    };
    const api = stubApi({
      [LIST]: jsonResponse(200, list([uncertain])),
      [ONE]: [jsonResponse(200, uncertain), jsonResponse(200, approved)],
      [SEND_AGAIN]: jsonResponse(200, { ...approved, maySendAgain: false }),
    });
    renderApprovals('/freigaben?anfrage=req-1', {
      ...leader,
      email: 'berater@demo.local',
      permission: 1,
      approver: false,
    });
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    expect(
      within(detail).getByText(/Das Senden ist fehlgeschlagen: Der Versand an DocuSign/),
    ).toBeInTheDocument();
    const button = within(detail).getByRole('button', { name: 'Erneut an DocuSign senden' });
    expect(button).toBeDisabled();
    await userEvent.click(
      within(detail).getByRole('checkbox', {
        name: 'Ich habe in DocuSign geprüft: Der Umschlag ist dort nicht angekommen.',
      }),
    );
    await userEvent.click(button);
    expect(await screen.findByText('Der Umschlag wurde an DocuSign gesendet.')).toBeInTheDocument();
    expect(api.callsTo(SEND_AGAIN)).toHaveLength(1);
    expect(api.callsTo(SEND_AGAIN)[0]?.body).toEqual({ notAtDocusign: true });
    expect(await within(detail).findByText('Gesendet am 26.11.2026 11:00.')).toBeInTheDocument();
  });

  it('offers the send again to nobody the server does not name', async () => {
    const uncertain: ApprovalRequest = {
      ...approved,
      send: { state: 'failed', at: null, error: 'unklar', uncertain: true },
      maySendAgain: false,
    };
    stubApi({ [LIST]: jsonResponse(200, list([uncertain])), [ONE]: jsonResponse(200, uncertain) });
    renderApprovals('/freigaben?anfrage=req-1');
    const detail = await screen.findByRole('region', { name: /^Freigabe: / });
    expect(within(detail).getByText('Das Senden ist fehlgeschlagen: unklar')).toBeInTheDocument();
    expect(
      within(detail).queryByRole('button', { name: 'Erneut an DocuSign senden' }),
    ).not.toBeInTheDocument();
  });

  it('shows an edited text against the generated one, paragraph by paragraph', async () => {
    stubApi({
      [LIST]: jsonResponse(200, list([editedText])),
      'GET /backend/approvals/req-2/comparison': jsonResponse(200, {
        edited: true,
        generatedVersion: 1,
        version: 3,
        paragraphs: [
          { change: 'kept', parts: [{ text: '§ 1 Gegenstand', change: 'kept' }] },
          {
            change: 'changed',
            parts: [
              { text: 'Die Vergütung beträgt ', change: 'kept' },
              { text: '92', change: 'removed' },
              { text: '85', change: 'added' },
              { text: ' Euro pro Stunde.', change: 'kept' },
            ],
          },
        ],
      }),
      'GET /backend/approvals/req-2': jsonResponse(200, editedText),
    });
    renderApprovals('/freigaben?anfrage=req-2');
    await screen.findByRole('heading', { name: 'Geänderter Text gegenüber dem erstellten' });
    const comparison = await screen.findByRole('region', { name: 'Änderungen im Text' });
    expect(comparison).toHaveAttribute('tabindex', '0');
    expect(within(comparison).getByText('… 1 unveränderter Absatz …')).toBeInTheDocument();
    expect(comparison.querySelector('del')).toHaveTextContent('gestrichen: 92');
    expect(comparison.querySelector('ins')).toHaveTextContent('eingefügt: 85');
    expect(
      screen.getByText(
        'Der Text der angefragten Version 3 gegenüber der erstellten Version 1, Absatz für Absatz.',
      ),
    ).toBeInTheDocument();
  });

  it('keeps a request chosen while the search has not yet fired open once it does', async () => {
    const api = stubApi({
      [LIST]: jsonResponse(200, list([thinMargin, editedText])),
      [ONE]: jsonResponse(200, thinMargin),
    });
    renderApprovals();
    const row = within(await table()).getAllByRole('row')[1] as HTMLElement;
    // Typed and chosen within the search's delay: the search reaches the server after the choice.
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suche' }), 'PL-10006');
    await userEvent.click(within(row).getByRole('button', { name: /^Anfrage prüfen/ }));
    await waitFor(() => expect(api.callsTo(LIST).at(-1)?.url).toContain('q=PL-10006'));
    expect(screen.getByRole('region', { name: /^Freigabe: / })).toBeInTheDocument();
  });

  it('says why the list or a request could not be loaded', async () => {
    stubApi({
      [LIST]: jsonResponse(503, { error: 'unavailable', message: 'Die Datenbank antwortet gerade nicht.' }),
      [ONE]: jsonResponse(404, { error: 'not_found', message: 'Diese Freigabe-Anfrage gibt es nicht.' }),
    });
    renderApprovals('/freigaben?anfrage=req-1');
    expect(await screen.findByText('Die Datenbank antwortet gerade nicht.')).toBeInTheDocument();
    expect(await screen.findByText('Diese Freigabe-Anfrage gibt es nicht.')).toBeInTheDocument();
  });
});
