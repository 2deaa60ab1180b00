import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RetentionOverview } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const overview: RetentionOverview = {
  rules: [
    {
      rule: 'mails',
      label: 'Mails (Ausgang und Mail-Ordner)',
      start: 'ab dem Versand',
      period: { value: 30, unit: 'days' },
      editable: true,
      changedBy: null,
      changedAt: null,
    },
    {
      rule: 'audit_log',
      label: 'Audit-Log',
      start: 'wird nie durch eine Regel gelöscht',
      period: null,
      editable: false,
      changedBy: null,
      changedAt: null,
    },
  ],
  holds: [
    {
      id: 'h-1',
      matchId: 'PL-7',
      reason: 'Rechtsstreit',
      placedBy: 'ops@demo.local',
      placedAt: '2026-11-20T08:00:00Z',
      liftedBy: null,
      liftedAt: null,
    },
  ],
  runs: [
    {
      id: '1',
      startedAt: '2026-11-26T03:00:00Z',
      finishedAt: '2026-11-26T03:00:05Z',
      deleted: { mails: 12 },
      error: null,
    },
  ],
};

async function openTab() {
  renderWithProviders(<AdministrationPage />);
  await userEvent.click(screen.getByRole('tab', { name: 'Aufbewahrung' }));
  return screen.findByRole('region', { name: 'Aufbewahrungsregeln' });
}

describe('AdministrationPage: Aufbewahrung', () => {
  it('shows the rules, the holds and the last runs', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/retention': jsonResponse(200, overview),
    });
    const rules = await openTab();
    expect(
      within(rules).getByRole('textbox', { name: 'Dauer für Mails (Ausgang und Mail-Ordner)' }),
    ).toHaveValue('30');
    expect(within(rules).getByText('nie')).toBeInTheDocument();
    const holds = screen.getByRole('region', { name: 'Aufbewahrungssperren' });
    expect(within(holds).getByText('Rechtsstreit')).toBeInTheDocument();
    expect(within(holds).getByRole('button', { name: 'Sperre für PL-7 aufheben' })).toBeInTheDocument();
    const runs = screen.getByRole('region', { name: 'Letzte Löschläufe' });
    expect(within(runs).getByText('Mails (Ausgang und Mail-Ordner): 12')).toBeInTheDocument();
  });

  it('changes a period by keyboard and shows the server’s German refusal', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/retention': jsonResponse(200, overview),
      'PUT /backend/admin/retention/mails': jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Eingabe ist ungültig.',
        fields: { 'period.value': ['Die Aufbewahrungsdauer muss mindestens 1 sein.'] },
      }),
    });
    const rules = await openTab();
    const value = within(rules).getByRole('textbox', { name: 'Dauer für Mails (Ausgang und Mail-Ordner)' });
    await userEvent.clear(value);
    await userEvent.type(value, '-3');
    await userEvent.tab();
    await userEvent.tab();
    expect(
      within(rules).getByRole('button', { name: 'Mails (Ausgang und Mail-Ordner) speichern' }),
    ).toHaveFocus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(api.callsTo('PUT /backend/admin/retention/mails')).toHaveLength(1));
    expect(api.callsTo('PUT /backend/admin/retention/mails')[0]?.body).toEqual({
      period: { value: -3, unit: 'days' },
    });
    expect(await within(rules).findByRole('alert')).toHaveTextContent('Die Eingabe ist ungültig.');
  });

  it('places a hold with its reason', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      'GET /backend/admin/retention': jsonResponse(200, overview),
      'POST /backend/admin/legal-holds': jsonResponse(404, {
        error: 'not_found',
        message: 'Das Match PL-999 gibt es nicht: eine Sperre braucht ein bestehendes Match.',
      }),
    });
    await openTab();
    await userEvent.type(screen.getByRole('textbox', { name: 'Match-ID' }), 'PL-999');
    await userEvent.type(screen.getByRole('textbox', { name: 'Grund' }), 'Prüfung');
    await userEvent.click(screen.getByRole('button', { name: 'Sperre setzen' }));
    expect(await screen.findByText(/Das Match PL-999 gibt es nicht/)).toBeInTheDocument();
    expect(api.callsTo('POST /backend/admin/legal-holds')[0]?.body).toEqual({
      matchId: 'PL-999',
      reason: 'Prüfung',
    });
  });
});
