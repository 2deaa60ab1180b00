import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ContractFigures, SessionUser } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { FiguresPage } from './figures-page';

const FIGURES = 'GET /backend/contract-figures?';

const leader: SessionUser = {
  email: 'leitung@demo.local',
  name: 'Lars Leitung',
  permission: 3,
  administrator: false,
  approver: true,
};
const consultant: SessionUser = {
  ...leader,
  email: 'berater@demo.local',
  name: 'Berta Berater',
  permission: 1,
};

const none = { median: null, p90: null };
const zeroKinds = {
  rahmenvertrag: 0,
  einzelauftrag: 0,
  verlaengerung: 0,
  zusatzvereinbarung: 0,
  kuendigung: 0,
};

const FULL: ContractFigures = {
  today: '2026-06-15',
  company: null,
  months: 6,
  endings: [
    { month: '2026-06', total: 3, byKind: { ...zeroKinds, einzelauftrag: 2, rahmenvertrag: 1 } },
    ...['2026-07', '2026-08', '2026-09', '2026-10', '2026-11'].map((month) => ({
      month,
      total: 0,
      byKind: zeroKinds,
    })),
  ],
  leadTimes: {
    all: [
      ...['2026-01', '2026-02', '2026-03', '2026-04'].map((month) => ({
        month,
        count: 0,
        toSent: none,
        toCompleted: none,
      })),
      { month: '2026-05', count: 5, toSent: { median: 1, p90: 2.6 }, toCompleted: { median: 3, p90: 7.6 } },
      { month: '2026-06', count: 0, toSent: none, toCompleted: none },
    ],
    byCompany: [
      {
        month: '2026-05',
        company: 'we',
        count: 2,
        toSent: { median: 1.5, p90: 1.9 },
        toCompleted: { median: 3.5, p90: 3.9 },
      },
    ],
    byKind: [
      {
        month: '2026-05',
        kind: 'verlaengerung',
        count: 1,
        toSent: { median: 3, p90: 3 },
        toCompleted: { median: 10, p90: 10 },
      },
    ],
  },
  approvals: [
    ...['2026-01', '2026-02', '2026-03', '2026-05', '2026-06'].map((month) => ({
      month,
      count: 0,
      hours: none,
    })),
    { month: '2026-04', count: 6, hours: { median: 6, p90: 36 } },
  ],
  waiting: [
    { routingOrder: 1, role: 'Kunde', count: 2 },
    { routingOrder: 2, role: 'Firma', count: 1 },
  ],
  declines: [
    { reason: 'Preis zu hoch', count: 4 },
    { reason: '', count: 1 },
    { reason: null, count: 2 },
  ],
};

const EMPTY: ContractFigures = {
  ...FULL,
  endings: FULL.endings.map((month) => ({ ...month, total: 0, byKind: zeroKinds })),
  leadTimes: {
    all: FULL.leadTimes.all.map((month) => ({ ...month, count: 0, toSent: none, toCompleted: none })),
    byCompany: [],
    byKind: [],
  },
  approvals: FULL.approvals.map((month) => ({ ...month, count: 0, hours: none })),
  waiting: [],
  declines: [],
};

function renderFigures(user: SessionUser = leader, path = '/auswertung') {
  return renderRoutes(
    [{ id: SESSION_ROUTE, loader: () => user, children: [{ path: '/auswertung', Component: FiguresPage }] }],
    path,
  );
}

const tableNamed = (name: string) => screen.findByRole('table', { name });
const rowsOf = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));

describe('FiguresPage', () => {
  it('shows every figure as a named chart with its numbers as a table beside it', async () => {
    const api = stubApi({ [FIGURES]: jsonResponse(200, FULL) });
    renderFigures();
    const endings = await tableNamed('Vertragsenden pro Monat nach Vertragsart');
    expect(rowsOf(endings)[0]).toEqual([
      'Monat',
      'Rahmenvertrag',
      'Einzelauftrag',
      'Verlängerung',
      'Zusatzvereinbarung',
      'Kündigung',
      'Gesamt',
    ]);
    expect(rowsOf(endings)[1]).toEqual(['Juni 2026', '1', '2', '0', '0', '0', '3']);
    expect(rowsOf(endings)).toHaveLength(7);
    expect(api.callsTo(FIGURES)[0]?.url).toBe('/backend/contract-figures?months=12');

    const leadTimes = await tableNamed('Durchlaufzeit in Tagen pro Monat des Abschlusses');
    expect(rowsOf(leadTimes).find((row) => row[0] === 'Mai 2026')).toEqual([
      'Mai 2026',
      '5',
      '1',
      '2,6',
      '3',
      '7,6',
    ]);
    expect(rowsOf(leadTimes).find((row) => row[0] === 'Juni 2026')).toEqual([
      'Juni 2026',
      '0',
      '–',
      '–',
      '–',
      '–',
    ]);
    expect(rowsOf(await tableNamed('Durchlaufzeit in Tagen nach Gesellschaft'))[1]).toEqual([
      'Mai 2026',
      'WE',
      '2',
      '1,5',
      '1,9',
      '3,5',
      '3,9',
    ]);
    expect(rowsOf(await tableNamed('Durchlaufzeit in Tagen nach Vertragsart'))[1]?.slice(0, 3)).toEqual([
      'Mai 2026',
      'Verlängerung',
      '1',
    ]);
    expect(
      rowsOf(await tableNamed('Dauer der Freigaben in Stunden pro Monat')).find(
        (row) => row[0] === 'April 2026',
      ),
    ).toEqual(['April 2026', '6', '6', '36']);
    expect(rowsOf(await tableNamed('Offene Umschläge nach wartendem Schritt')).slice(1)).toEqual([
      ['1. Schritt: Kunde (1. Unterschrift)', '2'],
      ['2. Schritt: Firma (Gegenzeichnung)', '1'],
    ]);
    expect(rowsOf(await tableNamed('Ablehnungen nach Grund')).slice(1)).toEqual([
      ['Preis zu hoch', '4'],
      ['(ohne Angabe)', '1'],
      ['Sonstige', '2'],
    ]);

    const charts = screen.getAllByRole('img');
    expect(charts.map((chart) => chart.getAttribute('aria-label'))).toEqual([
      'Balkendiagramm: Vertragsenden pro Monat nach Vertragsart. Die Zahlen stehen in der Tabelle daneben.',
      'Liniendiagramm: Tage bis Versand und bis Abschluss pro Monat, Median und 90. Perzentil. Die Zahlen stehen in der Tabelle daneben.',
      'Liniendiagramm: Stunden bis zur Freigabe-Entscheidung pro Monat, Median und 90. Perzentil. Die Zahlen stehen in der Tabelle daneben.',
      'Balkendiagramm: offene Umschläge nach wartendem Schritt. Die Zahlen stehen in der Tabelle daneben.',
      'Balkendiagramm: Ablehnungen nach Grund. Die Zahlen stehen in der Tabelle daneben.',
    ]);
    expect(screen.getByText('Stand: 15.06.2026')).toBeInTheDocument();
  });

  it('says for each figure in German that there is nothing yet', async () => {
    stubApi({ [FIGURES]: jsonResponse(200, EMPTY) });
    renderFigures();
    expect(await screen.findByText('In den nächsten 6 Monaten endet kein Vertrag.')).toBeInTheDocument();
    expect(
      screen.getByText('In den letzten 6 Monaten wurde kein Umschlag abgeschlossen.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText('In den letzten 6 Monaten wurde keine Freigabe entschieden.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Kein versendeter Umschlag wartet auf eine Unterschrift.')).toBeInTheDocument();
    expect(screen.getByText('In den letzten 6 Monaten wurde kein Umschlag abgelehnt.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
  });

  it('filters by company and period with the keyboard, keeping both in the address', async () => {
    const api = stubApi({ [FIGURES]: jsonResponse(200, FULL) });
    const { router } = renderFigures(leader, '/auswertung?company=we');
    const company = await screen.findByRole('radiogroup', { name: 'Gesellschaft' });
    const we = within(company).getByRole('radio', { name: 'WE' });
    expect(we).toBeChecked();
    await waitFor(() =>
      expect(api.callsTo(FIGURES)[0]?.url).toBe('/backend/contract-figures?months=12&company=we'),
    );
    // The browser moves between radios with the arrow keys (e2e/figures.spec.ts); jsdom only checks by Space.
    within(company).getByRole('radio', { name: 'WP' }).focus();
    await userEvent.keyboard(' ');
    await waitFor(() => expect(within(company).getByRole('radio', { name: 'WP' })).toBeChecked());
    await waitFor(() => expect(router.state.location.search).toBe('?company=wp'));
    await waitFor(() =>
      expect(api.callsTo(FIGURES).at(-1)?.url).toBe('/backend/contract-figures?months=12&company=wp'),
    );
    await userEvent.click(within(company).getByRole('radio', { name: 'Alle' }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    await userEvent.click(screen.getByRole('radio', { name: '24 Monate' }));
    await waitFor(() => expect(router.state.location.search).toBe('?months=24'));
    await waitFor(() => expect(api.callsTo(FIGURES).at(-1)?.url).toBe('/backend/contract-figures?months=24'));
  });

  it('tells a consultant there is no access, without asking the server', async () => {
    const api = stubApi({});
    renderFigures(consultant);
    expect(
      await screen.findByText('Die Auswertung sehen nur die Leitung und die Rechtsabteilung.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(api.callsTo(FIGURES)).toHaveLength(0);
  });

  it("says in the server's words why the figures could not be loaded", async () => {
    stubApi({
      [FIGURES]: jsonResponse(403, { error: 'forbidden', message: 'Dafür fehlt dir die Berechtigung.' }),
    });
    renderFigures(leader);
    expect(await screen.findByText('Die Auswertung konnte nicht geladen werden.')).toBeInTheDocument();
    expect(screen.getByText('Dafür fehlt dir die Berechtigung.')).toBeInTheDocument();
  });
});
