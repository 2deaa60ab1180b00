import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const anna = {
  email: 'anna.albrecht@demo.local',
  name: 'Anna Albrecht',
  permission: 1,
  administrator: false,
  administratorByConfiguration: false,
  lastSignInAt: null,
  version: '3',
};

describe('AdministrationPage', () => {
  it('grants a requested level with the level chosen', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': [
        jsonResponse(200, [
          {
            id: '7',
            email: 'neu@demo.local',
            name: 'Nina Neu',
            message: 'Bitte Legal.',
            requestedAt: '2026-11-25T08:00:00.000Z',
          },
        ]),
        jsonResponse(200, []),
      ],
      'POST /backend/admin/access-requests/7/grant': jsonResponse(200, { ok: true }),
    });
    renderWithProviders(<AdministrationPage />);
    const row = (await screen.findByText('Nina Neu')).closest('tr') as HTMLElement;
    expect(within(row).getByRole('button', { name: 'Freigeben' })).toBeDisabled();
    await userEvent.click(within(row).getByRole('combobox', { name: 'Stufe für Nina Neu' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Legal (2)' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Freigeben' }));
    expect(await screen.findByText('Keine offenen Zugangsanfragen.')).toBeInTheDocument();
    expect(api.callsTo('POST /backend/admin/access-requests/7/grant')[0]?.body).toEqual({ permission: 2 });
  });

  it('sends the version it showed with a change, and reloads the list when someone else was faster', async () => {
    const api = stubApi({
      'GET /backend/admin/staff': [
        jsonResponse(200, [anna]),
        jsonResponse(200, [{ ...anna, permission: 3, version: '4' }]),
      ],
      'PUT /backend/admin/staff/anna.albrecht%40demo.local': jsonResponse(409, {
        error: 'conflict',
        message:
          'Anna Albrecht wurde inzwischen von jemand anderem geändert. Bitte lade die Liste neu und prüfe die Änderung.',
      }),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Mitarbeitende' }));
    await userEvent.click(await screen.findByRole('combobox', { name: 'Stufe von Anna Albrecht' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Legal (2)' }));

    expect(await screen.findByText(/inzwischen von jemand anderem geändert/)).toBeInTheDocument();
    expect(api.callsTo('PUT /backend/admin/staff/')[0]?.body).toEqual({ permission: 2, version: '3' });
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Stufe von Anna Albrecht' })).toHaveValue('Leitung (3)'),
    );
  });

  it('shows the fields the server refuses when a colleague is added', async () => {
    stubApi({
      'GET /backend/admin/staff': jsonResponse(200, []),
      'POST /backend/admin/staff': jsonResponse(409, {
        error: 'conflict',
        message: 'paula@demo.local ist schon eingetragen.',
        fields: { email: ['Diese E-Mail-Adresse ist schon eingetragen.'] },
      }),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Mitarbeitende' }));
    await userEvent.type(await screen.findByRole('textbox', { name: 'Name' }), 'Paula Pohl');
    await userEvent.type(screen.getByRole('textbox', { name: 'E-Mail' }), 'paula@demo.local');
    await userEvent.click(screen.getByRole('button', { name: 'Kolleg:in hinzufügen' }));
    const email = screen.getByRole('textbox', { name: 'E-Mail' });
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription('Diese E-Mail-Adresse ist schon eingetragen.'),
    );
    expect(email).toHaveAttribute('aria-invalid', 'true');
  });

  it('refuses a file over 20 MB before sending it', async () => {
    stubApi({});
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Matches importieren' }));
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    const huge = new File(['x'], 'riesig.csv', { type: 'text/csv' });
    Object.defineProperty(huge, 'size', { value: 21 * 1024 * 1024 });
    await userEvent.upload(input, huge);
    expect(await screen.findByText('Die Datei ist zu groß: höchstens 20 MB.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Datei prüfen' })).toBeDisabled();
  });
});
