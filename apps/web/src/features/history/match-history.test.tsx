import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { EnvelopeSeal, HistoryEntry, ResolvedMatch } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it } from 'vitest';
import { appRoutes } from '@/app/router';
import { captureDownloads } from '@/test/downloads';
import { fakeAuthService, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { MatchHistory } from './match-history';

const HISTORY = 'GET /backend/matches/PL-12345/documents';

const signedContract: HistoryEntry = {
  documentId: 'doc-3',
  docKey: 'rv-de-wm-k',
  form: 'docusign',
  fileName: 'Rahmenvertrag PL-12345.docx',
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-21T08:05:00Z',
  status: 'ready',
  version: 2,
  templateVersion: 3,
  envelope: {
    id: 'env-1',
    provider: 'builtin',
    status: 'completed',
    updatedAt: '2026-11-21T09:00:00Z',
    recipients: [
      { role: 'Kunde', name: 'Karl Kunde', status: 'signed' },
      { role: 'CC', name: 'Clara Kopie', status: 'copy' },
    ],
    certificateAvailable: true,
    signedPdfAvailable: true,
    seal: { state: 'sealed', level: 'B-LTA' },
  },
};

const sentOffer: HistoryEntry = {
  ...signedContract,
  documentId: 'doc-2',
  docKey: 'angebot-de-wm',
  fileName: 'Angebot PL-12345.docx',
  createdAt: '2026-11-20T16:30:00Z',
  version: 1,
  // Made before templates had versions.
  templateVersion: null,
  envelope: {
    id: 'env-0',
    provider: 'builtin',
    status: 'sent',
    updatedAt: '2026-11-20T16:31:00Z',
    recipients: [{ role: 'Kunde', name: 'Karl Kunde', status: 'opened' }],
    certificateAvailable: false,
    signedPdfAvailable: false,
    seal: null,
  },
};

const rendering: HistoryEntry = {
  ...signedContract,
  documentId: 'doc-4',
  fileName: 'Kündigung PL-12345.docx',
  docKey: 'kuendigung-de-wm',
  createdBy: 'sales@demo.local',
  createdAt: '2026-11-21T10:00:00Z',
  status: 'rendering',
  version: null,
  envelope: null,
};

const failed: HistoryEntry = {
  ...rendering,
  documentId: 'doc-1',
  fileName: 'Zusatzvereinbarung PL-12345.docx',
  docKey: 'zusatz-de-wm',
  createdAt: '2026-11-19T07:00:00Z',
  status: 'failed',
};

const history = [rendering, signedContract, sentOffer, failed];

let downloads: string[];

beforeEach(() => {
  downloads = captureDownloads();
});

function renderHistory() {
  return renderRoutes([{ path: '/start', element: <MatchHistory matchId="PL-12345" /> }], '/start');
}

const findTable = () => screen.findByRole('table', { name: 'Dokumente dieses Matches' });

function rowOf(table: HTMLElement, fileName: string): HTMLElement {
  const row = within(table)
    .getAllByRole('row')
    .find((candidate) => candidate.textContent?.includes(fileName));
  if (!row) throw new Error(`no row ${fileName}`);
  return row;
}

const cellsOf = (row: HTMLElement) => within(row).getAllByRole('cell');

describe('MatchHistory', () => {
  it('lists the documents newest first with creator, time, status, version and template version', async () => {
    const api = stubApi({ [HISTORY]: jsonResponse(200, history) });
    renderHistory();
    const table = await findTable();

    expect(screen.getByRole('region', { name: 'Dokumente dieses Matches' })).toContainElement(table);
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Dokument', 'erstellt von', 'am', 'Status', 'Version', 'Aktionen']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((row) =>
        cellsOf(row)
          .slice(0, 5)
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      [
        'Kündigung PL-12345.docxkuendigung-de-wm · Vorlage Version 3',
        'sales@demo.local',
        '21.11.2026 11:00',
        'Wird erstellt',
        '',
      ],
      [
        'Rahmenvertrag PL-12345.docxrv-de-wm-k · Vorlage Version 3',
        'legal@demo.local',
        '21.11.2026 09:05',
        'AbgeschlossenVersiegelt · PAdES B-LTASiegel mit Zeitstempel und Langzeitnachweis: Die Prüfdaten (Zertifikate und Sperrauskünfte) sind im PDF eingebettet, ein Archivzeitstempel wird vor seinem Ablauf erneuert.Karl Kunde: UnterschriebenClara Kopie: Erhält Kopie',
        '2',
      ],
      [
        'Angebot PL-12345.docxangebot-de-wm',
        'legal@demo.local',
        '20.11.2026 17:30',
        'VersendetKarl Kunde: Geöffnet',
        '1',
      ],
      [
        'Zusatzvereinbarung PL-12345.docxzusatz-de-wm · Vorlage Version 3',
        'sales@demo.local',
        '19.11.2026 08:00',
        'Fehlgeschlagen',
        '',
      ],
    ]);
    expect(api.callsTo(HISTORY)).toHaveLength(1);
  });

  it('says in words how each completed envelope is sealed, or that its seal is pending and why', async () => {
    const completed = (documentId: string, fileName: string, seal: EnvelopeSeal, provider = 'builtin') => ({
      ...signedContract,
      documentId,
      fileName,
      envelope: {
        ...(signedContract.envelope as NonNullable<HistoryEntry['envelope']>),
        id: `env-${documentId}`,
        provider: provider as 'builtin' | 'docusign',
        signedPdfAvailable: seal.state !== 'pending',
        seal,
      },
    });
    stubApi({
      [HISTORY]: jsonResponse(200, [
        completed('d-bb', 'Ohne Zeitstempel.docx', { state: 'sealed', level: 'B-B' }),
        completed('d-lta', 'Langzeit.docx', { state: 'sealed', level: 'B-LTA' }),
        completed('d-wait', 'Wartet.docx', { state: 'pending', problem: null }),
        completed('d-tsa', 'Zeitstempel fehlt.docx', { state: 'pending', problem: 'timestamp_unreachable' }),
        completed('d-ds', 'DocuSign.docx', { state: 'docusign' }, 'docusign'),
        sentOffer,
      ]),
    });
    renderHistory();
    const table = await findTable();
    const status = (fileName: string) => cellsOf(rowOf(table, fileName))[3] as HTMLElement;

    expect(status('Ohne Zeitstempel.docx')).toHaveTextContent(
      'Versiegelt · PAdES B-B' +
        'Siegel ohne vertrauenswürdige Zeit: Wann versiegelt wurde, bestätigt kein Zeitstempeldienst.',
    );
    expect(within(status('Langzeit.docx')).getByText('Versiegelt · PAdES B-LTA')).toBeVisible();
    expect(
      within(status('Langzeit.docx')).getByText(/^Siegel mit Zeitstempel und Langzeitnachweis/),
    ).toHaveTextContent(/Archivzeitstempel wird vor seinem Ablauf erneuert/);
    expect(within(status('Langzeit.docx')).queryByText(/qualifiziert/i)).toBeNull();
    expect(within(status('Wartet.docx')).getByText('Siegel ausstehend')).toBeVisible();
    expect(
      within(status('Zeitstempel fehlt.docx')).getByText(
        'Siegel ausstehend: Zeitstempeldienst nicht erreichbar – wird erneut versucht',
      ),
    ).toBeVisible();
    expect(within(status('DocuSign.docx')).getByText('Von DocuSign versiegelt')).toBeVisible();
    expect(status('Angebot')).not.toHaveTextContent(/Siegel|versiegelt/i);
    // Nothing hidden in a tooltip: no title attribute carries the words.
    expect(table.querySelector('[title]')).toBeNull();
  });

  it("offers a finished document in the editor and as a file, its envelope in a new tab and a completed envelope's certificate", async () => {
    stubApi({ [HISTORY]: jsonResponse(200, history) });
    renderHistory();
    const table = await findTable();

    const actions = (fileName: string) => within(cellsOf(rowOf(table, fileName))[5] as HTMLElement);
    expect(actions('Kündigung').queryAllByRole('button')).toEqual([]);
    expect(actions('Kündigung').queryAllByRole('link')).toEqual([]);
    expect(actions('Zusatzvereinbarung').queryAllByRole('button')).toEqual([]);

    expect(
      actions('Rahmenvertrag')
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Herunterladen', 'Signiertes PDF', 'Zertifikat']);
    const editor = actions('Rahmenvertrag').getByRole('link', { name: 'Öffnen' });
    expect(editor).toHaveAttribute('href', '/dokumente/doc-3');
    expect(editor).toHaveAttribute('target', '_blank');
    const envelope = actions('Rahmenvertrag').getByRole('link', { name: 'Umschlag öffnen' });
    expect(envelope).toHaveAttribute('href', '/signatur/env-1');
    expect(envelope).toHaveAttribute('target', '_blank');

    expect(
      actions('Angebot')
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Herunterladen']);
    expect(actions('Angebot').getByRole('link', { name: 'Öffnen' })).toHaveAttribute(
      'href',
      '/dokumente/doc-2',
    );
    expect(actions('Angebot').getByRole('link', { name: 'Umschlag öffnen' })).toHaveAttribute(
      'href',
      '/signatur/env-0',
    );
  });

  it('downloads the latest version of a document, the signed PDF and a certificate', async () => {
    const api = stubApi({
      [HISTORY]: jsonResponse(200, history),
      'GET /backend/documents/doc-3/download': new Response('docx'),
      'GET /backend/signature/envelopes/env-1/signed-pdf': new Response('sealed pdf'),
      'GET /backend/signature/envelopes/env-1/certificate': new Response('pdf'),
    });
    renderHistory();
    const row = rowOf(await findTable(), 'Rahmenvertrag');

    await userEvent.click(within(row).getByRole('button', { name: 'Herunterladen' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Signiertes PDF' }));
    await userEvent.click(within(row).getByRole('button', { name: 'Zertifikat' }));
    await waitFor(() =>
      expect(downloads).toEqual([
        'Rahmenvertrag PL-12345.docx',
        'Rahmenvertrag PL-12345 - unterschrieben.pdf',
        'Abschlusszertifikat Rahmenvertrag PL-12345.pdf',
      ]),
    );
    expect(api.callsTo('GET /backend/documents/doc-3/download')).toHaveLength(1);
    expect(api.callsTo('GET /backend/signature/envelopes/env-1/signed-pdf')).toHaveLength(1);
  });

  it('offers no signed PDF while an envelope is open', async () => {
    stubApi({ [HISTORY]: jsonResponse(200, history) });
    renderHistory();
    const row = rowOf(await findTable(), 'Angebot');
    expect(within(row).queryByRole('button', { name: 'Signiertes PDF' })).toBeNull();
  });

  it("reports a failed download in the server's words", async () => {
    const message = 'Die Datei ist nicht mehr vorhanden.';
    stubApi({
      [HISTORY]: jsonResponse(200, history),
      'GET /backend/documents/doc-3/download': jsonResponse(404, { error: 'not_found', message }),
    });
    renderHistory();
    const row = rowOf(await findTable(), 'Rahmenvertrag');
    await userEvent.click(within(row).getByRole('button', { name: 'Herunterladen' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(downloads).toEqual([]);
  });

  it('says where an envelope stands with its approval', async () => {
    const draft = (
      documentId: string,
      fileName: string,
      approval: 'open' | 'declined' | null,
    ): HistoryEntry => ({
      ...sentOffer,
      documentId,
      fileName,
      envelope: sentOffer.envelope && { ...sentOffer.envelope, id: documentId, status: 'created', approval },
    });
    stubApi({
      [HISTORY]: jsonResponse(200, [
        draft('doc-7', 'Projektvertrag A.docx', 'open'),
        draft('doc-8', 'Projektvertrag B.docx', 'declined'),
        draft('doc-9', 'Projektvertrag C.docx', null),
      ]),
    });
    renderHistory();
    const table = await findTable();
    expect(within(rowOf(table, 'Projektvertrag A')).getByText('Wartet auf Freigabe')).toBeInTheDocument();
    expect(within(rowOf(table, 'Projektvertrag B')).getByText('Freigabe: Abgelehnt')).toBeInTheDocument();
    expect(within(rowOf(table, 'Projektvertrag C')).queryByText(/Freigabe/)).toBeNull();
  });

  it('says where a downloaded document stands with its approval', async () => {
    const downloaded = (
      documentId: string,
      fileName: string,
      approval: 'open' | 'approved' | null,
    ): HistoryEntry => ({ ...rendering, documentId, fileName, status: 'ready', version: 2, approval });
    stubApi({
      [HISTORY]: jsonResponse(200, [
        downloaded('doc-10', 'Kündigung A.docx', 'open'),
        downloaded('doc-11', 'Kündigung B.docx', 'approved'),
        downloaded('doc-12', 'Kündigung C.docx', null),
      ]),
    });
    renderHistory();
    const table = await findTable();
    expect(within(rowOf(table, 'Kündigung A')).getByText('Wartet auf Freigabe')).toBeInTheDocument();
    expect(within(rowOf(table, 'Kündigung B')).getByText('Freigabe: Freigegeben')).toBeInTheDocument();
    expect(within(rowOf(table, 'Kündigung C')).queryByText(/Freigabe/)).toBeNull();
  });

  it('says when no document was made for the match yet', async () => {
    stubApi({ [HISTORY]: jsonResponse(200, []) });
    renderHistory();
    expect(
      await screen.findByText('Für dieses Match wurden noch keine Dokumente erstellt.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('shows why the list could not be loaded', async () => {
    const message = 'Die Dokumente sind gerade nicht abrufbar.';
    stubApi({ [HISTORY]: jsonResponse(503, { error: 'unavailable', message }) });
    renderHistory();
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
  });
});

describe('MatchHistory on /start', () => {
  const match: ResolvedMatch = { matchId: 'PL-12345', kunde: 'Elbwerk GmbH' };

  it('shows the documents under the loaded match', async () => {
    localStorage.setItem('matchId', 'PL-12345');
    stubApi({
      'POST /backend/private/verifyUser': jsonResponse(200, {
        email: 'legal@demo.local',
        name: 'Lena Legal',
        permission: 2,
      }),
      'POST /backend/match/PL-12345': jsonResponse(200, match),
      [HISTORY]: jsonResponse(200, [signedContract]),
    });
    const auth = fakeAuthService();
    renderRoutes(appRoutes(auth), '/start', auth);

    const matchTable = await screen.findByRole('table', { name: 'Match PL-12345' });
    const documents = await findTable();
    expect(matchTable.compareDocumentPosition(documents) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(documents).toHaveTextContent('Rahmenvertrag PL-12345.docx');
  });

  it('shows them on each form too, under the form', async () => {
    localStorage.setItem('matchId', 'PL-12345');
    stubApi({
      'POST /backend/private/verifyUser': jsonResponse(200, {
        email: 'legal@demo.local',
        name: 'Lena Legal',
        permission: 2,
      }),
      'POST /backend/match/PL-12345': jsonResponse(200, match),
      'GET /backend/users': jsonResponse(200, []),
      'GET /backend/signatories': jsonResponse(200, []),
      [HISTORY]: jsonResponse(200, [signedContract]),
    });
    const auth = fakeAuthService();
    renderRoutes(appRoutes(auth), '/termination', auth);

    const documents = await findTable();
    expect(documents).toHaveTextContent('Rahmenvertrag PL-12345.docx');
    const submit = screen.getByRole('button', { name: 'Dokument erstellen' });
    expect(submit.compareDocumentPosition(documents) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });
});
