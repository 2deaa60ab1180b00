import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoredDocument } from '@vertragsgenerator/domain';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { captureDownloads } from '@/test/downloads';
import { readText } from '@/test/files';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import type { DocxEditorOptions } from './docx-editor';
import { type DocumentPanelContext, EditorPage } from './editor-page';
import { contractFields } from './test-fixtures';

/** What the page asked of the editor module, per opening, with what the fake editor hands back. */
interface OpenedEditor {
  docx: string;
  options: DocxEditorOptions;
  exported: string;
  destroyed: boolean;
  /** `performance.now()` when the editor showed the document. */
  shownAt: number;
}

const editors = vi.hoisted(() => ({
  opened: [] as OpenedEditor[],
  failNext: false,
  /** While set, an opened editor is not ready until it resolves. */
  held: undefined as Promise<void> | undefined,
}));

// jsdom cannot run superdoc; the browser test (e2e/editor.spec.ts) covers the real editor.
vi.mock('./docx-editor', () => ({
  openDocxEditor: async (_container: HTMLElement, docx: Blob, options: DocxEditorOptions) => {
    if (editors.failNext) throw new Error('superdoc failed');
    const opened: OpenedEditor = {
      docx: await docx.text(),
      options,
      exported: '',
      destroyed: false,
      shownAt: performance.now(),
    };
    editors.opened.push(opened);
    await editors.held;
    return {
      exportDocx: async () => new Blob([opened.exported || `${opened.docx} bearbeitet`]),
      destroy: () => {
        opened.destroyed = true;
      },
    };
  },
}));

// The first view has tests of its own (components/docx-first-view); here it cannot render the file, so
// that superdoc's fake decides what the page shows (and opens at once, as after a first view).
vi.mock('@/components/docx-first-view/load-first-view', () => ({
  loadFirstViewRenderer: async () => ({
    renderFirstView: () => Promise.reject(new Error('no first view in this test')),
  }),
}));

const DOCUMENT = 'GET /backend/documents/doc-1';
const LATEST_FILE = 'GET /backend/documents/doc-1/file';
const VERSION_FILE = (version: number) => `GET /backend/documents/doc-1/versions/${version}/file`;
/** The download a person saves, gated by the document's approval (download-approval.tsx). */
const DOWNLOAD = (version: number) => `GET /backend/documents/doc-1/download?version=${version}`;
const SAVE = 'PUT /backend/documents/doc-1';

const version1 = {
  version: 1,
  size: 24_310,
  sha256: 'a'.repeat(64),
  createdBy: 'legal@demo.local',
  createdAt: '2026-11-20T09:00:00Z',
};
const version2 = {
  version: 2,
  size: 1_250_000,
  sha256: 'b'.repeat(64),
  createdBy: 'leitung@demo.local',
  createdAt: '2026-11-21T10:30:00Z',
};
const version3 = { ...version2, version: 3, size: 25_000, createdBy: 'nutzer@demo.local' };

const storedDocument: StoredDocument = {
  ...contractFields,
  versions: [version2, version1],
};
const savedDocument: StoredDocument = { ...storedDocument, versions: [version3, version2, version1] };

function docxFile(content: string, version: number | string) {
  return () => new Response(content, { status: 200, headers: { 'x-document-version': String(version) } });
}

let downloads: string[];

beforeEach(() => {
  editors.opened = [];
  editors.failNext = false;
  editors.held = undefined;
  downloads = captureDownloads();
});

function renderEditor() {
  return renderRoutes(
    [
      { path: '/dokumente/:documentId', element: <EditorPage /> },
      { path: '/start', element: <p>Startseite</p> },
    ],
    '/dokumente/doc-1',
  );
}

/** The line under the title: match, version and whether there are unsaved changes. */
const heading = () =>
  screen.getByText((_, element) => element?.tagName === 'P' && /^Match:/.test(element.textContent ?? ''));
const saveButton = () => screen.getByRole('button', { name: 'Speichern' });
const versionTable = () => screen.getByRole('table', { name: 'Versionen' });
const lastEditor = () => {
  const editor = editors.opened.at(-1);
  if (!editor) throw new Error('no editor opened');
  return editor;
};

/** Waits until the editor shows the document and the page lets the user save. */
async function editorReady(count = 1) {
  await waitFor(() => expect(editors.opened).toHaveLength(count));
  await waitFor(() => expect(saveButton()).toBeEnabled());
}

/** What superdoc reports when the user types. */
function edit() {
  act(() => lastEditor().options.onChange());
}

function versionRow(version: number): HTMLElement {
  const row = within(versionTable())
    .getAllByRole('row')
    .slice(1)
    .find((candidate) => within(candidate).getAllByRole('cell')[0]?.textContent?.startsWith(String(version)));
  if (!row) throw new Error(`no row for version ${version}`);
  return row;
}

describe('EditorPage', () => {
  it('opens the newest version for editing, with the file name, match and version list', async () => {
    stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('DOCX v2', 2) });
    renderEditor();

    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(storedDocument.fileName);
    await editorReady();
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v2', options: { readOnly: false } });
    expect(heading()).toHaveTextContent('Match: PL-10001 · Version: 2');
    expect(
      within(versionTable())
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Version', 'gespeichert von', 'am', 'Größe', 'Aktionen']);
    // In units of 1024: 1 250 000 bytes are 1,19 MB, 24 310 bytes 23,74 kB.
    expect(
      within(versionTable())
        .getAllByRole('row')
        .slice(1)
        .map((row) =>
          within(row)
            .getAllByRole('cell')
            .slice(0, 4)
            .map((cell) => cell.textContent),
        ),
    ).toEqual([
      ['2neuestegeöffnet', 'leitung@demo.local', '21.11.2026 11:30', '1,2 MB'],
      ['1', 'legal@demo.local', '20.11.2026 10:00', '23,7 kB'],
    ]);
    expect(within(versionRow(2)).getByRole('button', { name: 'Öffnen' })).toBeDisabled();
  });

  it('saves the edited DOCX with If-Match of the version it started from, once per double click', async () => {
    let release: (response: Response) => void = () => {};
    const api = stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [SAVE]: [
        () => new Promise<Response>((resolve) => (release = resolve)),
        jsonResponse(200, {
          ...savedDocument,
          versions: [{ ...version3, version: 4 }, ...savedDocument.versions],
        }),
      ],
    });
    renderEditor();
    await editorReady();
    edit();
    expect(screen.getByText('Ungespeicherte Änderungen')).toBeInTheDocument();

    fireEvent.click(saveButton());
    fireEvent.click(saveButton());
    await waitFor(() => expect(api.headersOf(SAVE)).toHaveLength(1));
    release(jsonResponse(200, savedDocument));

    expect(await screen.findByText('Gespeichert als Version 3')).toBeInTheDocument();
    expect(api.headersOf(SAVE)).toHaveLength(1);
    const [, init] = api.fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT') ?? [];
    expect(new Headers(init?.headers).get('If-Match')).toBe('"2"');
    expect(new Headers(init?.headers).get('Content-Type')).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(await readText(init?.body as Blob)).toBe('DOCX v2 bearbeitet');
    expect(screen.queryByText('Ungespeicherte Änderungen')).not.toBeInTheDocument();
    expect(heading()).toHaveTextContent('Version: 3');
    expect(within(versionRow(3)).getAllByRole('cell')[0]).toHaveTextContent('3neuestegeöffnet');

    // The next save builds on the version just saved, in the same editor.
    await userEvent.click(saveButton());
    expect(await screen.findByText('Gespeichert als Version 4')).toBeInTheDocument();
    expect(api.headersOf(SAVE).map((headers) => headers.get('If-Match'))).toEqual(['"2"', '"3"']);
    expect(editors.opened).toHaveLength(1);
  });

  it('keeps the changes marked that were made while the save ran', async () => {
    let release: (response: Response) => void = () => {};
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [SAVE]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderEditor();
    await editorReady();
    edit();
    await userEvent.click(saveButton());
    edit();
    release(jsonResponse(200, savedDocument));
    expect(await screen.findByText('Gespeichert als Version 3')).toBeInTheDocument();
    expect(screen.getByText('Ungespeicherte Änderungen')).toBeInTheDocument();
  });

  it('on a conflict shows the server message; Neu laden opens the newest version, Abbrechen keeps the edit', async () => {
    const message =
      'Das Dokument wurde inzwischen von leitung@demo.local gespeichert (Version 3, 21.11.2026 12:00). Lade die neue Version, bevor du speicherst.';
    const api = stubApi({
      [DOCUMENT]: [jsonResponse(200, storedDocument), jsonResponse(200, savedDocument)],
      [LATEST_FILE]: [docxFile('DOCX v2', 2), docxFile('DOCX v3', 3)],
      [SAVE]: jsonResponse(409, { error: 'version_conflict', message }),
    });
    renderEditor();
    await editorReady();
    edit();

    await userEvent.click(saveButton());
    let dialog = await screen.findByRole('dialog', { name: 'Neuere Version vorhanden' });
    expect(dialog).toHaveTextContent(message);
    expect(dialog).toHaveTextContent('Wenn du neu lädst, gehen deine ungespeicherten Änderungen verloren.');
    // The list shows the version that got in the way.
    await waitFor(() => expect(versionRow(3)).toBeInTheDocument());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Abbrechen' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Ungespeicherte Änderungen')).toBeInTheDocument();
    expect(lastEditor().destroyed).toBe(false);

    await userEvent.click(saveButton());
    dialog = await screen.findByRole('dialog', { name: 'Neuere Version vorhanden' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Neu laden' }));
    await editorReady(2);
    expect(editors.opened[0]?.destroyed).toBe(true);
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v3', options: { readOnly: false } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('Ungespeicherte Änderungen')).not.toBeInTheDocument();
    expect(heading()).toHaveTextContent('Version: 3');
    expect(api.headersOf(LATEST_FILE)).toHaveLength(2);
  });

  it('opens an older version read-only with a hint, and the newest one again', async () => {
    const api = stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [VERSION_FILE(1)]: docxFile('DOCX v1', 1),
    });
    renderEditor();
    await editorReady();

    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Öffnen' }));
    await waitFor(() => expect(editors.opened).toHaveLength(2));
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v1', options: { readOnly: true } });
    expect(api.headersOf(VERSION_FILE(1))).toHaveLength(1);
    expect(
      screen.getByText(
        'Du siehst Version 1. Ältere Versionen kannst du nur ansehen und herunterladen; bearbeiten kannst du die neueste.',
      ),
    ).toBeInTheDocument();
    expect(saveButton()).toBeDisabled();
    expect(within(versionRow(1)).getAllByRole('cell')[0]).toHaveTextContent('1geöffnet');

    await userEvent.click(screen.getByRole('button', { name: 'Neueste Version öffnen' }));
    await editorReady(3);
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v2', options: { readOnly: false } });
    expect(screen.queryByText(/Du siehst Version/)).not.toBeInTheDocument();
  });

  it('a save that ends after another version was opened leaves that version as it is', async () => {
    let release: (response: Response) => void = () => {};
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [VERSION_FILE(1)]: docxFile('DOCX v1', 1),
      [SAVE]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderEditor();
    await editorReady();
    await userEvent.click(saveButton());
    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Öffnen' }));
    await waitFor(() => expect(editors.opened).toHaveLength(2));

    release(jsonResponse(200, savedDocument));
    expect(await screen.findByText('Gespeichert als Version 3')).toBeInTheDocument();
    expect(heading()).toHaveTextContent('Version: 1');
    expect(within(versionRow(1)).getAllByRole('cell')[0]).toHaveTextContent('1geöffnet');
    expect(saveButton()).toBeDisabled();
  });

  it('asks before unsaved changes are dropped for another version', async () => {
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [VERSION_FILE(1)]: docxFile('DOCX v1', 1),
    });
    renderEditor();
    await editorReady();
    edit();

    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Öffnen' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ungespeicherte Änderungen verwerfen?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Weiter bearbeiten' }));
    expect(editors.opened).toHaveLength(1);
    expect(screen.getByText('Ungespeicherte Änderungen')).toBeInTheDocument();

    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Öffnen' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Ungespeicherte Änderungen verwerfen?' })).getByRole(
        'button',
        { name: 'Verwerfen' },
      ),
    );
    await waitFor(() => expect(editors.opened).toHaveLength(2));
    expect(lastEditor().docx).toBe('DOCX v1');
  });

  it('warns before the tab is left with unsaved changes, inside the app and by the browser', async () => {
    stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('DOCX v2', 2) });
    const { router } = renderEditor();
    await editorReady();
    const leave = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(leave()).toBe(false);

    edit();
    expect(leave()).toBe(true);
    await act(() => router.navigate('/start'));
    const dialog = await screen.findByRole('dialog', { name: 'Ungespeicherte Änderungen verwerfen?' });
    expect(router.state.location.pathname).toBe('/dokumente/doc-1');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen' }));
    expect(await screen.findByText('Startseite')).toBeInTheDocument();
  });

  it('downloads the shown version and any version of the list under the file name', async () => {
    const api = stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [DOWNLOAD(1)]: docxFile('DOCX v1', 1),
      [DOWNLOAD(2)]: docxFile('DOCX v2', 2),
      'GET /backend/documents/doc-1/approval': jsonResponse(200, {
        applies: true,
        version: 2,
        required: false,
        reasons: [],
        reasonTexts: [],
        released: null,
        request: null,
      }),
    });
    renderEditor();
    await editorReady();

    const toolbarDownload = screen
      .getAllByRole('button', { name: 'Herunterladen' })
      .find((button) => !versionTable().contains(button));
    if (!toolbarDownload) throw new Error('no download button above the editor');
    await userEvent.click(toolbarDownload);
    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Herunterladen' }));
    await waitFor(() => expect(downloads).toEqual([storedDocument.fileName, storedDocument.fileName]));
    expect(api.headersOf(DOWNLOAD(2))).toHaveLength(1);
    expect(api.headersOf(DOWNLOAD(1))).toHaveLength(1);
  });

  it('reports a failed save in the server’s words and keeps the changes', async () => {
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [SAVE]: jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die Datei ist kein gültiges Word-Dokument (DOCX).',
      }),
    });
    renderEditor();
    await editorReady();
    edit();
    await userEvent.click(saveButton());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Speichern fehlgeschlagenDie Datei ist kein gültiges Word-Dokument (DOCX).',
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Ungespeicherte Änderungen')).toBeInTheDocument();
    expect(saveButton()).toBeEnabled();
  });

  it('keeps superdoc’s toolbar hidden and out of reach until the editor is ready', async () => {
    let ready = () => {};
    editors.held = new Promise((resolve) => {
      ready = resolve;
    });
    stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('DOCX v2', 2) });
    renderEditor();
    await waitFor(() => expect(editors.opened).toHaveLength(1));
    const toolbar = document.getElementById(lastEditor().options.toolbarId);
    expect(toolbar).toHaveAttribute('inert');
    expect(toolbar).toHaveStyle({ visibility: 'hidden' });

    await act(async () => ready());
    await editorReady();
    expect(toolbar).not.toHaveAttribute('inert');
    expect(toolbar).toHaveStyle({ visibility: 'visible' });
  });

  it('offers the download when the editor cannot open the file', async () => {
    editors.failNext = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('kein DOCX', 2),
      [VERSION_FILE(2)]: docxFile('kein DOCX', 2),
    });
    renderEditor();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Das Dokument kann hier nicht bearbeitet werden');
    expect(saveButton()).toBeDisabled();
    await userEvent.click(within(alert).getByRole('button', { name: 'Herunterladen' }));
    await waitFor(() => expect(downloads).toEqual([storedDocument.fileName]));
  });

  it('says clearly when the user may not open the document', async () => {
    stubApi({
      [DOCUMENT]: jsonResponse(403, {
        error: 'forbidden',
        message: 'Dieses Dokument darfst du mit deiner Berechtigung nicht sehen.',
      }),
      [LATEST_FILE]: jsonResponse(403, { error: 'forbidden', message: 'x' }),
    });
    renderEditor();
    expect(await screen.findByRole('heading', { name: 'Kein Zugriff' })).toBeInTheDocument();
    expect(screen.getByText('Dieses Dokument darfst du nicht öffnen.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Zur Match-ID-Eingabe' })).toHaveAttribute('href', '/start');
    expect(editors.opened).toEqual([]);
  });

  it.each(['2.0', '0x2', '-2', ''])(
    'takes a newest file sent with version %j for an unexpected answer and opens no editor',
    async (odd) => {
      stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('DOCX v2', odd) });
      renderEditor();
      const alert = await screen.findByRole('alert');
      expect(alert).toHaveTextContent('Der Server hat unerwartet geantwortet. Bitte versuche es erneut.');
      expect(editors.opened).toEqual([]);
    },
  );

  it('shows why the document could not be loaded and tries again on request', async () => {
    const api = stubApi({
      [DOCUMENT]: [
        jsonResponse(404, { error: 'not_found', message: 'Dieses Dokument gibt es nicht.' }),
        jsonResponse(200, storedDocument),
      ],
      [LATEST_FILE]: docxFile('DOCX v2', 2),
    });
    renderEditor();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Das Dokument konnte nicht geladen werdenDieses Dokument gibt es nicht.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Erneut versuchen' }));
    await editorReady();
    const calls = api.fetchMock.mock.calls.map(([url, init]) => `${init?.method ?? 'GET'} ${String(url)}`);
    expect(calls.filter((call) => call === DOCUMENT)).toHaveLength(2);
  });
});

describe('timing of the opened document', () => {
  // The name the benchmark of submit → opened document reads (bench/browser).
  const shownMarks = () => performance.getEntriesByName('editor:document-shown', 'mark');

  beforeEach(() => performance.clearMarks());

  it('marks when the editor shows the document, once per opening', async () => {
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: docxFile('DOCX v2', 2),
      [VERSION_FILE(1)]: docxFile('DOCX v1', 1),
    });
    renderEditor();
    expect(shownMarks()).toHaveLength(0);
    await editorReady();
    await waitFor(() => expect(shownMarks()).toHaveLength(1));
    expect(shownMarks()[0]?.startTime).toBeGreaterThanOrEqual(lastEditor().shownAt);

    await userEvent.click(within(versionRow(1)).getByRole('button', { name: 'Öffnen' }));
    await waitFor(() => expect(editors.opened).toHaveLength(2));
    await waitFor(() => expect(shownMarks()).toHaveLength(2));
    expect(shownMarks()[1]?.startTime).toBeGreaterThanOrEqual(lastEditor().shownAt);
  });

  it('marks the document editable once the editor is ready', async () => {
    stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('DOCX v2', 2) });
    renderEditor();
    await editorReady();
    await waitFor(() =>
      expect(performance.getEntriesByName('editor:document-editable', 'mark')).toHaveLength(1),
    );
  });

  it('marks nothing when the editor cannot open the file', async () => {
    editors.failNext = true;
    vi.spyOn(console, 'error').mockImplementation(() => {});
    stubApi({ [DOCUMENT]: jsonResponse(200, storedDocument), [LATEST_FILE]: docxFile('kein DOCX', 2) });
    renderEditor();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Das Dokument kann hier nicht bearbeitet werden',
    );
    expect(shownMarks()).toHaveLength(0);
  });
});

describe('EditorPage: a panel below the editor (app/ puts the negotiation there)', () => {
  /** Stands in for the panel: what the page tells it, and its way to say the server made a version. */
  function Panel({ latestVersion, dirty, onDocumentChanged }: DocumentPanelContext) {
    const [settled, setSettled] = useState(0);
    return (
      <section aria-label="Panel">
        <p>{`neueste: ${latestVersion} · ungespeichert: ${dirty} · fertig: ${settled}`}</p>
        <button type="button" onClick={() => void onDocumentChanged().then(() => setSettled((n) => n + 1))}>
          Neue Version gemacht
        </button>
      </section>
    );
  }

  function renderWithPanel() {
    return renderRoutes(
      [
        {
          path: '/dokumente/:documentId',
          element: <EditorPage panel={(context) => <Panel {...context} />} />,
        },
      ],
      '/dokumente/doc-1',
    );
  }

  const panel = () => within(screen.getByRole('region', { name: 'Panel' }));

  it('tells the panel the newest version and unsaved changes, and opens the version the server made', async () => {
    const api = stubApi({
      [DOCUMENT]: [jsonResponse(200, storedDocument), jsonResponse(200, savedDocument)],
      [LATEST_FILE]: [docxFile('DOCX v2', 2), docxFile('DOCX v3', 3)],
    });
    renderWithPanel();
    await editorReady();
    expect(panel().getByText('neueste: 2 · ungespeichert: false · fertig: 0')).toBeInTheDocument();

    await userEvent.click(panel().getByRole('button', { name: 'Neue Version gemacht' }));
    // Settled once the versions are read again: the panel's next call builds on version 3.
    expect(await panel().findByText('neueste: 3 · ungespeichert: false · fertig: 1')).toBeInTheDocument();
    await editorReady(2);
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v3', options: { readOnly: false } });
    expect(heading()).toHaveTextContent('Version: 3');
    expect(api.headersOf(LATEST_FILE)).toHaveLength(2);
  });

  it('shows the panel once the document’s file is here, not before: the tab shows the document first', async () => {
    let release: (response: Response) => void = () => {};
    stubApi({
      [DOCUMENT]: jsonResponse(200, storedDocument),
      [LATEST_FILE]: () => new Promise<Response>((resolve) => (release = resolve)),
    });
    renderWithPanel();
    expect(await screen.findByRole('heading', { level: 1 })).toHaveTextContent(storedDocument.fileName);
    expect(screen.queryByRole('region', { name: 'Panel' })).not.toBeInTheDocument();
    release(docxFile('DOCX v2', 2)());
    expect(await screen.findByRole('region', { name: 'Panel' })).toBeInTheDocument();
    // Settled before the next test: its editor would otherwise open into that test's list.
    await editorReady();
  });

  it('asks before it drops unsaved changes for the version the server made', async () => {
    stubApi({
      [DOCUMENT]: [jsonResponse(200, storedDocument), jsonResponse(200, savedDocument)],
      [LATEST_FILE]: [docxFile('DOCX v2', 2), docxFile('DOCX v3', 3)],
    });
    renderWithPanel();
    await editorReady();
    edit();
    expect(panel().getByText(/ungespeichert: true/)).toBeInTheDocument();

    await userEvent.click(panel().getByRole('button', { name: 'Neue Version gemacht' }));
    const dialog = await screen.findByRole('dialog', { name: 'Ungespeicherte Änderungen verwerfen?' });
    expect(editors.opened).toHaveLength(1);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Verwerfen' }));
    await editorReady(2);
    expect(lastEditor()).toMatchObject({ docx: 'DOCX v3' });
  });
});
