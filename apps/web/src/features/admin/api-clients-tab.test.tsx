import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApiClient } from '@vertragsgenerator/domain';
import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const LIST = 'GET /backend/admin/api-clients';
const CREATE = 'POST /backend/admin/api-clients';
const TOKEN = 'vg_Q2hyaXN0aWFuc1Rva2VuRnVlckRhc0NSTS1CdXR0b24tMTIzNDU2';

const crm: ApiClient = {
  id: '2a0c6f0e-4c1b-4f7e-9d2a-5b8e1f3c7a90',
  name: 'CRM Angebotsknopf',
  permission: 3,
  tokenHint: 'vg_Q2hy…',
  createdBy: 'ops@demo.local',
  createdAt: '2026-11-20T08:00:00.000Z',
  expiresAt: '2027-11-21T00:00:00.000Z',
  lastUsedAt: '2026-11-25T09:30:00.000Z',
  revokedAt: null,
  revokedBy: null,
};
const script: ApiClient = {
  ...crm,
  id: '7d4b2e51-9a3c-4f08-b6e1-0c2d3e4f5a6b',
  name: 'Nachtskript',
  permission: 1,
  tokenHint: 'vg_AbCd…',
  lastUsedAt: null,
};

async function openTab() {
  renderWithProviders(<AdministrationPage />);
  await userEvent.click(screen.getByRole('tab', { name: 'API-Zugänge' }));
}

describe('AdministrationPage: API-Zugänge', () => {
  it('lists the clients with their level, token hint and last use', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      [LIST]: jsonResponse(200, [crm, script]),
    });
    await openTab();
    const table = await screen.findByRole('table', { name: 'API-Zugänge' });
    const crmRow = within(table).getByText('CRM Angebotsknopf').closest('tr') as HTMLElement;
    expect(within(crmRow).getByText('Leitung (3)')).toBeInTheDocument();
    expect(within(crmRow).getByText('vg_Q2hy…')).toBeInTheDocument();
    expect(within(crmRow).getByText(/^25\.11\.2026/)).toBeInTheDocument();
    expect(within(crmRow).getByText('20.11.2027')).toBeInTheDocument();
    expect(within(crmRow).getByText('aktiv')).toBeInTheDocument();
    const scriptRow = within(table).getByText('Nachtskript').closest('tr') as HTMLElement;
    expect(within(scriptRow).getByText('noch nie')).toBeInTheDocument();
  });

  it('creates a client with the keyboard and shows its token once, with a copy button', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      [LIST]: [jsonResponse(200, []), jsonResponse(200, [crm])],
      [CREATE]: jsonResponse(201, { client: crm, token: TOKEN }),
    });
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    await openTab();
    expect(await screen.findByText('Noch keine API-Zugänge.')).toBeInTheDocument();

    const name = screen.getByRole('textbox', { name: /^Name/ });
    await user.click(name);
    await user.keyboard('CRM Angebotsknopf');
    // Level by keyboard: the select opens with Enter and takes the option with the arrows.
    await user.tab();
    expect(screen.getByRole('combobox', { name: 'Stufe' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{Enter}');
    expect(screen.getByRole('combobox', { name: 'Stufe' })).toHaveValue('Leitung (3)');
    const expires = screen.getByLabelText(/^Gültig bis/);
    await user.clear(expires);
    await user.type(expires, '2027-11-20');
    await user.keyboard('{Enter}');

    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    expect(api.callsTo(CREATE)[0]?.body).toEqual({
      name: 'CRM Angebotsknopf',
      permission: 3,
      expiresOn: '2027-11-20',
    });
    expect(await screen.findByRole('heading', { name: 'Token für CRM Angebotsknopf' })).toBeInTheDocument();
    expect(screen.getByText(TOKEN)).toBeInTheDocument();
    const copy = screen.getByRole('button', { name: 'Token kopieren' });
    expect(copy).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(writeText).toHaveBeenCalledWith(TOKEN);
    expect(await screen.findByRole('button', { name: 'Kopiert' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Token gesichert, ausblenden' }));
    expect(screen.queryByText(TOKEN)).not.toBeInTheDocument();
    expect(await screen.findByRole('table', { name: 'API-Zugänge' })).toHaveTextContent('CRM Angebotsknopf');
  });

  it('names the field the server refused, in its words', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      [LIST]: jsonResponse(200, []),
      [CREATE]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Eingabe ist ungültig.',
        fields: { expiresOn: ['Das Ablaufdatum muss heute oder später sein.'] },
      }),
    });
    await openTab();
    await userEvent.type(await screen.findByRole('textbox', { name: /^Name/ }), 'Alt');
    await userEvent.click(screen.getByRole('button', { name: 'Anlegen' }));
    expect(await screen.findByText('Das Ablaufdatum muss heute oder später sein.')).toBeInTheDocument();
  });

  it('revokes only after the confirmation, whose focus starts on Abbrechen', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      [LIST]: [
        jsonResponse(200, [crm]),
        jsonResponse(200, [{ ...crm, revokedAt: '2026-11-26T10:00:00.000Z', revokedBy: 'ops@demo.local' }]),
      ],
      [`POST /backend/admin/api-clients/${crm.id}/revoke`]: jsonResponse(200, {
        ...crm,
        revokedAt: '2026-11-26T10:00:00.000Z',
        revokedBy: 'ops@demo.local',
      }),
    });
    const user = userEvent.setup();
    await openTab();
    await user.click(await screen.findByRole('button', { name: 'CRM Angebotsknopf widerrufen' }));
    const dialog = await screen.findByRole('dialog', { name: 'API-Zugang „CRM Angebotsknopf“ widerrufen?' });
    expect(within(dialog).getByRole('button', { name: 'Abbrechen' })).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo('POST /backend/admin/api-clients/')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'CRM Angebotsknopf widerrufen' }));
    const again = await screen.findByRole('dialog');
    await user.click(within(again).getByRole('button', { name: 'Widerrufen' }));
    await waitFor(() => expect(api.callsTo('POST /backend/admin/api-clients/')).toHaveLength(1));
    expect(await screen.findByText(/^widerrufen am 26\.11\.2026.* von ops@demo\.local$/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'CRM Angebotsknopf widerrufen' })).not.toBeInTheDocument();
  });
});
