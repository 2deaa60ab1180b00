import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { displayRows, plausibilityHints, type ResolvedMatch } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { jsonResponse, renderRoutes, stubFetch } from '@/test/utils';
import { StartPage } from './start-page';

const routes = [
  { path: '/start', element: <StartPage /> },
  { path: '/format', element: <p>Formatseite</p> },
];

const match: ResolvedMatch = {
  matchId: 'PL-12345',
  beraterJob: 'Anna Berater',
  beraterKandidat: 'Bernd Berater',
  candidateFirstName: 'Carla',
  candidateLastName: 'Projekt',
  ppGesellschaft: 'Projekt IT-Services',
  ppAdresse: 'Hauptstraße 1, 10115 Berlin',
  kunde: '<b>x</b>',
  adresseKunde: 'Kundenweg 7, 80331 München',
  startdatum: '2031-03-01',
  // Before the start: gives a plausibility hint.
  enddatum: '2030-12-31',
  kuendigungsfristKunde: '4 Wochen',
  zahlungszielPP: '30 days',
  zahlungszielKunde: '14 days',
  verguetungssatz: 95,
  ek: 90,
  vk: 110,
  ek2: '100',
  vk2: '120,50',
  stundenProWoche: 40,
  position: 'Backend-Entwicklerin',
  aufgabenbeschreibung:
    'Weiterentwicklung der Abrechnungsplattform.\nMigration der Schnittstellen auf Kotlin und Spring Boot.',
  addAgreements: 'Keine',
  Anstellungsart: 'Freelancer',
  vertragspartnerPP: 'wm',
  vertragspartnerKunde: 'wm',
};

const UNKNOWN_ID = 'Die Match-ID ist nicht korrekt. Bitte gib die ID erneut ein.';

function renderStart() {
  return renderRoutes(routes, '/start');
}

const idInput = () => screen.getByRole('textbox', { name: 'Match-ID' });
const confirmButton = () => screen.getByRole('button', { name: 'Bestätigen' });
const nextButton = () => screen.getByRole('button', { name: 'Weiter' });
const findTable = () => screen.findByRole('table', { name: `Match ${match.matchId}` });

async function confirm(id: string) {
  await userEvent.type(idInput(), `${id}{Enter}`);
}

/** Label, value and layout of each row as a reader sees them. */
function renderedRows(table: HTMLElement) {
  return within(table)
    .getAllByRole('row')
    .map((row) => {
      const header = within(row).queryByRole('rowheader');
      const [cell] = within(row).getAllByRole('cell');
      if (header) return { label: header.textContent, value: cell?.textContent, wide: false };
      return {
        label: cell?.firstElementChild?.textContent,
        value: cell?.lastElementChild?.textContent,
        wide: true,
      };
    });
}

function rowLabelled(table: HTMLElement, label: string): HTMLElement {
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => candidate.textContent?.startsWith(label));
  if (!row) throw new Error(`no row ${label}`);
  return row;
}

beforeEach(() => {
  performance.clearMarks();
  performance.clearMeasures();
});

describe('StartPage: entering the ID', () => {
  it('disables Bestätigen while the input is blank', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    expect(confirmButton()).toBeDisabled();
    await userEvent.type(idInput(), '   ');
    expect(confirmButton()).toBeDisabled();
    await userEvent.type(idInput(), '1');
    expect(confirmButton()).toBeEnabled();
  });

  it('submits with Enter, adds the PL- prefix and stores the ID before loading', async () => {
    const fetchMock = stubFetch(jsonResponse(200, match));
    let storedWhenLoading: string | null = null;
    fetchMock.mockImplementation(async () => {
      storedWhenLoading = localStorage.getItem('matchId');
      return jsonResponse(200, match);
    });
    renderStart();
    await confirm('12345');

    await findTable();
    expect(fetchMock).toHaveBeenCalledOnce();
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/backend/match/PL-12345');
    expect(init?.method).toBe('POST');
    expect(storedWhenLoading).toBe('PL-12345');
    expect(idInput()).toHaveValue('PL-12345');
  });

  it('keeps a prefix the user typed and submits with the button', async () => {
    const fetchMock = stubFetch(jsonResponse(200, match));
    renderStart();
    await userEvent.type(idInput(), 'PL-12345');
    await userEvent.click(confirmButton());
    await findTable();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/backend/match/PL-12345');
  });

  it('shows a loading button until the match arrives', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = stubFetch(jsonResponse(200, match));
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    renderStart();
    await confirm('12345');

    await waitFor(() => expect(confirmButton()).toHaveAttribute('data-loading'));
    expect(nextButton()).toBeDisabled();
    await act(async () => answer(jsonResponse(200, match)));
    await findTable();
    expect(confirmButton()).not.toHaveAttribute('data-loading');
  });

  it('says a wrong ID is not correct (404)', async () => {
    stubFetch(jsonResponse(404, { error: 'not_found', message: UNKNOWN_ID }));
    renderStart();
    await confirm('99999');

    expect(await screen.findByRole('alert')).toHaveTextContent(UNKNOWN_ID);
    expect(screen.getByRole('alert').textContent).toBe(UNKNOWN_ID);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(nextButton()).toBeDisabled();
  });

  it("shows the server's message when the matches are unavailable (503)", async () => {
    const message = 'Die Matches sind gerade nicht abrufbar. Bitte versuche es in einem Moment erneut.';
    stubFetch(jsonResponse(503, { error: 'unavailable', message }));
    renderStart();
    await confirm('12345');
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(nextButton()).toBeDisabled();
  });

  it('says the server is unreachable when the request fails', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    renderStart();
    await confirm('12345');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Der Server ist nicht erreichbar. Bitte versuche es erneut.',
    );
  });

  it('loads again when the same ID is confirmed again, to pick up corrections from the CRM', async () => {
    const corrected = { ...match, position: 'Frontend-Entwicklerin' };
    let answerAgain: (response: Response) => void = () => {};
    const fetchMock = stubFetch(jsonResponse(200, match));
    fetchMock.mockImplementationOnce(async () => jsonResponse(200, match));
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answerAgain = resolve)));
    renderStart();
    await confirm('12345');
    expect(await findTable()).toHaveTextContent(match.position ?? '');

    await userEvent.click(confirmButton());
    // Until the new answer is in, the old data is not passed off as the confirmed match.
    expect(await screen.findByRole('status', { name: 'Wird geladen …' })).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(nextButton()).toBeDisabled();

    await act(async () => answerAgain(jsonResponse(200, corrected)));
    expect(await findTable()).toHaveTextContent(corrected.position);
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('measures from the confirmation to the rendered table', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    await confirm('12345');
    await findTable();
    await waitFor(() => expect(performance.getEntriesByName('match:confirm-to-table')).toHaveLength(1));
    expect(performance.getEntriesByName('match:submit')).toHaveLength(1);
    expect(performance.getEntriesByName('match:rendered')).toHaveLength(1);
  });
});

describe('StartPage: the match', () => {
  it('renders every display row in order, with / for missing values and the wide layout for long ones', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    await confirm('12345');
    const table = await findTable();

    const expected = displayRows(match);
    expect(renderedRows(table)).toEqual(expected.map(({ label, value, wide }) => ({ label, value, wide })));

    expect(match.ansprechpartnerKunde).toBeUndefined();
    expect(within(rowLabelled(table, 'Ansprechpartner Kunde')).getByRole('cell')).toHaveTextContent(/^\/$/);

    expect(expected.find((row) => row.key === 'aufgabenbeschreibung')?.wide).toBe(true);
    const wideCell = within(rowLabelled(table, 'Aufgabenbeschreibung')).getByRole('cell');
    expect(wideCell).toHaveAttribute('colspan', '2');
    expect(wideCell.lastElementChild).toHaveStyle({ whiteSpace: 'pre-wrap' });
    expect(wideCell.lastElementChild?.textContent).toBe(match.aufgabenbeschreibung);
  });

  it('shows markup in a value as text', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    await confirm('12345');
    const table = await findTable();
    expect(within(table).getByText('<b>x</b>')).toBeInTheDocument();
    expect(table.querySelector('b')).toBeNull();
  });

  it('shows plausibility hints above the table and marks their rows', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    await confirm('12345');
    const table = await findTable();

    const hints = plausibilityHints(match, new Date());
    expect(hints.map((hint) => hint.code)).toContain('end-before-start');
    const hintBox = screen.getByRole('status');
    expect(hintBox).toHaveTextContent('Bitte prüfen');
    for (const hint of hints) expect(hintBox).toHaveTextContent(hint.message);
    expect(hintBox.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(rowLabelled(table, 'Enddatum')).toHaveAttribute('data-hinted');
    expect(rowLabelled(table, 'Kunde')).not.toHaveAttribute('data-hinted');
    expect(nextButton()).toBeEnabled();
  });

  it('shows no hint box for a plausible match', async () => {
    const plausible = { ...match, enddatum: '2031-12-31' };
    expect(plausibilityHints(plausible, new Date())).toEqual([]);
    stubFetch(jsonResponse(200, plausible));
    renderStart();
    await confirm('12345');
    await findTable();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  it('enables Weiter once the match is loaded, which goes to /format', async () => {
    stubFetch(jsonResponse(200, match));
    const { router } = renderStart();
    expect(nextButton()).toBeDisabled();
    await confirm('12345');
    await findTable();
    expect(nextButton()).toBeEnabled();

    await userEvent.click(nextButton());
    expect(await screen.findByText('Formatseite')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/format');
  });
});

describe('StartPage: coming back', () => {
  it('loads the stored match ID on a reload and prefills the input', async () => {
    localStorage.setItem('matchId', 'PL-12345');
    const fetchMock = stubFetch(jsonResponse(200, match));
    renderStart();

    expect(idInput()).toHaveValue('PL-12345');
    expect(await findTable()).toBeInTheDocument();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/backend/match/PL-12345');
    expect(nextButton()).toBeEnabled();
  });

  it('shows the empty input without a stored match ID and loads nothing', () => {
    const fetchMock = stubFetch(jsonResponse(200, match));
    renderStart();
    expect(idInput()).toHaveValue('');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('shows the cached match again without loading it after going to /format and back', async () => {
    const fetchMock = stubFetch(jsonResponse(200, match));
    const { router } = renderStart();
    await confirm('12345');
    await findTable();
    await userEvent.click(nextButton());
    await screen.findByText('Formatseite');

    await act(() => router.navigate('/start'));
    expect(screen.getByRole('table', { name: `Match ${match.matchId}` })).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledOnce();
  });

  it('reports a stored ID the server no longer knows', async () => {
    localStorage.setItem('matchId', 'PL-00000');
    stubFetch(jsonResponse(404, { error: 'not_found', message: UNKNOWN_ID }));
    renderStart();
    expect(await screen.findByRole('alert')).toHaveTextContent(UNKNOWN_ID);
    expect(nextButton()).toBeDisabled();
  });
});

describe('StartPage: a match from the CRM cache', () => {
  it('keeps the fetch time of the answer and says the data comes from the cache', async () => {
    const cachedAt = new Date(Date.now() - 7 * 60_000 - 5_000).toISOString();
    stubFetch(jsonResponse(200, { ...match, enddatum: '2031-12-31', cachedAt }));
    renderStart();
    await confirm('12345');
    const table = await findTable();
    const notice = screen.getByRole('status');
    expect(notice).toHaveTextContent('Aus dem Zwischenspeicher – Stand vor 7 Minuten');
    expect(notice.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(nextButton()).toBeEnabled();
  });

  it('shows no such notice for a match fresh from the CRM', async () => {
    stubFetch(jsonResponse(200, match));
    renderStart();
    await confirm('12345');
    await findTable();
    expect(screen.queryByText(/Zwischenspeicher/)).not.toBeInTheDocument();
  });
});
