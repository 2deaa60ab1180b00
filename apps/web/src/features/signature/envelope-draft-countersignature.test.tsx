import { screen, waitFor, within } from '@testing-library/react';
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
const LABEL = 'Gegenzeichnung (Firma)';
const OPTIONS = [
  { id: 'henrik-albers', name: 'Henrik Albers', function: 'Geschäftsführer' },
  { id: 'lea-brandt', name: 'Lea Brandt', function: 'Leiterin Recht & Verträge' },
];

const draftWith = (countersignature: EnvelopeView['countersignature']): EnvelopeView => ({
  ...draftEnvelope,
  countersignature,
});

function renderDraft() {
  return renderRoutes([{ path: '/signatur/:envelopeId', element: <SenderViewPage /> }], '/signatur/env-1');
}

const select = () => screen.getByRole('combobox', { name: LABEL });

describe('SenderViewPage: the company’s countersignatory', () => {
  it('needs a countersignatory where the family does; the chosen one goes with the send', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith({ options: OPTIONS, withoutAllowed: false, position: 'last' })),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await screen.findByRole('combobox', { name: LABEL });
    expect(select()).toBeRequired();
    expect(select()).toHaveValue('');
    expect(select()).toHaveAccessibleDescription(
      'Unterschreibt für die Firma als Letzte oder Letzter, nach allen anderen Unterzeichnern.',
    );
    // The company's signatory is no role for a row: the rows offer the other roles only.
    await userEvent.click(screen.getAllByRole('combobox', { name: 'Rolle' })[0] as HTMLElement);
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).not.toContain(LABEL);
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    expect(await screen.findByText('Bitte wähle, wer für die Firma gegenzeichnet.')).toBeInTheDocument();
    expect(select()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(SEND)).toHaveLength(0);

    await userEvent.click(select());
    const listbox = await screen.findByRole('listbox');
    // Nobody may choose to go without here, and the sender sees who signs in which function.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Henrik Albers – Geschäftsführer', 'Lea Brandt – Leiterin Recht & Verträge']);
    await userEvent.click(
      within(listbox).getByRole('option', { name: 'Lea Brandt – Leiterin Recht & Verträge' }),
    );
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(SEND)[0]?.body).toMatchObject({ countersignatory: 'lea-brandt' });
  });

  it('says that the countersignatory signs first where the template puts the company first', async () => {
    stubApi({
      [ENVELOPE]: jsonResponse(
        200,
        draftWith({ options: OPTIONS, withoutAllowed: false, position: 'first' }),
      ),
    });
    renderDraft();
    expect(await screen.findByRole('combobox', { name: LABEL })).toHaveAccessibleDescription(
      'Unterschreibt für die Firma als Erste oder Erster; danach erhalten die anderen den Vertrag.',
    );
  });

  it('offers sending without where the family allows it, chosen at first, and sends null', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith({ options: OPTIONS, withoutAllowed: true, position: 'last' })),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await screen.findByRole('combobox', { name: LABEL });
    expect(select()).not.toBeRequired();
    expect(select()).toHaveValue('Ohne Gegenzeichnung (das Siegel steht für die Firma)');
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(SEND)[0]?.body).toMatchObject({ countersignatory: null });
  });

  it('shows the server’s refusal at the choice', async () => {
    stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith({ options: OPTIONS, withoutAllowed: true, position: 'last' })),
      [SEND]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Ein Dokument der Art „Vertrag“ darf nicht ohne Gegenzeichnung versendet werden.',
        fields: { countersignatory: ['Bitte wähle, wer für die Firma gegenzeichnet.'] },
      }),
    });
    renderDraft();
    await screen.findByRole('combobox', { name: LABEL });
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    expect(await screen.findByText('Bitte wähle, wer für die Firma gegenzeichnet.')).toBeInTheDocument();
    expect(select()).toHaveAttribute('aria-invalid', 'true');
  });

  it('has no choice with DocuSign, and the send names none', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftWith(undefined)),
      [SEND]: jsonResponse(200, { ...draftEnvelope, status: 'sent' }),
    });
    renderDraft();
    await userEvent.click(await screen.findByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(SEND)).toHaveLength(1));
    expect(api.callsTo(SEND)[0]?.body).not.toHaveProperty('countersignatory');
    expect(screen.queryByRole('combobox', { name: LABEL })).not.toBeInTheDocument();
  });
});
