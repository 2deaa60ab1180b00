import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { BatchSummary, SessionUser } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { BatchesPage } from './batches-page';
import { BATCH_ID, checkedBatch, consultant, leader, legal } from './test-fixtures';

const LIST = 'GET /backend/batches';
const CHECK = 'POST /backend/batches';
const COUNTERSIGNATURE = 'GET /backend/batches/countersignature';

const signatories = [{ id: 'henrik-albers', name: 'Henrik Albers', function: 'Geschäftsführer' }];

function renderPage(
  path = '/serien',
  { user = legal, api = {} }: { user?: SessionUser; api?: Record<string, ApiAnswer | ApiAnswer[]> } = {},
) {
  const stub = stubApi({
    [LIST]: jsonResponse(200, []),
    'GET /backend/signatories': jsonResponse(200, signatories),
    ...api,
  });
  const view = renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => user,
        children: [
          { path: '/serien', Component: BatchesPage },
          { path: '/serien/:batchId', Component: () => <p>Seite der Serie</p> },
        ],
      },
    ],
    path,
  );
  return { ...view, ...stub };
}

const field = (label: string) => screen.findByRole('combobox', { name: label });

async function choose(label: string, option: string) {
  await userEvent.click(await field(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

async function optionsOf(label: string) {
  await userEvent.click(await field(label));
  const options = within(await screen.findByRole('listbox')).getAllByRole('option');
  const names = options.map((option) => option.textContent);
  await userEvent.keyboard('{Escape}');
  return names;
}

async function paste(label: string, text: string) {
  await userEvent.click(screen.getByRole('textbox', { name: label }));
  await userEvent.paste(text);
}

const checkButton = () => screen.getByRole('button', { name: 'Prüfen' });

describe('BatchesPage: a new batch', () => {
  it('sends the extension’s key, the values every deal shares and the pasted match IDs, then opens the checked batch', async () => {
    const { callsTo, router } = renderPage('/serien', { api: { [CHECK]: jsonResponse(201, checkedBatch) } });
    await choose('Dokument', 'Verlängerung');
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Sprache', 'Englisch');
    await choose('Vertragspartner', 'Kunde');

    // Without a new end (and no file that could name it per deal) nothing is sent.
    await paste('Match-IDs', 'PL-10001\nPL-10002; PL-10003');
    expect(screen.getByText('3 Match-IDs')).toBeInTheDocument();
    await userEvent.click(checkButton());
    const end = screen.getByLabelText(/Neues Vertragsende/);
    expect(end).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(end).toHaveFocus());
    expect(callsTo(CHECK)).toHaveLength(0);

    fireEvent.change(end, { target: { value: '2027-12-31' } });
    await paste('Neuer Stundensatz remote (€, leer: unverändert)', '112,5');
    await userEvent.click(checkButton());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/serien/${BATCH_ID}`));
    expect(callsTo(CHECK)).toEqual([
      {
        url: '/backend/batches',
        body: {
          docKey: 'verlaengerung-en-wm-k',
          values: { vertragspartner_type: 'k', neuesEnde: '2027-12-31', neuerSatzRemote: 112.5 },
          matchIds: 'PL-10001\nPL-10002; PL-10003',
        },
      },
    ]);
  });

  it('sends a termination’s signatory and position, and a chosen file as base64 instead of match IDs', async () => {
    const { callsTo, router } = renderPage('/serien', { api: { [CHECK]: jsonResponse(201, checkedBatch) } });
    await choose('Dokument', 'Kündigung/Kündigungsbestätigung');
    await choose('Gesellschaft', 'WP Projects GmbH');
    // WP works with project partners only.
    expect(await optionsOf('Vertragspartner')).toEqual(['Projektpartner']);
    await choose('Vertragspartner', 'Projektpartner');
    await choose('Dokumentart', 'Kündigungsbestätigung');
    expect(screen.queryByRole('combobox', { name: 'Kündigungsart' })).not.toBeInTheDocument();
    await choose('Unterzeichner', 'Henrik Albers (Geschäftsführer)');
    await paste('Position', 'Backend-Entwicklung');
    const csv = 'Match-ID;Position\nPL-10001;Test\n';
    await userEvent.upload(
      screen.getByLabelText('CSV- oder Excel-Datei', { selector: 'input[type="file"]' }),
      new File([csv], 'deals.csv', { type: 'text/csv' }),
    );
    await userEvent.click(checkButton());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/serien/${BATCH_ID}`));
    expect(callsTo(CHECK)[0]?.body).toEqual({
      docKey: 'kuendigung-wp-pp-confirmation',
      values: {
        vertragspartner_type: 'pp',
        selectedPerson: 'henrik-albers',
        position: 'Backend-Entwicklung',
      },
      file: { name: 'deals.csv', content: btoa(csv) },
    });
  });

  it('shows the server’s message, each field’s error at its field and the refused lines as a list', async () => {
    const refusal = {
      error: 'invalid_input',
      message: 'Die Serie enthält Fehler. Bitte korrigiere sie und prüfe erneut.',
      fields: {
        'Zeile 12': ['Die Match-ID „PL-9“ gibt es nicht.'],
        'Zeile 3': ['Das Datum „31.02.2027“ ist kein gültiges Datum.'],
        neuesEnde: ['Das neue Ende liegt in der Vergangenheit.'],
        matchIds: ['PL-10001 steht zweimal in der Liste.'],
      },
    };
    const { callsTo, router } = renderPage('/serien', { api: { [CHECK]: jsonResponse(400, refusal) } });
    await choose('Dokument', 'Verlängerung');
    await choose('Gesellschaft', 'WE Engineering GmbH');
    await choose('Sprache', 'Deutsch');
    await choose('Vertragspartner', 'Projektpartner');
    fireEvent.change(screen.getByLabelText(/Neues Vertragsende/), { target: { value: '2020-01-31' } });
    await paste('Match-IDs', 'PL-10001, PL-10001');
    await userEvent.click(checkButton());

    const alert = await screen.findByRole('alert', { name: 'Die Serie konnte nicht geprüft werden.' });
    expect(alert).toHaveTextContent('Die Serie enthält Fehler. Bitte korrigiere sie und prüfe erneut.');
    expect(screen.getByLabelText(/Neues Vertragsende/)).toHaveAccessibleDescription(
      'Das neue Ende liegt in der Vergangenheit.',
    );
    expect(screen.getByRole('textbox', { name: 'Match-IDs' })).toHaveAccessibleDescription(
      expect.stringContaining('PL-10001 steht zweimal in der Liste.'),
    );
    const problems = screen.getByRole('alert', { name: 'Das ist bei der Prüfung aufgefallen:' });
    const lines = within(problems)
      .getAllByRole('listitem')
      .map((line) => line.textContent);
    // In the order of the lines, not of the answer.
    expect(lines).toEqual([
      'Zeile 3: Das Datum „31.02.2027“ ist kein gültiges Datum.',
      'Zeile 12: Die Match-ID „PL-9“ gibt es nicht.',
    ]);
    expect(callsTo(CHECK)).toHaveLength(1);
    expect(router.state.location.pathname).toBe('/serien');
  });

  it('preselects the document and the deals an address names', async () => {
    const { callsTo } = renderPage('/serien?dokument=verlaengerung-de-we-pp&matches=PL-10014,PL-10028', {
      api: { [CHECK]: jsonResponse(201, checkedBatch) },
    });
    expect(await field('Dokument')).toHaveValue('Verlängerung');
    expect(screen.getByRole('combobox', { name: 'Gesellschaft' })).toHaveValue('WE Engineering GmbH');
    expect(screen.getByRole('combobox', { name: 'Sprache' })).toHaveValue('Deutsch');
    expect(screen.getByRole('combobox', { name: 'Vertragspartner' })).toHaveValue('Projektpartner');
    expect(screen.getByRole('textbox', { name: 'Match-IDs' })).toHaveValue('PL-10014\nPL-10028');

    // The language is the user's to change: a contract's row does not say it.
    await choose('Sprache', 'Englisch');
    fireEvent.change(screen.getByLabelText(/Neues Vertragsende/), { target: { value: '2028-03-31' } });
    await userEvent.click(checkButton());
    await waitFor(() => expect(callsTo(CHECK)).toHaveLength(1));
    expect(callsTo(CHECK)[0]?.body).toEqual({
      docKey: 'verlaengerung-en-we-pp',
      values: { vertragspartner_type: 'pp', neuesEnde: '2028-03-31' },
      matchIds: 'PL-10014\nPL-10028',
    });
  });

  it('preselects nothing of a document the user may not make, but keeps the deals', async () => {
    renderPage('/serien?dokument=verlaengerung-de-we-pp&matches=PL-10014', { user: leader });
    expect(await field('Dokument')).toHaveValue('');
    expect(screen.queryByRole('combobox', { name: 'Gesellschaft' })).not.toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Match-IDs' })).toHaveValue('PL-10014');
  });

  it('offers each level only the documents it may make', async () => {
    renderPage('/serien');
    expect(await optionsOf('Dokument')).toEqual([
      'Verlängerung',
      'Zusatzvereinbarung',
      'Kündigung/Kündigungsbestätigung',
      'Angebot',
      'DOCX-Kundenvertrag',
      'E-Signatur-Vertrag',
    ]);
  });

  it('offers a leader offers and e-signature contracts, a consultant e-signature contracts with project partners, and one without a level nothing', async () => {
    const first = renderPage('/serien', { user: leader });
    expect(await optionsOf('Dokument')).toEqual(['Angebot', 'E-Signatur-Vertrag']);
    first.unmount();

    const second = renderPage('/serien', { user: consultant });
    expect(await optionsOf('Dokument')).toEqual(['E-Signatur-Vertrag']);
    await choose('Dokument', 'E-Signatur-Vertrag');
    await choose('Gesellschaft', 'WM Consulting GmbH');
    expect(await optionsOf('Vertragspartner')).toEqual(['Projektpartner']);
    second.unmount();

    renderPage('/serien', { user: { ...consultant, permission: null } });
    expect(
      await screen.findByText(/^Es gibt kein Dokument, das du als Serie erstellen darfst/),
    ).toBeVisible();
    expect(screen.queryByRole('combobox', { name: 'Dokument' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Prüfen' })).not.toBeInTheDocument();
  });

  it('sends an offer with its volume and signatory; the partner is the customer', async () => {
    const { callsTo } = renderPage('/serien', {
      user: leader,
      api: { [CHECK]: jsonResponse(201, checkedBatch) },
    });
    await choose('Dokument', 'Angebot');
    await choose('Gesellschaft', 'WE Engineering GmbH');
    await paste('Projektstunden', '160');
    await paste('Projekttage', '20');
    await choose('Unterzeichner', 'Henrik Albers (Geschäftsführer)');
    await paste('Match-IDs', 'PL-10001');
    await userEvent.click(checkButton());
    await waitFor(() => expect(callsTo(CHECK)).toHaveLength(1));
    expect(callsTo(CHECK)[0]?.body).toEqual({
      docKey: 'angebot-we',
      values: {
        vertragspartner_type: 'k',
        projectHours: 160,
        projectDays: 20,
        selectedPerson: 'henrik-albers',
      },
      matchIds: 'PL-10001',
    });
  });

  it('says why it cannot check without deals, and sends nothing', async () => {
    const { callsTo } = renderPage('/serien');
    await choose('Dokument', 'Zusatzvereinbarung');
    // The extension is a kind of its own.
    expect(await optionsOf('Art der Vereinbarung')).toEqual(['Aufgabenbeschreibung', 'Stunden', 'Sonstiges']);
    await choose('Art der Vereinbarung', 'Stunden');
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragspartner', 'Kunde');
    await userEvent.click(checkButton());
    expect(screen.getByRole('textbox', { name: 'Match-IDs' })).toHaveAccessibleDescription(
      expect.stringContaining('Bitte gib Match-IDs ein oder wähle eine Datei.'),
    );
    expect(callsTo(CHECK)).toHaveLength(0);
  });
});

describe('BatchesPage: a batch of e-signature contracts', () => {
  const henrik = { id: 'henrik-albers', name: 'Henrik Albers', function: 'Geschäftsführer' };
  const setting = (withoutAllowed: boolean) => ({
    options: [henrik, { id: 'greta-sommer', name: 'Greta Sommer', function: 'Prokuristin' }],
    withoutAllowed,
    position: 'last',
  });

  async function chooseContract() {
    await choose('Dokument', 'E-Signatur-Vertrag');
    await choose('Sprache', 'Deutsch');
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragsart', 'Einzelauftrag');
    await choose('Vertragspartner', 'Kunde');
    await choose('Unterschriftsblöcke Kunde', '2');
  }

  it('asks who countersigns every envelope and sends it with the message as `send`', async () => {
    const { callsTo, router } = renderPage('/serien', {
      api: {
        [COUNTERSIGNATURE]: jsonResponse(200, setting(false)),
        [CHECK]: jsonResponse(201, checkedBatch),
      },
    });
    await chooseContract();
    const versand = screen.getByRole('group', { name: 'Versand' });
    const countersignatory = await within(versand).findByRole('combobox', { name: 'Gegenzeichnung (Firma)' });
    // The document's family allows no envelope without the company's signature: nothing is preselected.
    expect(countersignatory).toHaveValue('');
    expect(await optionsOf('Gegenzeichnung (Firma)')).toEqual([
      'Henrik Albers – Geschäftsführer',
      'Greta Sommer – Prokuristin',
    ]);
    expect(callsTo(COUNTERSIGNATURE).map((call) => call.url)).toEqual([
      '/backend/batches/countersignature?docKey=de-wm-k-ev-2',
    ]);

    await paste('Match-IDs', 'PL-10001\nPL-10002');
    await userEvent.click(checkButton());
    expect(countersignatory).toHaveAttribute('aria-invalid', 'true');
    expect(countersignatory).toHaveAccessibleDescription(
      expect.stringContaining('Bitte wähle, wer für die Firma gegenzeichnet.'),
    );
    expect(callsTo(CHECK)).toHaveLength(0);

    await choose('Gegenzeichnung (Firma)', 'Henrik Albers – Geschäftsführer');
    await paste('Nachricht an die Unterzeichner', 'Bitte bis Freitag unterschreiben.');
    await userEvent.click(checkButton());
    await waitFor(() => expect(router.state.location.pathname).toBe(`/serien/${BATCH_ID}`));
    expect(callsTo(CHECK)).toEqual([
      {
        url: '/backend/batches',
        body: {
          docKey: 'de-wm-k-ev-2',
          values: { vertragspartner_type: 'k' },
          send: { countersignatory: 'henrik-albers', message: 'Bitte bis Freitag unterschreiben.' },
          matchIds: 'PL-10001\nPL-10002',
        },
      },
    ]);
  });

  it('offers „Ohne Gegenzeichnung“ where the family allows it, and shows the server’s words at the send’s fields', async () => {
    const refusal = {
      error: 'invalid_input',
      message: 'Bitte korrigiere die markierten Felder.',
      fields: {
        'send.countersignatory': ['Für diesen Vertrag ist eine Gegenzeichnung nötig.'],
        'send.message': ['Die Nachricht ist zu lang (max. 4.000 Zeichen).'],
      },
    };
    const { callsTo, router } = renderPage('/serien', {
      api: { [COUNTERSIGNATURE]: jsonResponse(200, setting(true)), [CHECK]: jsonResponse(400, refusal) },
    });
    await chooseContract();
    const countersignatory = await screen.findByRole('combobox', { name: 'Gegenzeichnung (Firma)' });
    expect(countersignatory).toHaveValue('Ohne Gegenzeichnung (das Siegel steht für die Firma)');
    await paste('Match-IDs', 'PL-10001');
    await userEvent.click(checkButton());
    await waitFor(() => expect(callsTo(CHECK)).toHaveLength(1));
    expect(callsTo(CHECK)[0]?.body.send).toEqual({ countersignatory: null, message: '' });

    expect(
      await screen.findByRole('alert', { name: 'Die Serie konnte nicht geprüft werden.' }),
    ).toBeVisible();
    expect(countersignatory).toHaveAttribute('aria-invalid', 'true');
    expect(countersignatory).toHaveAccessibleDescription(
      expect.stringContaining('Für diesen Vertrag ist eine Gegenzeichnung nötig.'),
    );
    expect(
      screen.getByRole('textbox', { name: 'Nachricht an die Unterzeichner' }),
    ).toHaveAccessibleDescription(expect.stringContaining('Die Nachricht ist zu lang (max. 4.000 Zeichen).'));
    // At their fields, not again in the list of what the check found.
    expect(
      screen.queryByRole('alert', { name: 'Das ist bei der Prüfung aufgefallen:' }),
    ).not.toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/serien');
  });

  it('asks nothing about a send for a Word document', async () => {
    const { callsTo } = renderPage('/serien');
    await choose('Dokument', 'DOCX-Kundenvertrag');
    await choose('Sprache', 'Deutsch');
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragsart', 'Einzelauftrag');
    expect(screen.queryByRole('group', { name: 'Versand' })).not.toBeInTheDocument();
    expect(callsTo(COUNTERSIGNATURE)).toHaveLength(0);
  });
});

describe('BatchesPage: my batches', () => {
  it('lists the user’s batches with status, date and counts, each linking to its page', async () => {
    const summary: BatchSummary = {
      id: BATCH_ID,
      docKey: 'verlaengerung-de-wm-k',
      title: 'Verlängerung (Kunde, WM)',
      status: 'running',
      createdBy: legal.email,
      createdAt: '2027-03-01T09:30:00.000Z',
      startedAt: '2027-03-01T09:31:00.000Z',
      finishedAt: null,
      deals: 40,
      counts: {
        ready: 38,
        approval: 1,
        cannot: 1,
        waiting: 10,
        running: 1,
        done: 27,
        waitingApproval: 1,
        failed: 1,
        cancelled: 0,
        skipped: 1,
      },
      secondsLeft: 30,
    };
    renderPage('/serien', { api: { [LIST]: jsonResponse(200, [summary]) } });
    const table = await screen.findByRole('table', { name: 'Meine Serien' });
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[1] as HTMLElement)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['Verlängerung (Kunde, WM)', 'Läuft', '01.03.2027 10:30', '27', '1', '40']);
    expect(within(table).getByRole('link', { name: 'Verlängerung (Kunde, WM)' })).toHaveAttribute(
      'href',
      `/serien/${BATCH_ID}`,
    );
  });

  it('says when there is none yet', async () => {
    renderPage('/serien');
    expect(await screen.findByText('Du hast noch keine Serie erstellt.')).toBeInTheDocument();
  });
});
