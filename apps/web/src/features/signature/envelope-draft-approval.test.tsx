import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvelopeApproval, EnvelopeView } from '@vertragsgenerator/domain';
import { describe, expect, it, vi } from 'vitest';
import { draftEnvelope } from '@/test/envelopes';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { SenderViewPage } from './sender-view-page';

// jsdom renders neither superdoc nor PDFs; the viewer has its own check in the browser.
vi.mock('@/components/document-viewer', () => ({ DocumentViewer: () => 'Dokumentansicht' }));

const ENVELOPE = 'GET /backend/signature/envelopes/env-1';
const SEND = 'POST /backend/signature/envelopes/env-1/send';
const ASK = 'POST /backend/signature/envelopes/env-1/approval';

const reasons: Pick<EnvelopeApproval, 'reasons' | 'reasonTexts'> = {
  reasons: [
    { kind: 'margin', channel: 'remote', company: 'wm', threshold: 15, percent: 12.4, problem: null },
    { kind: 'edited_text' },
  ],
  reasonTexts: ['Marge remote 12,4 % liegt unter 15 % (WM)', 'Text nach der Erstellung geändert'],
};

const request: NonNullable<EnvelopeApproval['request']> = {
  id: 'req-1',
  status: 'open',
  requestedBy: { email: 'berater@demo.local', name: 'Berta Berater' },
  requestedAt: '2026-11-26T09:00:00Z',
  ...reasons,
  decidedBy: null,
  decidedAt: null,
  comment: null,
  voidReason: null,
  documentVersion: 1,
  send: null,
};

const withApproval = (approval: EnvelopeApproval): EnvelopeView => ({ ...draftEnvelope, approval });
const needed = withApproval({ required: true, ...reasons, request: null });
const waiting = withApproval({ required: true, ...reasons, request });
const declined = withApproval({
  required: true,
  ...reasons,
  request: {
    ...request,
    status: 'declined',
    decidedBy: { email: 'leitung@demo.local', name: 'Lars Leitung' },
    decidedAt: '2026-11-26T10:00:00Z',
    comment: 'Bitte die Änderung in § 3 zurücknehmen.',
  },
});

function renderDraft() {
  return renderRoutes([{ path: '/signatur/:envelopeId', element: <SenderViewPage /> }], '/signatur/env-1');
}

describe('SenderViewPage: an envelope that needs an approval', () => {
  it('asks for the approval instead of sending, with the reasons in words, and then waits for it', async () => {
    const api = stubApi({
      [ENVELOPE]: [jsonResponse(200, needed), jsonResponse(200, waiting)],
      [ASK]: jsonResponse(201, { id: 'req-1' }),
    });
    renderDraft();
    const ask = await screen.findByRole('button', { name: 'Zur Freigabe senden' });
    expect(screen.queryByRole('button', { name: 'Senden' })).not.toBeInTheDocument();
    expect(screen.getByText('Dieser Umschlag braucht vor dem Senden eine Freigabe')).toBeInTheDocument();
    expect(screen.getByText('Marge remote 12,4 % liegt unter 15 % (WM)')).toBeInTheDocument();
    expect(screen.getByText('Text nach der Erstellung geändert')).toBeInTheDocument();

    await userEvent.click(ask);
    await waitFor(() => expect(api.callsTo(ASK)).toHaveLength(1));
    expect(api.callsTo(ASK)[0]?.body).toMatchObject({
      subject: draftEnvelope.subject,
      recipients: [
        { role: 'Kunde', name: 'Karl Kunde', email: 'karl@kunde.de', routingOrder: 1 },
        { role: 'CC' },
      ],
    });
    expect(api.callsTo(SEND)).toHaveLength(0);
    expect(await screen.findByText('Zur Freigabe gesendet')).toBeInTheDocument();
    expect(await screen.findByText('Wartet auf Freigabe')).toBeInTheDocument();
    expect(screen.getByText(/^Angefragt am 26\.11\.2026 10:00\. Sobald jemand freigibt/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zur Freigabe senden' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Senden' })).not.toBeInTheDocument();
    // Withdrawing stays possible while it waits.
    expect(screen.getByRole('button', { name: 'Verwerfen' })).toBeEnabled();
  });

  it('shows a declined request with its reason and lets the sender ask again', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, declined),
      [ASK]: jsonResponse(201, { id: 'req-2' }),
    });
    renderDraft();
    expect(await screen.findByText('Freigabe abgelehnt')).toBeInTheDocument();
    expect(screen.getByText('Lars Leitung hat am 26.11.2026 11:00 abgelehnt.')).toBeInTheDocument();
    expect(screen.getByText('Begründung: Bitte die Änderung in § 3 zurücknehmen.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Zur Freigabe senden' }));
    await waitFor(() => expect(api.callsTo(ASK)).toHaveLength(1));
  });

  it('lets the requester send again an approved envelope DocuSign left unanswered, once they checked DocuSign', async () => {
    const approved: NonNullable<EnvelopeApproval['request']> = {
      ...request,
      status: 'approved',
      decidedBy: { email: 'leitung@demo.local', name: 'Lars Leitung' },
      decidedAt: '2026-11-26T10:00:00Z',
    };
    const stuck = withApproval({
      required: false,
      reasons: [],
      reasonTexts: [],
      request: {
        ...approved,
        send: { state: 'failed', at: null, error: 'DocuSign antwortete nicht.', uncertain: true },
        maySendAgain: true,
      },
    });
    const sentAgain = withApproval({
      required: false,
      reasons: [],
      reasonTexts: [],
      request: { ...approved, send: { state: 'done', at: '2026-11-26T11:00:00Z', error: null } },
    });
    const AGAIN = 'POST /backend/approvals/req-1/send-again';
    const api = stubApi({
      [ENVELOPE]: [jsonResponse(200, stuck), jsonResponse(200, { ...sentAgain, status: 'sent' })],
      [AGAIN]: jsonResponse(200, { ...approved, send: sentAgain.approval?.request?.send }),
    });
    renderDraft();
    const again = await screen.findByRole('button', { name: 'Erneut an DocuSign senden' });
    expect(screen.getByText(/DocuSign antwortete nicht\./)).toBeInTheDocument();
    expect(again).toBeDisabled();
    await userEvent.click(
      screen.getByRole('checkbox', {
        name: /Ich habe in DocuSign geprüft: Der Umschlag ist dort nicht angekommen\./,
      }),
    );
    await userEvent.click(again);
    await waitFor(() => expect(api.callsTo(AGAIN)).toHaveLength(1));
    expect(api.callsTo(AGAIN)[0]?.body).toEqual({ notAtDocusign: true });
    // The sender view shows the envelope as the server now has it.
    await waitFor(() => expect(api.callsTo(ENVELOPE)).toHaveLength(2));
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Erneut an DocuSign senden' })).not.toBeInTheDocument(),
    );
  });

  it('sends as before where no rule applies', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(
        200,
        withApproval({ required: false, reasons: [], reasonTexts: [], request: null }),
      ),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await userEvent.click(await screen.findByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(ASK)).toHaveLength(0);
    expect(screen.queryByText(/Freigabe/)).not.toBeInTheDocument();
  });

  it('shows the server’s refusal of a send that needs an approval, and then what is needed', async () => {
    stubApi({
      [ENVELOPE]: [jsonResponse(200, draftEnvelope), jsonResponse(200, needed)],
      [SEND]: jsonResponse(409, {
        error: 'approval_required',
        message: 'Dieser Umschlag braucht eine Freigabe: Marge remote 12,4 % liegt unter 15 % (WM).',
        ...reasons,
      }),
    });
    renderDraft();
    await userEvent.click(await screen.findByRole('button', { name: 'Senden' }));
    expect(
      await screen.findByText(
        'Dieser Umschlag braucht eine Freigabe: Marge remote 12,4 % liegt unter 15 % (WM).',
      ),
    ).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Zur Freigabe senden' })).toBeInTheDocument();
  });
});
