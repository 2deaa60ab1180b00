import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { describe, expect, it, vi } from 'vitest';
import { draftEnvelope } from '@/test/envelopes';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { SenderViewPage } from './sender-view-page';

// jsdom renders neither superdoc nor PDFs; the viewer has its own check in the browser.
vi.mock('@/components/document-viewer', () => ({ DocumentViewer: () => 'Dokumentansicht' }));

const ENVELOPE = 'GET /backend/signature/envelopes/env-1';
const SEND = 'POST /backend/signature/envelopes/env-1/send';
const LABEL = 'Unterzeichner bestätigen sich mit einem Code per E-Mail';

const draftWith = (signerCode: EnvelopeView['signerCode']): EnvelopeView => ({
  ...draftEnvelope,
  signerCode,
});

function renderDraft() {
  return renderRoutes([{ path: '/signatur/:envelopeId', element: <SenderViewPage /> }], '/signatur/env-1');
}

const checkbox = () => screen.getByRole('checkbox', { name: LABEL });

describe('SenderViewPage: the signers’ code', () => {
  it('SIGNING_OTP=optional: on by default; the sender may switch it off, and the send says so', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith({ enabled: true, changeable: true })),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await screen.findByRole('checkbox', { name: LABEL });
    expect(checkbox()).toBeChecked();
    expect(checkbox()).toBeEnabled();
    expect(checkbox()).toHaveAccessibleDescription(
      'Bevor sich das Dokument öffnet, gibt jeder Unterzeichner einen 6-stelligen Code ein, den wir an seine Adresse senden.',
    );

    await userEvent.click(checkbox());
    expect(checkbox()).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(SEND)[0]?.body).toMatchObject({ signerCode: false });
  });

  it('SIGNING_OTP=required: shown on and fixed, and the send leaves it to the server', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith({ enabled: true, changeable: false })),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await screen.findByRole('checkbox', { name: LABEL });
    expect(checkbox()).toBeChecked();
    expect(checkbox()).toBeDisabled();
    expect(checkbox()).toHaveAccessibleDescription(/^Für alle Umschläge vorgeschrieben/);
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(SEND)[0]?.body).not.toHaveProperty('signerCode');
  });

  it('SIGNING_OTP=off: nothing to show', async () => {
    stubApi({ [ENVELOPE]: jsonResponse(200, draftWith({ enabled: false, changeable: false })) });
    renderDraft();
    await screen.findByRole('button', { name: 'Senden' });
    expect(screen.queryByRole('checkbox', { name: LABEL })).not.toBeInTheDocument();
  });
});
