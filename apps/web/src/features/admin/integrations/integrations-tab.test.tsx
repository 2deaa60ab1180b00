import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type {
  CrmWriteback,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointCreated,
} from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from '../administration-page';

const endpoint = (changes: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
  url: 'https://crm.example.com/hooks',
  description: 'CRM Produktion',
  events: ['envelope.completed'],
  active: true,
  failingSince: null,
  createdBy: 'ops@demo.local',
  createdAt: '2026-11-25T08:00:00.000Z',
  pending: 0,
  failed: 0,
  ...changes,
});

const created: WebhookEndpointCreated = {
  ...endpoint({
    id: '11111111-2222-4333-8444-555555555555',
    url: 'https://erp.example.com/in',
    description: '',
  }),
  events: ['document.generated', 'envelope.completed'],
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
};

const delivery: WebhookDelivery = {
  id: '41',
  messageId: 'msg_17',
  type: 'envelope.completed',
  status: 'failed',
  createdAt: '2026-11-22T08:00:00.000Z',
  deliveredAt: null,
  nextAttemptAt: null,
  attempts: [
    { at: '2026-11-22T08:00:01.000Z', statusCode: 500, error: 'HTTP 500: kaputt', durationMs: 40 },
    { at: '2026-11-25T08:00:02.000Z', statusCode: null, error: 'connect ECONNREFUSED', durationMs: 3 },
  ],
};

const noCrm = () => jsonResponse(200, { configured: false, givenUp: [] });

const writeback = (changes: Partial<CrmWriteback> = {}): CrmWriteback => ({
  id: '77',
  type: 'envelope.completed',
  status: 'Unterschrieben',
  matchId: 'PL-4711',
  envelopeId: '0d6a8a52-3b8e-4f55-9d1c-2c0a6f1e7b10',
  createdAt: '2026-11-24T08:00:00.000Z',
  lastAttemptAt: '2026-11-24T08:00:01.000Z',
  attempts: 1,
  reason: 'Das CRM lehnt die Meldung ab: zu groß (PUT https://crm.example/deals antwortete 413).',
  superseded: false,
  ...changes,
});

async function openTab() {
  renderWithProviders(<AdministrationPage />);
  await userEvent.click(screen.getByRole('tab', { name: 'Integrationen' }));
}

describe('AdministrationPage: Integrationen', () => {
  it('adds an endpoint with the keyboard and shows its secret once, focused on the copy button', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': noCrm,
      'GET /backend/admin/webhooks': [
        jsonResponse(200, [endpoint()]),
        jsonResponse(200, [endpoint(), created]),
      ],
      'POST /backend/admin/webhooks': jsonResponse(201, created),
    });
    await openTab();
    expect(await screen.findByRole('table', { name: 'Webhook-Empfänger' })).toHaveTextContent(
      'CRM Produktion',
    );

    await userEvent.click(screen.getByRole('textbox', { name: /Adresse des Empfängers/ }));
    // Pasted, as an address usually is: typed key by key, the form renders once per letter.
    await userEvent.paste('https://erp.example.com/in');
    // Tab through the description to the events; space ticks a box.
    await userEvent.tab();
    await userEvent.tab();
    expect(screen.getByRole('checkbox', { name: /Dokument erzeugt/ })).toHaveFocus();
    await userEvent.keyboard(' ');
    await userEvent.click(screen.getByRole('checkbox', { name: /Umschlag abgeschlossen/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Hinzufügen' }));

    await waitFor(() => expect(api.callsTo('POST /backend/admin/webhooks')).toHaveLength(1));
    expect(api.callsTo('POST /backend/admin/webhooks')[0]?.body).toEqual({
      url: 'https://erp.example.com/in',
      description: '',
      events: ['document.generated', 'envelope.completed'],
    });
    const shown = await screen.findByRole('region', {
      name: 'Signaturgeheimnis für https://erp.example.com/in',
    });
    expect(within(shown).getByText(created.secret)).toBeVisible();
    expect(shown).toHaveTextContent('nur dieses eine Mal angezeigt');
    expect(shown).toHaveTextContent(created.id);
    await waitFor(() =>
      expect(within(shown).getByRole('button', { name: 'Geheimnis kopieren' })).toHaveFocus(),
    );

    await userEvent.click(within(shown).getByRole('button', { name: 'Fertig, Geheimnis ist gespeichert' }));
    expect(screen.queryByText(created.secret)).not.toBeInTheDocument();
    expect(await screen.findByRole('region', { name: 'Empfänger hinzufügen' })).toBeVisible();
  });

  it('names the refused field in German', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': noCrm,
      'GET /backend/admin/webhooks': jsonResponse(200, []),
      'POST /backend/admin/webhooks': jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Eingabe ist ungültig.',
        fields: {
          url: [
            '127.0.0.1 ist eine interne Adresse (Loopback, privates Netz oder link-local); solche Empfänger sind nicht erlaubt.',
          ],
          events: ['Bitte wähle mindestens ein Ereignis.'],
        },
      }),
    });
    await openTab();
    expect(await screen.findByText('Noch keine Webhook-Empfänger.')).toBeVisible();
    await userEvent.click(screen.getByRole('textbox', { name: /Adresse des Empfängers/ }));
    await userEvent.paste('http://127.0.0.1/x');
    await userEvent.click(screen.getByRole('button', { name: 'Hinzufügen' }));
    const url = screen.getByRole('textbox', { name: /Adresse des Empfängers/ });
    await waitFor(() => expect(url).toHaveAccessibleDescription(/interne Adresse/));
    expect(screen.getByText('Bitte wähle mindestens ein Ereignis.')).toBeVisible();
  });

  it('pauses an endpoint, shows its deliveries with every attempt, and sends one again', async () => {
    const failing = endpoint({ failingSince: '2026-11-25T08:00:02.000Z', pending: 1, failed: 1 });
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': noCrm,
      'GET /backend/admin/webhooks/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f/deliveries': jsonResponse(200, [
        delivery,
      ]),
      'GET /backend/admin/webhooks': [
        jsonResponse(200, [failing]),
        jsonResponse(200, [{ ...failing, active: false }]),
      ],
      'PUT /backend/admin/webhooks/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f/active': jsonResponse(200, {
        ...failing,
        active: false,
      }),
      'POST /backend/admin/webhooks/deliveries/41/resend': new Response(null, { status: 204 }),
    });
    await openTab();
    const table = await screen.findByRole('table', { name: 'Webhook-Empfänger' });
    expect(table).toHaveTextContent('Fehlerhaft seit');
    expect(table).toHaveTextContent('1 ausstehend, 1 aufgegeben');
    // The id a receiver sends as `webhook-endpoint` to fetch a sealed PDF, under its own heading.
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((header) => header.textContent);
    const row = within(table).getByRole('row', { name: /crm\.example\.com/ });
    const cells = within(row)
      .getAllByRole('cell')
      .map((cell) => cell.textContent);
    expect(cells[headers.indexOf('Empfänger-ID (Header webhook-endpoint)')]).toBe(
      '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
    );

    await userEvent.click(screen.getByRole('button', { name: 'https://crm.example.com/hooks pausieren' }));
    await waitFor(() =>
      expect(
        api.callsTo('PUT /backend/admin/webhooks/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f/active')[0]?.body,
      ).toEqual({
        active: false,
      }),
    );

    const show = screen.getByRole('button', { name: 'Zustellungen an https://crm.example.com/hooks' });
    show.focus();
    await userEvent.keyboard('{Enter}');
    expect(show).toHaveAttribute('aria-expanded', 'true');
    const deliveries = await screen.findByRole('table', {
      name: 'Zustellungen an https://crm.example.com/hooks',
    });
    expect(deliveries).toHaveTextContent('msg_17');
    expect(deliveries).toHaveTextContent('Aufgegeben');
    expect(deliveries).toHaveTextContent('HTTP 500 – HTTP 500: kaputt');
    expect(deliveries).toHaveTextContent('keine Antwort – connect ECONNREFUSED');

    await userEvent.click(
      within(deliveries).getByRole('button', { name: 'envelope.completed (msg_17) erneut senden' }),
    );
    await waitFor(() =>
      expect(api.callsTo('POST /backend/admin/webhooks/deliveries/41/resend')).toHaveLength(1),
    );
    expect(await screen.findByText('Die Zustellung wird erneut versucht.')).toBeVisible();
  });

  it('deletes an endpoint only after asking', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': noCrm,
      'GET /backend/admin/webhooks': [jsonResponse(200, [endpoint()]), jsonResponse(200, [])],
      'DELETE /backend/admin/webhooks/6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f': new Response(null, {
        status: 204,
      }),
    });
    await openTab();
    await userEvent.click(
      await screen.findByRole('button', { name: 'https://crm.example.com/hooks löschen' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'https://crm.example.com/hooks löschen?' });
    expect(api.callsTo('DELETE')).toHaveLength(0);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Endgültig löschen' }));
    await waitFor(() => expect(api.callsTo('DELETE /backend/admin/webhooks/')).toHaveLength(1));
    expect(await screen.findByText('Noch keine Webhook-Empfänger.')).toBeVisible();
  });

  it('lists the CRM write-backs given up and sends one again with the keyboard; an overtaken one only says so', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/webhooks': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': [
        jsonResponse(200, {
          configured: true,
          givenUp: [
            writeback(),
            writeback({ id: '75', type: 'envelope.sent', status: 'Versendet', superseded: true }),
          ],
        }),
        jsonResponse(200, {
          configured: true,
          givenUp: [writeback({ id: '75', type: 'envelope.sent', status: 'Versendet', superseded: true })],
        }),
      ],
      'POST /backend/admin/crm-writebacks/77/resend': new Response(null, { status: 204 }),
    });
    await openTab();
    const table = await screen.findByRole('table', { name: 'CRM-Rückmeldungen, die aufgegeben wurden' });
    expect(table).toHaveTextContent('zu groß');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(table).toHaveTextContent('Überholt: Ein späterer Stand ist schon im CRM abgelegt.');
    expect(
      within(table).queryByRole('button', { name: '„Versendet“ für Match PL-4711 erneut senden' }),
    ).not.toBeInTheDocument();

    const resend = within(table).getByRole('button', {
      name: '„Unterschrieben“ für Match PL-4711 erneut senden',
    });
    resend.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.callsTo('POST /backend/admin/crm-writebacks/77/resend')).toHaveLength(1));
    expect(await screen.findByText('Die CRM-Rückmeldung wird erneut gesendet.')).toBeVisible();
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
  });

  it('says so when no write-back to the CRM is configured', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/webhooks': jsonResponse(200, []),
      'GET /backend/admin/crm-writebacks': noCrm,
    });
    await openTab();
    expect(await screen.findByText('Es ist kein Rückschreiben ins CRM eingerichtet.')).toBeVisible();
  });
});
