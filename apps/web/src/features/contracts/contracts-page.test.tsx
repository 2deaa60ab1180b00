import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SessionUser } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse, renderRoutes, slowSessionCheck, stubApi } from '@/test/utils';
import { ContractsPage } from './contracts-page';
import { contractsPage, frameworkRow, unreadableRow } from './test-fixtures';

const LIST = 'GET /backend/contracts';
const EXPORT = 'GET /backend/contracts/export?';

const legal: SessionUser = {
  email: 'legal@demo.local',
  name: 'Lena Legal',
  permission: 2,
  administrator: false,
};
const consultant: SessionUser = {
  ...legal,
  email: 'berater@demo.local',
  name: 'Berta Berater',
  permission: 1,
};

function renderList(path = '/vertraege', user: SessionUser = legal) {
  return renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => user,
        children: [
          { path: '/vertraege', Component: ContractsPage },
          { path: '/vertraege/:contractId', Component: () => <p>Vertragsseite</p> },
        ],
      },
    ],
    path,
  );
}

const table = () => screen.findByRole('table', { name: 'Verträge' });
/** The list calls' addresses, without the export's. */
const listCalls = (api: ReturnType<typeof stubApi>) =>
  api
    .callsTo(LIST)
    .map((call) => call.url)
    .filter((url) => !url.startsWith('/backend/contracts/export'));

describe('ContractsPage', () => {
  let downloads: string[];
  beforeEach(() => {
    downloads = captureDownloads();
  });

  it('lists each record with its dates, status and a link to it; an unreadable notice is marked', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow, unreadableRow])) });
    renderList();
    const rows = within(await table()).getAllByRole('row');
    expect(rows).toHaveLength(3);
    const header = within(rows[0] as HTMLElement)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent?.replace(/[▲▼↕]/g, ''));
    expect(header).toEqual([
      'Match',
      'Art',
      'Gegenseite',
      'Kunde',
      'Berater',
      'Beginn',
      'Ende',
      'Kündigung spätestens',
      'Unterschrieben',
      'Status',
    ]);
    const cells = (row: number) =>
      within(rows[row] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent);
    expect(cells(1)).toEqual([
      'PL-10014',
      'Rahmenvertrag',
      'Lahntal Software AG',
      'Lahntal Software AG',
      'Hannes Hoffmann',
      '04.01.2027',
      '17.12.2027',
      '19.11.2027',
      '20.11.2026',
      'In Kraft',
    ]);
    // Signed at 23:30 UTC on 25 November: the 26th in Berlin.
    expect(cells(2)).toEqual([
      'PL-10028',
      'Einzelauftrag',
      'Lahntal Software AG',
      'Lahntal Software AG',
      'Florian Fuchs',
      '01.04.2027',
      '30.09.2027',
      'Frist nicht lesbar',
      '26.11.2026',
      'Endet bald',
    ]);
    expect(screen.getByRole('link', { name: 'Rahmenvertrag PL-10014 öffnen' })).toHaveAttribute(
      'href',
      `/vertraege/${frameworkRow.id}`,
    );
    expect(screen.getByText('2 Verträge')).toBeInTheDocument();
    expect(screen.getByText(/^Alle unterschriebenen Verträge/)).toBeInTheDocument();
    expect(listCalls(api)).toEqual(['/backend/contracts']);
    // The default sort: by end, ascending.
    expect(screen.getByRole('columnheader', { name: /^Ende/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /^Kunde/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('tells a consultant that the list holds their deals', async () => {
    stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow])) });
    renderList('/vertraege', consultant);
    await table();
    expect(screen.getByText(/^Die unterschriebenen Verträge deiner Deals/)).toBeInTheDocument();
  });

  it('reads the view from the address and asks the server for exactly that view; a value it does not know is left out', async () => {
    const api = stubApi({
      [LIST]: jsonResponse(200, contractsPage([unreadableRow], { total: 51, page: 2 })),
    });
    renderList(
      '/vertraege?status=ending_soon&endsWithin=60&kind=bogus&company=we&sort=notice&direction=desc&page=2&q=Lahn',
    );
    await table();
    expect(listCalls(api)).toEqual([
      '/backend/contracts?q=Lahn&company=we&status=ending_soon&endsWithin=60&sort=notice&direction=desc&page=2',
    ]);
    expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Endet bald');
    expect(screen.getByRole('combobox', { name: 'Gesellschaft' })).toHaveValue('WE');
    expect(screen.getByRole('combobox', { name: 'Art' })).toHaveValue('Alle');
    expect(screen.getByRole('textbox', { name: 'Endet in (Tagen)' })).toHaveValue('60');
    expect(screen.getByRole('searchbox', { name: 'Suche' })).toHaveValue('Lahn');
    expect(screen.getByRole('columnheader', { name: /^Kündigung spätestens/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(screen.getByRole('button', { name: 'Seite 2' })).toHaveAttribute('aria-current', 'page');
  });

  it('keeps each filter in the address, starting again on the first page', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow], { total: 120 })) });
    const { router } = renderList('/vertraege?page=2');
    await table();
    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Endet bald' }));
    await waitFor(() => expect(router.state.location.search).toBe('?status=ending_soon'));
    await userEvent.type(screen.getByRole('textbox', { name: 'Endet in (Tagen)' }), '60');
    await waitFor(() => expect(router.state.location.search).toBe('?status=ending_soon&endsWithin=60'));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Nur Einzelaufträge ohne Rahmenvertrag' }));
    await waitFor(() =>
      expect(listCalls(api).at(-1)).toBe(
        '/backend/contracts?status=ending_soon&endsWithin=60&withoutFramework=true',
      ),
    );
    expect(router.state.location.search).toBe('?status=ending_soon&endsWithin=60&withoutFramework=true');

    await userEvent.click(screen.getByRole('button', { name: 'Filter zurücksetzen' }));
    await waitFor(() => expect(screen.getByRole('combobox', { name: 'Status' })).toHaveValue('Alle'));
    expect(router.state.location.search).toBe('');
    await waitFor(() => expect(screen.getByRole('textbox', { name: 'Endet in (Tagen)' })).toHaveValue(''));
  });

  it('takes a typed filter into the address as one step: Back returns to the view before, and the field follows', async () => {
    stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow])) });
    const { router } = renderList('/vertraege?kind=einzelauftrag');
    await table();
    const customer = screen.getByRole('textbox', { name: 'Kunde' });
    await userEvent.type(customer, 'La');
    await waitFor(() => expect(router.state.location.search).toBe('?customer=La&kind=einzelauftrag'));
    await userEvent.type(customer, 'hn');
    await waitFor(() => expect(router.state.location.search).toBe('?customer=Lahn&kind=einzelauftrag'));
    expect(customer).toHaveValue('Lahn');

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?kind=einzelauftrag');
    await waitFor(() => expect(customer).toHaveValue(''));
    // The field followed the address; it does not type its old value back in.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(router.state.location.search).toBe('?kind=einzelauftrag');
    await act(() => router.navigate(1));
    await waitFor(() => expect(customer).toHaveValue('Lahn'));
  });

  it('keeps a change made while the one before still waits for the session check', async () => {
    stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow])) });
    const { router } = renderRoutes(
      [slowSessionCheck(legal, [{ path: '/vertraege', Component: ContractsPage }])],
      '/vertraege',
    );
    await table();
    await userEvent.click(screen.getByRole('combobox', { name: 'Art' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Rahmenvertrag' }));
    // Committed 300 ms after typing: while the kind's navigation still waits.
    await userEvent.type(screen.getByRole('textbox', { name: 'Endet in (Tagen)' }), '4');
    await waitFor(() => expect(router.state.location.search).toBe('?kind=rahmenvertrag&endsWithin=4'), {
      timeout: 3000,
    });
    await userEvent.type(screen.getByRole('searchbox', { name: 'Suche' }), 'L');
    await waitFor(() => expect(router.state.location.search).toBe('?q=L&kind=rahmenvertrag&endsWithin=4'), {
      timeout: 3000,
    });
  });

  it('sorts by a click on a column, the other way by a second click', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow])) });
    const { router } = renderList();
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'Ende' }));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /^Ende/ })).toHaveAttribute('aria-sort', 'descending'),
    );
    expect(router.state.location.search).toBe('?direction=desc');
    await userEvent.click(screen.getByRole('button', { name: 'Kunde' }));
    await waitFor(() =>
      expect(screen.getByRole('columnheader', { name: /^Kunde/ })).toHaveAttribute('aria-sort', 'ascending'),
    );
    expect(router.state.location.search).toBe('?sort=customer');
    expect(screen.getByRole('columnheader', { name: /^Ende/ })).toHaveAttribute('aria-sort', 'none');
    await userEvent.click(screen.getByRole('button', { name: 'Unterschrieben' }));
    await waitFor(() => expect(listCalls(api).at(-1)).toBe('/backend/contracts?sort=signed'));
  });

  it('turns the page through the address', async () => {
    const api = stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow], { total: 120 })) });
    const { router } = renderList('/vertraege?kind=einzelauftrag');
    await table();
    expect(screen.getByRole('button', { name: 'Seite 3' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Seite 4' })).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Seite 2' }));
    await waitFor(() => expect(router.state.location.search).toBe('?kind=einzelauftrag&page=2'));
    await waitFor(() => expect(listCalls(api).at(-1)).toBe('/backend/contracts?kind=einzelauftrag&page=2'));
  });

  it('says so in German when nothing matches, with or without filters', async () => {
    stubApi({ [LIST]: jsonResponse(200, contractsPage([])) });
    const first = renderList('/vertraege?status=terminated');
    expect(await screen.findByText('Keine Verträge passen zu diesen Filtern.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    first.unmount();
    renderList();
    expect(await screen.findByText('Keine Verträge gefunden.')).toBeInTheDocument();
  });

  it('shows the server’s message when the list cannot be loaded', async () => {
    stubApi({
      [LIST]: jsonResponse(403, { error: 'forbidden', message: 'Dafür fehlt dir die Berechtigung.' }),
    });
    renderList();
    expect(await screen.findByText('Die Verträge konnten nicht geladen werden.')).toBeInTheDocument();
    expect(screen.getByText('Dafür fehlt dir die Berechtigung.')).toBeInTheDocument();
  });

  it('downloads the current view as CSV and Excel with the ID token; a view too large says why', async () => {
    const api = stubApi({
      [LIST]: jsonResponse(200, contractsPage([frameworkRow], { total: 120, page: 2 })),
      [`${EXPORT}status=ending_soon&format=csv`]: new Response('\uFEFFMatch;Art\r\n', {
        status: 200,
        headers: { 'Content-Type': 'text/csv; charset=utf-8' },
      }),
      [`${EXPORT}status=ending_soon&format=xlsx`]: jsonResponse(422, {
        error: 'export_too_large',
        message: 'Diese Ansicht hat mehr als 20.000 Verträge. Bitte grenze sie mit den Filtern ein.',
      }),
    });
    renderList('/vertraege?status=ending_soon&page=2');
    await table();
    await userEvent.click(screen.getByRole('button', { name: 'CSV' }));
    await waitFor(() => expect(downloads).toEqual(['Vertraege.csv']));
    // Every page of the view, not the page shown.
    expect(api.callsTo(EXPORT).map((call) => call.url)).toEqual([
      '/backend/contracts/export?status=ending_soon&format=csv',
    ]);
    expect(api.headersOf(EXPORT)[0]?.get('Authorization')).toBe('Bearer id-token');

    await userEvent.click(screen.getByRole('button', { name: 'Excel' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Diese Ansicht hat mehr als 20.000 Verträge. Bitte grenze sie mit den Filtern ein.',
    );
    expect(downloads).toEqual(['Vertraege.csv']);
  });
});

describe('ContractsPage: Verlängern', () => {
  const extendButton = () => screen.queryByRole('link', { name: 'Verlängern' });

  it('extends the filtered contracts of one company and side as one batch', async () => {
    stubApi({
      [LIST]: jsonResponse(200, contractsPage([frameworkRow, unreadableRow, { ...unreadableRow, id: 'x' }])),
    });
    renderList('/vertraege?endsWithin=60');
    await table();
    // German, as a row does not say its language; each deal once.
    expect(extendButton()).toHaveAttribute(
      'href',
      '/serien?dokument=verlaengerung-de-we-k&matches=PL-10014,PL-10028',
    );
  });

  it('is disabled, saying why, while the rows are of several companies or not all extendable', async () => {
    stubApi({
      [LIST]: [
        jsonResponse(200, contractsPage([frameworkRow, { ...unreadableRow, company: 'wm' }])),
        jsonResponse(200, contractsPage([frameworkRow, { ...unreadableRow, kind: 'kuendigung' }])),
      ],
    });
    renderList('/vertraege?endsWithin=60');
    await table();
    const button = screen.getByRole('button', { name: 'Verlängern' });
    expect(button).toBeDisabled();
    expect(button).toHaveAccessibleDescription(
      /^Verlängern geht für Einzelaufträge, Rahmenverträge und Verlängerungen/,
    );
    expect(extendButton()).not.toBeInTheDocument();

    // One company, but a Kündigung among the rows: nothing an extension extends.
    await userEvent.type(screen.getByRole('textbox', { name: 'Endet in (Tagen)' }), '0');
    await within(await table()).findByText('Kündigung');
    expect(screen.getByRole('button', { name: 'Verlängern' })).toBeDisabled();
    expect(extendButton()).not.toBeInTheDocument();
  });

  it('is not offered for the unfiltered list, nor to a consultant, who may not make extensions', async () => {
    stubApi({ [LIST]: jsonResponse(200, contractsPage([frameworkRow])) });
    const first = renderList('/vertraege');
    await table();
    expect(screen.queryByText('Verlängern')).not.toBeInTheDocument();
    first.unmount();

    renderList('/vertraege?endsWithin=60', consultant);
    await table();
    expect(screen.getByRole('button', { name: 'CSV' })).toBeVisible();
    expect(screen.queryByText('Verlängern')).not.toBeInTheDocument();
  });
});
