import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContractReminderSetting } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, renderWithProviders, stubApi } from '@/test/utils';
import { AdministrationPage } from './administration-page';

const settings = (wmNotice: number): ContractReminderSetting[] => [
  {
    company: 'wm',
    label: 'WM',
    noticeDays: wmNotice,
    endDays: 14,
    changedBy: wmNotice === 60 ? null : 'ops@demo.local',
    changedAt: wmNotice === 60 ? null : '2026-11-25T08:00:00.000Z',
  },
  { company: 'we', label: 'WE', noticeDays: 60, endDays: 14, changedBy: null, changedAt: null },
  { company: 'wp', label: 'WP', noticeDays: 60, endDays: 14, changedBy: null, changedAt: null },
];

const SETTINGS = '/backend/contract-reminder-settings';

describe('AdministrationPage: Vertragserinnerungen', () => {
  it('sets the days before the notice deadline and the end per company, and shows who changed them', async () => {
    const api = stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      // After the change the tab reads them again, as the server now keeps them.
      [`GET ${SETTINGS}`]: [jsonResponse(200, settings(60)), jsonResponse(200, settings(30))],
      [`PUT ${SETTINGS}`]: jsonResponse(200, settings(30)),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Vertragserinnerungen' }));
    const wmNotice = await screen.findByRole('textbox', { name: 'WM: Tage vor der Kündigungsfrist' });
    expect(wmNotice).toHaveValue('60');
    expect(screen.getByRole('textbox', { name: 'WP: Tage vor dem Vertragsende' })).toHaveValue('14');
    expect(screen.getAllByText('Voreinstellung')).toHaveLength(3);

    await userEvent.clear(wmNotice);
    await userEvent.type(wmNotice, '30');
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    await waitFor(() => expect(api.callsTo(`PUT ${SETTINGS}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${SETTINGS}`)[0]?.body).toEqual({
      settings: [
        { company: 'wm', noticeDays: 30, endDays: 14 },
        { company: 'we', noticeDays: 60, endDays: 14 },
        { company: 'wp', noticeDays: 60, endDays: 14 },
      ],
    });
    expect(await screen.findByText(/^Zuletzt geändert von ops@demo\.local am /)).toBeVisible();
  });

  it('names the field the server refuses, in its words', async () => {
    stubApi({
      'GET /backend/admin/access-requests': jsonResponse(200, []),
      [`GET ${SETTINGS}`]: jsonResponse(200, settings(60)),
      [`PUT ${SETTINGS}`]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Eingabe ist ungültig.',
        fields: { 'settings.1.endDays': ['Höchstens 365 Tage vor dem Vertragsende.'] },
      }),
    });
    renderWithProviders(<AdministrationPage />);
    await userEvent.click(screen.getByRole('tab', { name: 'Vertragserinnerungen' }));
    const weEnd = await screen.findByRole('textbox', { name: 'WE: Tage vor dem Vertragsende' });
    await userEvent.clear(weEnd);
    await userEvent.type(weEnd, '400');
    await userEvent.click(screen.getByRole('button', { name: 'Speichern' }));
    expect(await screen.findByText('Höchstens 365 Tage vor dem Vertragsende.')).toBeVisible();
    expect(screen.getByText('Die Eingabe ist ungültig.')).toBeVisible();
  });
});
