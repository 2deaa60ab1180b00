import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvelopeView } from '@vertragsgenerator/domain';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '@/test/downloads';
import { ccRecipient, customerSigner, draftEnvelope } from '@/test/envelopes';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { SenderViewPage } from './sender-view-page';

// jsdom renders neither superdoc nor PDFs; the viewer has its own check in the browser.
vi.mock('@/components/document-viewer', () => ({
  DocumentViewer: ({ pdf }: { pdf: boolean }) => `Dokumentansicht (${pdf ? 'PDF' : 'DOCX'})`,
}));

const ENVELOPE = 'GET /backend/signature/envelopes/env-1';
const SEND = 'POST /backend/signature/envelopes/env-1/send';
const VOID = 'POST /backend/signature/envelopes/env-1/void';

const sentEnvelope: EnvelopeView = {
  ...draftEnvelope,
  status: 'sent',
  recipients: [
    {
      ...customerSigner,
      status: 'signed',
      signedAt: '2026-11-21T08:05:00Z',
    },
    {
      id: 'r-3',
      role: 'Kunde2',
      name: 'Kim Kunde',
      email: 'kim@kunde.de',
      routingOrder: 2,
      status: 'declined',
      signedAt: null,
      declineReason: 'Der Stundensatz stimmt nicht.',
      linkExpiresAt: '2026-12-04T09:30:00Z',
    },
    { ...ccRecipient, routingOrder: 2 },
  ],
  events: [
    ...draftEnvelope.events,
    {
      type: 'sent',
      at: '2026-11-20T09:30:00Z',
      actor: 'legal@demo.local',
      ip: '10.0.0.7',
      userAgent: null,
      detail: null,
    },
    {
      type: 'signed',
      at: '2026-11-21T08:05:00Z',
      actor: 'karl@kunde.de',
      ip: '203.0.113.9',
      userAgent: 'Firefox',
      detail: null,
    },
  ],
};

let downloads: string[];

beforeEach(() => {
  downloads = captureDownloads();
});

afterEach(() => {
  vi.useRealTimers();
});

function renderEnvelope() {
  return renderRoutes([{ path: '/signatur/:envelopeId', element: <SenderViewPage /> }], '/signatur/env-1');
}

const recipient = (index: number) => within(screen.getByRole('group', { name: `Empfänger ${index}` }));
const sendButton = () => screen.getByRole('button', { name: 'Senden' });

describe('SenderViewPage: a draft', () => {
  it('shows the document and the proposed recipients, subject and message to edit', async () => {
    stubApi({ [ENVELOPE]: jsonResponse(200, draftEnvelope) });
    renderEnvelope();

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(
      'Rahmenvertrag zur Unterschrift',
    );
    expect(screen.getByText(/PL-12345/)).toHaveTextContent(
      'Dokument: Rahmenvertrag PL-12345.docx · Match: PL-12345',
    );
    expect(statusBadge()).toHaveTextContent('Entwurf');
    expect(screen.getByText('Dokumentansicht (DOCX)')).toBeInTheDocument();

    expect(recipient(1).getByRole('combobox', { name: 'Rolle' })).toHaveValue('Kunde');
    expect(recipient(1).getByRole('textbox', { name: 'Name' })).toHaveValue('Karl Kunde');
    expect(recipient(1).getByRole('textbox', { name: 'E-Mail' })).toHaveValue('karl@kunde.de');
    expect(recipient(1).getByRole('textbox', { name: 'Reihenfolge' })).toHaveValue('1');
    expect(recipient(2).getByRole('combobox', { name: 'Rolle' })).toHaveValue('Kopie (CC)');
    expect(screen.getByRole('textbox', { name: 'Betreff' })).toHaveValue(draftEnvelope.subject);
    expect(screen.getByRole('textbox', { name: 'Nachricht' })).toHaveValue(draftEnvelope.message);
  });

  it('marks invalid fields with the shared messages, sends nothing, and clears the marks once fixed', async () => {
    const api = stubApi({ [ENVELOPE]: jsonResponse(200, draftEnvelope) });
    renderEnvelope();
    await findRole(1);
    const name = recipient(1).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    const email = recipient(1).getByRole('textbox', { name: 'E-Mail' });
    await userEvent.clear(email);
    await userEvent.type(email, 'karl(at)kunde.de');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Betreff' }));
    await userEvent.click(sendButton());

    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription('Bitte gib einen Namen ein.');
    expect(email).toHaveAccessibleDescription('Keine gültige E-Mail-Adresse.');
    expect(screen.getByRole('textbox', { name: 'Betreff' })).toHaveAccessibleDescription(
      'Bitte gib einen Betreff ein.',
    );
    expect(screen.getByRole('alert')).toHaveTextContent('Bitte korrigiere die rot markierten Angaben.');
    expect(api.callsTo(SEND)).toEqual([]);

    await userEvent.type(name, 'Karl Kunde');
    expect(name).not.toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('needs a routing order from 1 to 10 and at least one signer', async () => {
    const api = stubApi({ [ENVELOPE]: jsonResponse(200, draftEnvelope) });
    renderEnvelope();
    await userEvent.click(await findRole(1));
    await userEvent.click(screen.getByRole('option', { name: 'Kopie (CC)' }));
    const order = recipient(2).getByRole('textbox', { name: 'Reihenfolge' });
    await userEvent.clear(order);
    await userEvent.click(sendButton());
    expect(order).toHaveAccessibleDescription('Bitte gib eine Zahl von 1 bis 10 ein.');

    // The shared schema checks the recipients as a whole once each of them is valid.
    await userEvent.type(order, '1');
    expect(await screen.findByText('Mindestens eine Person muss unterschreiben.')).toHaveAttribute(
      'role',
      'alert',
    );
    expect(order).not.toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(SEND)).toEqual([]);
  });

  it('adds and removes rows and sends the edited envelope once, even on a double click', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftEnvelope),
      [SEND]: jsonResponse(200, sentEnvelope),
    });
    renderEnvelope();
    await findRole(1);

    await userEvent.click(screen.getByRole('button', { name: 'Unterzeichner hinzufügen' }));
    expect(recipient(3).getByRole('combobox', { name: 'Rolle' })).toHaveValue('Projektpartner');
    expect(recipient(3).getByRole('textbox', { name: 'Reihenfolge' })).toHaveValue('2');
    await userEvent.type(recipient(3).getByRole('textbox', { name: 'Name' }), 'Paula Partner');
    await userEvent.type(recipient(3).getByRole('textbox', { name: 'E-Mail' }), 'paula@partner.de');
    await userEvent.click(screen.getByRole('button', { name: 'CC hinzufügen' }));
    expect(recipient(4).getByRole('textbox', { name: 'Reihenfolge' })).toHaveValue('2');
    await userEvent.click(screen.getByRole('button', { name: 'Empfänger 4 entfernen' }));
    await userEvent.click(screen.getByRole('button', { name: 'Empfänger 2 entfernen' }));
    expect(screen.queryByRole('group', { name: 'Empfänger 3' })).not.toBeInTheDocument();
    const subject = screen.getByRole('textbox', { name: 'Betreff' });
    await userEvent.clear(subject);
    await userEvent.type(subject, '  Bitte unterschreiben  ');
    await userEvent.clear(screen.getByRole('textbox', { name: 'Nachricht' }));

    await userEvent.dblClick(sendButton());
    await waitFor(() => expect(statusBadge()).toHaveTextContent('Versendet'));
    expect(api.callsTo(SEND)).toEqual([
      {
        url: '/backend/signature/envelopes/env-1/send',
        body: {
          subject: 'Bitte unterschreiben',
          message: '',
          recipients: [
            { role: 'Kunde', name: 'Karl Kunde', email: 'karl@kunde.de', routingOrder: 1 },
            { role: 'Projektpartner', name: 'Paula Partner', email: 'paula@partner.de', routingOrder: 2 },
          ],
        },
      },
    ]);
    expect(screen.queryByRole('button', { name: 'Senden' })).not.toBeInTheDocument();
  });

  it("shows the server's field messages at the fields and its message as an alert", async () => {
    stubApi({
      [ENVELOPE]: jsonResponse(200, draftEnvelope),
      [SEND]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Bitte prüfe die markierten Angaben.',
        fields: { 'recipients.1.email': ['An diese Adresse können wir nicht senden.'] },
      }),
    });
    renderEnvelope();
    await findRole(1);
    await userEvent.click(sendButton());

    expect(await screen.findByRole('alert')).toHaveTextContent('Bitte prüfe die markierten Angaben.');
    const email = recipient(2).getByRole('textbox', { name: 'E-Mail' });
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(email).toHaveAccessibleDescription('An diese Adresse können wir nicht senden.');
    expect(recipient(1).getByRole('textbox', { name: 'E-Mail' })).not.toHaveAttribute('aria-invalid', 'true');
  });

  it('shows what the envelope is now when it was closed meanwhile (409)', async () => {
    const message = 'Der Umschlag wurde bereits versendet.';
    const api = stubApi({
      [ENVELOPE]: [jsonResponse(200, draftEnvelope), jsonResponse(200, sentEnvelope)],
      [SEND]: jsonResponse(409, { error: 'envelope_closed', message }),
    });
    renderEnvelope();
    await findRole(1);
    await userEvent.click(sendButton());

    await waitFor(() => expect(statusBadge()).toHaveTextContent('Versendet'));
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('button', { name: 'Senden' })).not.toBeInTheDocument();
    expect(api.callsTo(ENVELOPE)).toHaveLength(2);
  });

  it('Verwerfen asks for confirmation and takes an optional reason', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, draftEnvelope),
      [VOID]: jsonResponse(200, { ...draftEnvelope, status: 'voided' }),
    });
    renderEnvelope();
    await findRole(1);

    await userEvent.click(screen.getByRole('button', { name: 'Verwerfen' }));
    let dialog = await screen.findByRole('dialog', { name: 'Umschlag verwerfen?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(VOID)).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Verwerfen' }));
    dialog = await screen.findByRole('dialog', { name: 'Umschlag verwerfen?' });
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Begründung (optional)' }),
      'Falscher Kunde',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen' }));

    await waitFor(() => expect(statusBadge()).toHaveTextContent('Verworfen'));
    expect(api.callsTo(VOID)).toEqual([
      { url: '/backend/signature/envelopes/env-1/void', body: { reason: 'Falscher Kunde' } },
    ]);
    expect(screen.queryByRole('button', { name: 'Senden' })).not.toBeInTheDocument();
  });

  it('offers the link to the negotiation of the draft’s document', async () => {
    stubApi({ [ENVELOPE]: jsonResponse(200, draftEnvelope) });
    renderEnvelope();
    await findRole(1);
    expect(screen.getByRole('link', { name: 'Zur Prüfung an die Gegenseite' })).toHaveAttribute(
      'href',
      '/dokumente/doc-1#verhandlung',
    );
  });
});

describe('SenderViewPage: after sending', () => {
  it('shows each recipient with order, role, status, signed time and decline reason, and the history', async () => {
    stubApi({ [ENVELOPE]: jsonResponse(200, { ...sentEnvelope, pdfAvailable: true }) });
    renderEnvelope();

    const recipients = await screen.findByRole('table', { name: 'Empfänger' });
    expect(rowsOf(recipients)).toEqual([
      ['1', 'Kunde', 'Karl Kunde', 'karl@kunde.de', 'Unterschrieben', '21.11.2026 09:05', '', ''],
      [
        '2',
        'Kunde (2. Unterschrift)',
        'Kim Kunde',
        'kim@kunde.de',
        'Abgelehnt',
        '',
        'Der Stundensatz stimmt nicht.',
        '',
      ],
      ['2', 'Kopie (CC)', 'Clara Kopie', 'clara@demo.local', 'Erhält Kopie', '', '', ''],
    ]);
    expect(rowsOf(screen.getByRole('table', { name: 'Verlauf' }))).toEqual([
      ['20.11.2026 10:00', 'Erstellt', 'legal@demo.local', '10.0.0.7'],
      ['20.11.2026 10:30', 'Versendet', 'legal@demo.local', '10.0.0.7'],
      ['21.11.2026 09:05', 'Unterschrieben', 'karl@kunde.de', '203.0.113.9'],
    ]);
    expect(screen.getByText('Dokumentansicht (PDF)')).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zertifikat herunterladen' })).not.toBeInTheDocument();
    // A sent envelope can still be withdrawn.
    expect(screen.getByRole('button', { name: 'Verwerfen' })).toBeInTheDocument();
  });

  it('Link erneuern mails a waiting signer a new link and shows its new expiry', async () => {
    const RENEW = 'POST /backend/signature/envelopes/env-1/recipients/r-1/renew-link';
    const waiting = (linkExpiresAt: string): EnvelopeView => ({
      ...sentEnvelope,
      recipients: [{ ...customerSigner, status: 'opened', linkExpiresAt }, ccRecipient],
    });
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, waiting('2026-11-01T09:00:00Z')),
      [RENEW]: jsonResponse(200, waiting('2099-12-31T09:00:00Z')),
    });
    renderEnvelope();
    const recipients = await screen.findByRole('table', { name: 'Empfänger' });
    expect(within(recipients).getByText('abgelaufen am 01.11.2026 10:00')).toBeInTheDocument();
    // Only the waiting signer has a link to renew.
    expect(within(recipients).getAllByRole('button', { name: /Link erneuern/ })).toHaveLength(1);

    await userEvent.click(within(recipients).getByRole('button', { name: 'Link erneuern für Karl Kunde' }));
    await waitFor(() =>
      expect(within(recipients).getByText('gültig bis 31.12.2099 10:00')).toBeInTheDocument(),
    );
    expect(api.callsTo(RENEW)).toHaveLength(1);
    expect(await screen.findByText(/Karl Kunde erhält einen neuen Link per E-Mail/)).toBeInTheDocument();
    // An expired link cannot be reminded of; the new one can.
    expect(within(recipients).getByRole('button', { name: 'Karl Kunde erinnern' })).toBeInTheDocument();
  });

  it('Erinnern mails a waiting signer whose link works a reminder and shows it among the events', async () => {
    const REMIND = 'POST /backend/signature/envelopes/env-1/recipients/r-1/remind';
    const waiting: EnvelopeView = {
      ...sentEnvelope,
      recipients: [{ ...customerSigner, status: 'sent', linkExpiresAt: '2099-12-31T09:00:00Z' }, ccRecipient],
    };
    const reminded: EnvelopeView = {
      ...waiting,
      events: [
        ...waiting.events,
        {
          type: 'reminded',
          at: '2026-11-24T08:00:00Z',
          actor: 'legal@demo.local',
          ip: '10.0.0.7',
          userAgent: null,
          detail: 'Erinnerung an Karl Kunde <karl@kunde.de>',
        },
      ],
    };
    const api = stubApi({ [ENVELOPE]: jsonResponse(200, waiting), [REMIND]: jsonResponse(200, reminded) });
    renderEnvelope();
    const recipients = await screen.findByRole('table', { name: 'Empfänger' });
    await userEvent.click(within(recipients).getByRole('button', { name: 'Karl Kunde erinnern' }));
    expect(await screen.findByText(/Karl Kunde erhält eine Erinnerung mit dem Link/)).toBeInTheDocument();
    expect(api.callsTo(REMIND)).toHaveLength(1);
    const events = screen.getByRole('table', { name: 'Verlauf' });
    expect(await within(events).findByText('Erinnert')).toBeInTheDocument();
    expect(within(events).getByText('Erinnerung an Karl Kunde <karl@kunde.de>')).toBeInTheDocument();
  });

  it('Erinnern is not offered for a signer whose link expired', async () => {
    stubApi({
      [ENVELOPE]: jsonResponse(200, {
        ...sentEnvelope,
        recipients: [{ ...customerSigner, status: 'opened', linkExpiresAt: '2026-11-01T09:00:00Z' }],
      }),
    });
    renderEnvelope();
    await screen.findByRole('button', { name: 'Link erneuern für Karl Kunde' });
    expect(screen.queryByRole('button', { name: 'Karl Kunde erinnern' })).not.toBeInTheDocument();
  });

  it("Link erneuern says why the server refused, in the server's words", async () => {
    const RENEW = 'POST /backend/signature/envelopes/env-1/recipients/r-1/renew-link';
    const message = 'Dieser Umschlag ist nicht mehr offen: es gibt keinen neuen Link.';
    stubApi({
      [ENVELOPE]: jsonResponse(200, {
        ...sentEnvelope,
        recipients: [{ ...customerSigner, status: 'sent', linkExpiresAt: '2099-01-01T09:00:00Z' }],
      }),
      [RENEW]: jsonResponse(409, { error: 'envelope_closed', message }),
    });
    renderEnvelope();
    await userEvent.click(await screen.findByRole('button', { name: 'Link erneuern für Karl Kunde' }));
    expect(await screen.findByText(message)).toBeInTheDocument();
  });

  it('asks for progress every 10 seconds while the envelope is sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const completed: EnvelopeView = { ...sentEnvelope, status: 'completed' };
    const api = stubApi({ [ENVELOPE]: [jsonResponse(200, sentEnvelope), jsonResponse(200, completed)] });
    renderEnvelope();
    await waitFor(() => expect(statusBadge()).toHaveTextContent('Versendet'));

    await act(() => vi.advanceTimersByTimeAsync(9_000));
    expect(api.callsTo(ENVELOPE)).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(1_500));
    await waitFor(() => expect(statusBadge()).toHaveTextContent('Abgeschlossen'));
    expect(api.callsTo(ENVELOPE)).toHaveLength(2);

    // A completed envelope no longer changes.
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(api.callsTo(ENVELOPE)).toHaveLength(2);
  });

  it('keeps showing the last known state when a refresh fails, and says why', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const message = 'Deine Sitzung ist abgelaufen. Bitte melde dich erneut an.';
    stubApi({
      [ENVELOPE]: [jsonResponse(200, sentEnvelope), jsonResponse(401, { error: 'unauthorized', message })],
    });
    renderEnvelope();
    await screen.findByRole('table', { name: 'Empfänger' });

    await act(() => vi.advanceTimersByTimeAsync(10_500));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(screen.getByRole('table', { name: 'Empfänger' })).toBeInTheDocument();
  });

  it('downloads the document and, once completed, the certificate', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, { ...sentEnvelope, status: 'completed' }),
      [`${ENVELOPE}/document`]: new Response('docx'),
      [`${ENVELOPE}/certificate`]: new Response('pdf'),
    });
    renderEnvelope();

    await userEvent.click(await screen.findByRole('button', { name: 'Zertifikat herunterladen' }));
    await userEvent.click(screen.getByRole('button', { name: 'Dokument herunterladen' }));
    await waitFor(() =>
      expect(downloads).toEqual([
        'Abschlusszertifikat Rahmenvertrag PL-12345.pdf',
        'Rahmenvertrag PL-12345.docx',
      ]),
    );
    expect(api.callsTo(`${ENVELOPE}/certificate`)).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Verwerfen' })).not.toBeInTheDocument();
  });

  it('says that a retention rule deleted the document, and still shows the recipients and the history', async () => {
    const api = stubApi({
      [ENVELOPE]: jsonResponse(200, { ...sentEnvelope, status: 'completed', fileName: null }),
    });
    renderEnvelope();

    expect(await screen.findByText(/nach Ablauf ihrer Aufbewahrungsfrist gelöscht/)).toBeInTheDocument();
    expect(screen.getByText(/Dokument:/).parentElement).toHaveTextContent(
      'Dokument: gelöscht · Match: PL-12345',
    );
    expect(screen.getByRole('table', { name: 'Empfänger' })).toBeInTheDocument();
    expect(screen.getByRole('table', { name: 'Verlauf' })).toBeInTheDocument();
    // Nothing is left to show or download.
    expect(screen.queryByText(/Dokumentansicht/)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Dokument herunterladen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Zertifikat herunterladen' })).not.toBeInTheDocument();
    expect(api.callsTo(`${ENVELOPE}/document`)).toHaveLength(0);
  });

  it('says so when the envelope cannot be loaded', async () => {
    const message = 'Diesen Umschlag gibt es nicht.';
    stubApi({ [ENVELOPE]: jsonResponse(404, { error: 'not_found', message }) });
    renderEnvelope();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

/** The envelope's status badge next to the heading. */
function statusBadge(): HTMLElement | null {
  return (
    screen.getByRole('heading', { level: 1 }).parentElement?.querySelector('.mantine-Badge-root') ?? null
  );
}

/** The role select of recipient `index`, once the draft is there. */
async function findRole(index: number): Promise<HTMLElement> {
  await screen.findByRole('group', { name: `Empfänger ${index}` });
  return recipient(index).getByRole('combobox', { name: 'Rolle' });
}

function rowsOf(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent ?? ''),
    );
}
