import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  type ApprovalBatch,
  type ApprovalBatchOutcome,
  type ApprovalRequest,
  DEFAULT_APPROVAL_RULES,
  type SessionUser,
} from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { ApprovalBatchPage } from './approval-batch-page';

const BATCH_ID = 'b7b7b7b7-7777-4777-8777-777777777777';
const GET = `GET /backend/approval-batches/${BATCH_ID}`;
const APPROVE_ALL = `POST /backend/approval-batches/${BATCH_ID}/approve`;

const leader: SessionUser = {
  email: 'leitung@demo.local',
  name: 'Lars Leitung',
  permission: 3,
  administrator: false,
  approver: true,
};
const starter = { email: 'berater@demo.local', name: 'Berta Berater' };

/** A deal's request of the batch, open and decidable by the leader unless told otherwise. */
function request(n: number, extra: Partial<ApprovalRequest> = {}): ApprovalRequest {
  return {
    id: `req-${n}`,
    envelopeId: `env-${n}`,
    documentId: `doc-${n}`,
    documentVersion: 1,
    matchId: `PL-1000${n}`,
    docKey: 'de-wm-pp-ev',
    fileName: `Einzelauftrag PL-1000${n}.docx`,
    customer: `Kunde ${n} GmbH`,
    requestedBy: starter,
    requestedAt: '2026-11-27T08:15:00Z',
    reasons: [
      { kind: 'margin', channel: 'remote', company: 'wm', threshold: 15, percent: 12.4, problem: null },
    ],
    reasonTexts: ['Marge remote 12,4 % liegt unter 15 % (WM)'],
    status: 'open',
    decidedBy: null,
    decidedAt: null,
    comment: null,
    voidReason: null,
    rules: DEFAULT_APPROVAL_RULES,
    escalatesAt: null,
    currentGroups: ['leaders'],
    mayDecide: true,
    send: null,
    batchId: BATCH_ID,
    ...extra,
  };
}

const lena = { email: 'legal@demo.local', name: 'Lena Legal' };

/** The batch as the server counts its requests. */
function approvalBatch(requests: ApprovalRequest[], extra: Partial<ApprovalBatch> = {}): ApprovalBatch {
  const count = (status: ApprovalRequest['status']) => requests.filter((r) => r.status === status).length;
  return {
    batchId: BATCH_ID,
    title: 'Einzelauftrag (Projektpartner, WM)',
    requestedBy: starter,
    requestedAt: '2026-11-27T08:15:00Z',
    deals: requests.length,
    open: count('open'),
    approved: count('approved'),
    declined: count('declined'),
    void: count('void'),
    reasonTexts: ['Marge remote 12,4 % liegt unter 15 % (WM)', 'Text nach der Erstellung geändert'],
    mayDecide: requests.some((r) => r.status === 'open' && r.mayDecide),
    requests,
    ...extra,
  };
}

const decided = (n: number, status: 'approved' | 'declined', comment: string | null = null) =>
  request(n, {
    status,
    mayDecide: false,
    decidedBy: lena,
    decidedAt: '2026-11-27T10:00:00Z',
    comment,
  });

/** Three deals: two open, one Lena approved already. */
const waiting = approvalBatch([request(1), request(2), decided(3, 'approved')]);

function renderPage(api: Record<string, ApiAnswer | ApiAnswer[]>, user: SessionUser = leader) {
  const stub = stubApi(api);
  const view = renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => user,
        children: [
          { path: '/freigaben/serien/:batchId', Component: ApprovalBatchPage },
          { path: '/freigaben', Component: () => <p>Liste der Freigaben</p> },
        ],
      },
    ],
    `/freigaben/serien/${BATCH_ID}`,
  );
  return { ...view, ...stub };
}

const dealTable = () => screen.findByRole('table', { name: 'Deals der Serie' });

const rowOf = async (matchId: string) =>
  within(await dealTable())
    .getAllByRole('row')
    .find((row) => within(row).queryByText(matchId)) as HTMLElement;

/** The batch's GETs, without the POSTs to it. */
const loads = (api: ReturnType<typeof stubApi>) =>
  api.callsTo(GET).filter((call) => call.url === `/backend/approval-batches/${BATCH_ID}`);

describe('ApprovalBatchPage', () => {
  it('shows the batch, its counts, reasons and deals, and approves every open deal at once with a comment', async () => {
    const after = approvalBatch([
      decided(1, 'approved', 'Passt für alle.'),
      decided(2, 'approved', 'Passt für alle.'),
      decided(3, 'approved'),
    ]);
    const outcome: ApprovalBatchOutcome = { approved: 2, skipped: 0, batch: after };
    const api = renderPage({
      [GET]: [jsonResponse(200, waiting), jsonResponse(200, after)],
      [APPROVE_ALL]: jsonResponse(200, outcome),
    });

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Einzelauftrag (Projektpartner, WM)' }),
    ).toBeVisible();
    expect(
      screen.getByText('Serie von Berta Berater (berater@demo.local), angefragt am 27.11.2026 09:15.'),
    ).toBeVisible();
    expect(screen.getByText('3 Deals · 2 offen · 1 freigegeben · 0 abgelehnt')).toBeVisible();
    const reasons = screen.getByRole('region', { name: 'Warum eine Freigabe nötig ist' });
    expect(
      within(reasons)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Marge remote 12,4 % liegt unter 15 % (WM)', 'Text nach der Erstellung geändert']);

    const table = await dealTable();
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Match-ID', 'Kunde', 'Datei', 'Gründe', 'Status', 'Aktionen']);
    const first = await rowOf('PL-10001');
    expect(within(first).getByText('Kunde 1 GmbH')).toBeVisible();
    expect(within(first).getByText('Einzelauftrag PL-10001.docx')).toBeVisible();
    expect(within(first).getByText('Offen')).toBeVisible();
    expect(within(first).getByRole('button', { name: 'Freigeben (PL-10001)' })).toBeEnabled();
    // Decided already: no decision offered.
    const third = await rowOf('PL-10003');
    expect(within(third).getByText('Freigegeben')).toBeVisible();
    expect(within(third).getByText('von Lena Legal')).toBeVisible();
    expect(within(third).queryByRole('button')).not.toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: /^Kommentar \(optional\)/ }), 'Passt für alle.');
    const all = screen.getByRole('button', { name: 'Alle freigeben (2)' });
    expect(all).toHaveAccessibleDescription(/^Gibt jeden offenen Deal frei/);
    await userEvent.click(all);

    await waitFor(() => expect(api.callsTo(APPROVE_ALL)).toHaveLength(1));
    expect(api.callsTo(APPROVE_ALL)[0]).toEqual({
      url: `/backend/approval-batches/${BATCH_ID}/approve`,
      body: { comment: 'Passt für alle.' },
    });
    expect(await screen.findByText('2 Deals freigegeben.')).toBeInTheDocument();
    // The page shows the batch as it is now, and asks for it again.
    expect(await screen.findByText('3 Deals · 0 offen · 3 freigegeben · 0 abgelehnt')).toBeVisible();
    expect(screen.getByText('Kein Deal dieser Serie wartet noch auf eine Entscheidung.')).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Alle freigeben/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Freigeben \(/ })).not.toBeInTheDocument();
    await waitFor(() => expect(loads(api)).toHaveLength(2));
  });

  it('declines one deal only with a reason, and shows the batch as it is then', async () => {
    const DECLINE = 'POST /backend/approvals/req-2/decline';
    const after = approvalBatch([
      request(1),
      decided(2, 'declined', 'Marge zu dünn, bitte nachverhandeln.'),
      decided(3, 'approved'),
    ]);
    const api = renderPage({
      [GET]: [jsonResponse(200, waiting), jsonResponse(200, after)],
      [DECLINE]: jsonResponse(200, after.requests[1]),
    });
    const row = await rowOf('PL-10002');
    await userEvent.click(within(row).getByRole('button', { name: 'Ablehnen (PL-10002)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Freigabe ablehnen: PL-10002' });
    const reason = within(dialog).getByRole('textbox', { name: /^Grund der Ablehnung/ });
    await waitFor(() => expect(reason).toHaveFocus());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    expect(
      await within(dialog).findByText('Bitte gib einen Grund für die Ablehnung an.'),
    ).toBeInTheDocument();
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(DECLINE)).toHaveLength(0);

    await userEvent.type(reason, 'Marge zu dünn, bitte nachverhandeln.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Ablehnen' }));
    await waitFor(() => expect(api.callsTo(DECLINE)).toHaveLength(1));
    expect(api.callsTo(DECLINE)[0]?.body).toEqual({ reason: 'Marge zu dünn, bitte nachverhandeln.' });
    expect(
      await screen.findByText('PL-10002 abgelehnt. Die anfragende Person ist benachrichtigt.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const declined = await rowOf('PL-10002');
    await waitFor(() => expect(within(declined).getByText('Abgelehnt')).toBeVisible());
    expect(within(declined).getByText('Marge zu dünn, bitte nachverhandeln.')).toBeVisible();
    expect(within(declined).queryByRole('button')).not.toBeInTheDocument();
    // The other open deal is still to decide, alone now.
    expect(screen.getByRole('button', { name: 'Alle freigeben (1)' })).toBeEnabled();
    expect(loads(api)).toHaveLength(2);
  });

  it('approves one deal without a comment', async () => {
    const APPROVE = 'POST /backend/approvals/req-1/approve';
    const after = approvalBatch([decided(1, 'approved'), request(2), decided(3, 'approved')]);
    const api = renderPage({
      [GET]: [jsonResponse(200, waiting), jsonResponse(200, after)],
      [APPROVE]: jsonResponse(200, after.requests[0]),
    });
    const row = await rowOf('PL-10001');
    await userEvent.click(within(row).getByRole('button', { name: 'Freigeben (PL-10001)' }));
    await waitFor(() => expect(api.callsTo(APPROVE)).toHaveLength(1));
    expect(api.callsTo(APPROVE)[0]?.body).toEqual({});
    expect(await screen.findByText('PL-10001 freigegeben.')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Alle freigeben (1)' })).toBeEnabled();
  });

  it('says the server’s words when it refuses, and loads the batch again', async () => {
    const api = renderPage({
      [GET]: jsonResponse(200, waiting),
      [APPROVE_ALL]: jsonResponse(403, {
        error: 'forbidden',
        message: 'Diese Serie hast du selbst gestartet: freigeben muss jemand anderes (Vier-Augen-Prinzip).',
      }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Alle freigeben (2)' }));
    expect(await screen.findByRole('alert', { name: 'Das hat nicht geklappt.' })).toHaveTextContent(
      'Diese Serie hast du selbst gestartet: freigeben muss jemand anderes (Vier-Augen-Prinzip).',
    );
    await waitFor(() => expect(loads(api)).toHaveLength(2));
    expect(api.callsTo(APPROVE_ALL)[0]?.body).toEqual({});
  });

  it('lets the batch’s starter decide nothing (four eyes)', async () => {
    const own = approvalBatch([request(1, { mayDecide: false }), request(2, { mayDecide: false })]);
    renderPage({ [GET]: jsonResponse(200, own) }, { ...leader, ...starter, permission: 1, approver: false });
    expect(
      await screen.findByText(
        'Das ist deine eigene Serie: freigeben muss jemand anderes (Vier-Augen-Prinzip).',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /^Alle freigeben/ })).not.toBeInTheDocument();
    expect(within(await dealTable()).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so for a batch that is not there, with the way back', async () => {
    renderPage({
      [GET]: jsonResponse(404, { error: 'not_found', message: 'Diese Serie gibt es nicht.' }),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Serie nicht gefunden' })).toBeVisible();
    expect(screen.getByText('Diese Serie gibt es nicht.')).toBeVisible();
    expect(screen.getByRole('link', { name: '← Zurück zu den Freigaben' })).toHaveAttribute(
      'href',
      '/freigaben',
    );
  });
});
