import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOCX_MIME_TYPE } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { SESSION_ROUTE } from '@/lib/paths';
import { captureDownloads } from '@/test/downloads';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { BatchPage } from './batch-page';
import { BATCH_ID, batch, checkedBatch, item, legal } from './test-fixtures';

const GET = `GET /backend/batches/${BATCH_ID}`;
const PREVIEW = `GET /backend/batches/${BATCH_ID}/items/`;
const START = `POST /backend/batches/${BATCH_ID}/start`;
const RETRY = `POST /backend/batches/${BATCH_ID}/retry`;
const CANCEL = `POST /backend/batches/${BATCH_ID}/cancel`;

function renderBatch(api: Record<string, ApiAnswer | ApiAnswer[]>) {
  const stub = stubApi({ 'GET /backend/batches': jsonResponse(200, []), ...api });
  const view = renderRoutes(
    [
      {
        id: SESSION_ROUTE,
        loader: () => legal,
        children: [
          { path: '/serien/:batchId', Component: BatchPage },
          { path: '/dokumente/:documentId', Component: () => <p>Editor</p> },
          { path: '/signatur/:envelopeId', Component: () => <p>Umschlag</p> },
          { path: '/freigaben/serien/:batchId', Component: () => <p>Freigabe der Serie</p> },
        ],
      },
    ],
    `/serien/${BATCH_ID}`,
  );
  return { ...view, ...stub };
}

const cells = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

/** The batch's GET calls (the polls), without the previews'. */
const polls = (api: ReturnType<typeof stubApi>) =>
  api.callsTo(GET).filter((call) => call.url === `/backend/batches/${BATCH_ID}`);

const progressBar = () => screen.getByRole('progressbar', { name: 'Fortschritt der Serie' });

/** A running batch of three deals: the first made, with its document. */
const running = (done: number, secondsLeft: number | null) =>
  batch(
    [1, 2, 3].map((position) =>
      position <= done
        ? item(position, {
            status: 'done',
            documentId: `doc-${position}`,
            finishedAt: '2027-03-01T09:32:00.000Z',
          })
        : item(position),
    ),
    { status: done === 3 ? 'finished' : 'running', startedAt: '2027-03-01T09:31:00.000Z', secondsLeft },
  );

describe('BatchPage: the check', () => {
  let downloads: string[];
  beforeEach(() => {
    downloads = captureDownloads();
  });

  it('shows each deal’s verdict, the summary and previews of the first ready deals, and starts the batch', async () => {
    const api = renderBatch({
      [GET]: jsonResponse(200, checkedBatch),
      [PREVIEW]: new Response(new Blob(['PK docx']), {
        status: 200,
        headers: {
          'Content-Type': DOCX_MIME_TYPE,
          'Content-Disposition': 'attachment; filename="PL-10001 Verlaengerung.docx"',
        },
      }),
      [START]: jsonResponse(200, running(0, null)),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verlängerung (Kunde, WM)' })).toBeVisible();
    expect(screen.getByText('Geprüft, nicht gestartet')).toBeVisible();
    expect(screen.getByText('2 bereit, 0 brauchen Freigabe, 1 nicht möglich')).toBeVisible();
    expect(cells(screen.getByRole('table', { name: 'Ergebnis der Prüfung' }))).toEqual([
      ['1', 'PL-10001', 'Kunde 1 GmbH', 'Bereit', ''],
      ['2', 'PL-10002', 'Kunde 2 GmbH', 'Bereit', ''],
      ['3', 'PL-10003', '–', 'Nicht möglich', 'Die Match-ID ist unbekannt.'],
    ]);

    // One preview per ready deal (at most three): the deal that cannot be made has none.
    const previews = within(screen.getByRole('group', { name: 'Vorschau' })).getAllByRole('button');
    expect(previews.map((button) => button.textContent)).toEqual(['Vorschau PL-10001', 'Vorschau PL-10002']);
    await userEvent.click(screen.getByRole('button', { name: 'Vorschau PL-10001' }));
    await waitFor(() => expect(downloads).toEqual(['PL-10001 Verlaengerung.docx']));
    expect(api.callsTo(PREVIEW).map((call) => call.url)).toEqual([
      `/backend/batches/${BATCH_ID}/items/item-1/preview`,
    ]);

    await userEvent.click(screen.getByRole('button', { name: 'Serie starten' }));
    expect(await screen.findByRole('progressbar', { name: 'Fortschritt der Serie' })).toHaveAttribute(
      'aria-valuenow',
      '0',
    );
    expect(api.callsTo(START)).toHaveLength(1);
    expect(screen.getByText('Läuft')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Serie starten' })).not.toBeInTheDocument();
  });

  it('cannot start a batch without a deal to make, and says why', async () => {
    const nothing = batch([
      item(1, { verdict: 'cannot', reason: 'Der Vertrag ist schon beendet.', status: 'skipped' }),
    ]);
    const api = renderBatch({ [GET]: jsonResponse(200, nothing) });
    const start = await screen.findByRole('button', { name: 'Serie starten' });
    expect(start).toBeDisabled();
    expect(start).toHaveAccessibleDescription(/^Kein Deal ist bereit/);
    expect(screen.queryByRole('group', { name: 'Vorschau' })).not.toBeInTheDocument();
    expect(api.callsTo('POST')).toHaveLength(0);
  });

  it('says the server’s words when the batch was started elsewhere meanwhile', async () => {
    renderBatch({
      [GET]: [jsonResponse(200, checkedBatch), jsonResponse(200, running(1, 60))],
      [START]: jsonResponse(409, { error: 'conflict', message: 'Die Serie läuft schon.' }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Serie starten' }));
    expect(await screen.findByRole('alert', { name: 'Das hat nicht geklappt.' })).toHaveTextContent(
      'Die Serie läuft schon.',
    );
    // … and shows the batch as it is now.
    expect(await screen.findByRole('progressbar', { name: 'Fortschritt der Serie' })).toBeVisible();
  });
});

describe('BatchPage: the run', () => {
  it('asks every second while the batch runs, shows progress, counts and time left, and stops once it is finished', async () => {
    const api = renderBatch({
      [GET]: [
        jsonResponse(200, running(1, 130)),
        jsonResponse(200, running(2, 20)),
        jsonResponse(200, running(3, null)),
      ],
    });
    await waitFor(() => expect(progressBar()).toHaveAttribute('aria-valuenow', '33'));
    expect(screen.getByText('1 erstellt, 0 fehlgeschlagen, 2 wartend · noch etwa 2 Minuten')).toBeVisible();
    expect(cells(screen.getByRole('table', { name: 'Deals der Serie' }))).toEqual([
      ['1', 'PL-10001', 'Kunde 1 GmbH', 'Erstellt', '', 'Dokument öffnen'],
      ['2', 'PL-10002', 'Kunde 2 GmbH', 'Wartet', '', ''],
      ['3', 'PL-10003', 'Kunde 3 GmbH', 'Wartet', '', ''],
    ]);
    expect(screen.getByRole('link', { name: 'Dokument öffnen (PL-10001)' })).toHaveAttribute(
      'href',
      '/dokumente/doc-1',
    );
    // Cancel is offered while deals wait; retry only once one failed.
    expect(screen.getByRole('button', { name: 'Abbrechen' })).toBeVisible();
    expect(
      screen.queryByRole('button', { name: 'Fehlgeschlagene erneut versuchen' }),
    ).not.toBeInTheDocument();

    await waitFor(() => expect(progressBar()).toHaveAttribute('aria-valuenow', '67'), { timeout: 3000 });
    expect(screen.getByText('2 erstellt, 0 fehlgeschlagen, 1 wartend · noch etwa 20 Sekunden')).toBeVisible();

    await waitFor(() => expect(progressBar()).toHaveAttribute('aria-valuenow', '100'), { timeout: 3000 });
    expect(screen.getByText('Fertig')).toBeVisible();
    expect(screen.getByText('3 erstellt, 0 fehlgeschlagen, 0 wartend')).toBeVisible();
    expect(
      screen.getAllByRole('link', { name: /^Dokument öffnen/ }).map((link) => link.getAttribute('href')),
    ).toEqual(['/dokumente/doc-1', '/dokumente/doc-2', '/dokumente/doc-3']);
    expect(screen.queryByRole('button', { name: 'Abbrechen' })).not.toBeInTheDocument();
    // Finished: no more polls.
    const asked = polls(api).length;
    expect(asked).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(polls(api)).toHaveLength(asked);
  });

  it('shows why a deal failed and tries the failed deals again', async () => {
    const failed = batch(
      [
        item(1, { status: 'done', documentId: 'doc-1' }),
        item(2, { status: 'failed', error: 'Die Vorlage konnte nicht gefüllt werden.' }),
      ],
      { status: 'finished' },
    );
    const again = batch([item(1, { status: 'done', documentId: 'doc-1' }), item(2)], { status: 'running' });
    const api = renderBatch({
      [GET]: [jsonResponse(200, failed), jsonResponse(200, again)],
      [RETRY]: jsonResponse(200, again),
    });
    const table = await screen.findByRole('table', { name: 'Deals der Serie' });
    expect(cells(table)[1]).toEqual([
      '2',
      'PL-10002',
      'Kunde 2 GmbH',
      'Fehlgeschlagen',
      'Die Vorlage konnte nicht gefüllt werden.',
      '',
    ]);
    expect(screen.getByText('1 erstellt, 1 fehlgeschlagen, 0 wartend')).toBeVisible();
    expect(polls(api)).toHaveLength(1);

    await userEvent.click(screen.getByRole('button', { name: 'Fehlgeschlagene erneut versuchen' }));
    await waitFor(() => expect(screen.getByText('Läuft')).toBeVisible());
    expect(api.callsTo(RETRY)).toHaveLength(1);
    expect(cells(table)[1]?.[3]).toBe('Wartet');
    expect(
      screen.queryByRole('button', { name: 'Fehlgeschlagene erneut versuchen' }),
    ).not.toBeInTheDocument();
    // Running again: the page asks for progress again.
    await waitFor(() => expect(polls(api).length).toBeGreaterThan(1), { timeout: 3000 });
  });

  it('cancels the waiting deals only after a confirmation', async () => {
    const cancelled = batch(
      [
        item(1, { status: 'done', documentId: 'doc-1' }),
        item(2, { status: 'cancelled' }),
        item(3, { status: 'cancelled' }),
      ],
      { status: 'cancelled' },
    );
    const api = renderBatch({
      [GET]: jsonResponse(200, running(1, 130)),
      [CANCEL]: jsonResponse(200, cancelled),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Abbrechen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Serie abbrechen?' });
    expect(dialog).toHaveTextContent('2 Deals, die noch warten, werden nicht mehr erstellt.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Weiterlaufen lassen' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.callsTo(CANCEL)).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Serie abbrechen?' })).getByRole('button', {
        name: 'Serie abbrechen',
      }),
    );
    await waitFor(() => expect(api.callsTo(CANCEL)).toHaveLength(1));
    expect(await screen.findByText('2 Deals abgebrochen')).toBeVisible();
    expect(screen.getByRole('heading', { level: 1 }).parentElement).toHaveTextContent('Abgebrochen');
    expect(screen.queryByRole('button', { name: 'Abbrechen' })).not.toBeInTheDocument();
  });
});

describe('BatchPage: e-signature contracts', () => {
  const COUNTERSIGNATURE = 'GET /backend/batches/countersignature';
  const envelopes = batch(
    [
      item(1, { status: 'done', documentId: 'doc-1', envelopeId: 'env-1' }),
      item(2, {
        verdict: 'approval',
        reason: 'Marge remote 12,4 % liegt unter 15 % (WM)',
        status: 'approval',
        documentId: 'doc-2',
        envelopeId: 'env-2',
        approval: { id: 'req-2', status: 'open' },
      }),
      item(3, {
        verdict: 'approval',
        reason: 'Marge onsite fehlt',
        status: 'done',
        documentId: 'doc-3',
        envelopeId: 'env-3',
        approval: { id: 'req-3', status: 'declined' },
      }),
    ],
    {
      docKey: 'de-wm-pp-ev',
      title: 'Einzelauftrag (Projektpartner, WM)',
      status: 'finished',
      startedAt: '2027-03-01T09:31:00.000Z',
      values: { vertragspartner_type: 'pp' },
      send: { countersignatory: 'henrik-albers', message: 'Bitte bis Freitag unterschreiben.' },
    },
  );

  it('shows the send once, each deal’s envelope instead of its document, and where its Freigabe stands', async () => {
    const api = renderBatch({
      [GET]: jsonResponse(200, envelopes),
      [COUNTERSIGNATURE]: jsonResponse(200, {
        options: [{ id: 'henrik-albers', name: 'Henrik Albers', function: 'Geschäftsführer' }],
        withoutAllowed: false,
        position: 'last',
      }),
    });
    const send = await screen.findByRole('region', { name: 'Versand' });
    expect(await within(send).findByText(/Henrik Albers – Geschäftsführer/)).toBeVisible();
    expect(send).toHaveTextContent('Gegenzeichnung: Henrik Albers – Geschäftsführer');
    expect(send).toHaveTextContent('Nachricht an die Unterzeichner: Bitte bis Freitag unterschreiben.');
    expect(api.callsTo(COUNTERSIGNATURE)[0]?.url).toBe(
      '/backend/batches/countersignature?docKey=de-wm-pp-ev',
    );

    const table = screen.getByRole('table', { name: 'Deals der Serie' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Zeile', 'Match-ID', 'Gegenseite', 'Status', 'Hinweis', 'Freigabe', 'Dokument']);
    expect(cells(table).map((row) => row.slice(3))).toEqual([
      ['Erstellt', '', '', 'Umschlag öffnen'],
      [
        'Wartet auf Freigabe',
        'Marge remote 12,4 % liegt unter 15 % (WM)',
        'Freigabe offenZur Freigabe',
        'Umschlag öffnen',
      ],
      ['Erstellt', '', 'AbgelehntZur Freigabe', 'Umschlag öffnen'],
    ]);
    expect(
      screen.getAllByRole('link', { name: /^Umschlag öffnen/ }).map((link) => link.getAttribute('href')),
    ).toEqual(['/signatur/env-1', '/signatur/env-2', '/signatur/env-3']);
    expect(screen.queryByRole('link', { name: /^Dokument öffnen/ })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Freigabe (PL-10002)' })).toHaveAttribute(
      'href',
      `/freigaben/serien/${BATCH_ID}`,
    );
    // A deal without a Freigabe links to none.
    expect(screen.queryByRole('link', { name: 'Zur Freigabe (PL-10001)' })).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'Umschlag öffnen (PL-10001)' }));
    expect(await screen.findByText('Umschlag')).toBeVisible();
  });

  it('says when the envelopes go out without a countersignature and without a message, and asks for no names then', async () => {
    const api = renderBatch({
      [GET]: jsonResponse(200, { ...envelopes, send: { countersignatory: null, message: '' } }),
    });
    const send = await screen.findByRole('region', { name: 'Versand' });
    expect(send).toHaveTextContent('Gegenzeichnung: Ohne Gegenzeichnung');
    expect(send).toHaveTextContent('Nachricht an die Unterzeichner: Keine Nachricht');
    expect(api.callsTo(COUNTERSIGNATURE)).toHaveLength(0);
  });

  it('shows no send for a Word document', async () => {
    renderBatch({ [GET]: jsonResponse(200, checkedBatch) });
    await screen.findByRole('table', { name: 'Ergebnis der Prüfung' });
    expect(screen.queryByRole('region', { name: 'Versand' })).not.toBeInTheDocument();
  });
});

describe('BatchPage: not there', () => {
  it('says so for a batch that is not the user’s or does not exist', async () => {
    renderBatch({ [GET]: jsonResponse(404, { error: 'not_found', message: 'Diese Serie gibt es nicht.' }) });
    expect(await screen.findByRole('heading', { level: 1, name: 'Serie nicht gefunden' })).toBeVisible();
    expect(screen.getByText('Diese Serie gibt es nicht.')).toBeVisible();
    expect(screen.getByRole('link', { name: '← Zurück zu den Serien' })).toHaveAttribute('href', '/serien');
  });

  it('offers to try again when it could not be loaded', async () => {
    renderBatch({
      [GET]: [
        jsonResponse(500, { error: 'internal', message: 'Der Server hat einen Fehler.' }),
        jsonResponse(200, checkedBatch),
      ],
    });
    expect(await screen.findByText('Die Serie konnte nicht geladen werden.')).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByRole('table', { name: 'Ergebnis der Prüfung' })).toBeVisible();
  });
});
