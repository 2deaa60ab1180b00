import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MatchImportSummary } from '@vertragsgenerator/domain';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { chooseInDialog, savedAfterChoice } from '@/test/files';
import { renderWithProviders } from '@/test/utils';
import { MatchImportTab } from './match-import-tab';

const UNREADABLE = 'Die Datei konnte nicht gelesen werden. Wähle sie bitte noch einmal aus.';

const summary = (counts: Partial<MatchImportSummary>): MatchImportSummary => ({
  new: 0,
  changed: 0,
  unchanged: 0,
  refused: [],
  imported: 0,
  ...counts,
});

/** What reached the import route, and the summaries it answers with, one per upload. */
let uploads: { url: string; body: string }[];
let answers: MatchImportSummary[];

/**
 * XMLHttpRequest as a browser runs an upload: it reads the file while sending, and a file it cannot
 * read ends the request with an error event, as a network failure does.
 */
class UploadRequest {
  upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  private url = '';

  open(_method: string, url: string) {
    this.url = url;
  }

  setRequestHeader() {}

  getResponseHeader(name: string) {
    return name.toLowerCase() === 'content-type' ? 'application/json' : null;
  }

  send(body: Blob) {
    body.arrayBuffer().then(
      (bytes) => {
        uploads.push({ url: this.url, body: new TextDecoder().decode(bytes) });
        this.status = 200;
        this.responseText = JSON.stringify(answers.shift());
        this.onload?.();
      },
      () => this.onerror?.(),
    );
  }
}

beforeEach(() => {
  uploads = [];
  answers = [];
  vi.stubGlobal('XMLHttpRequest', UploadRequest);
});

const fileInput = () => document.querySelector('input[type="file"]') as HTMLInputElement;
const chooseFile = (file: File) => chooseInDialog(fileInput(), file);

const csv = (text: string) => new File([text], 'crm-export.csv', { type: 'text/csv' });
const check = () => userEvent.click(screen.getByRole('button', { name: 'Datei prüfen' }));

describe('MatchImportTab', () => {
  it('gives the file input itself a name, not only the button that opens it', () => {
    renderWithProviders(<MatchImportTab />);
    expect(screen.getByLabelText('Match-Datei', { selector: 'input[type="file"]' })).toBe(fileInput());
    expect(screen.getByRole('button', { name: 'Match-Datei' })).toBeInTheDocument();
  });

  it('checks a corrected file chosen again under the same name', async () => {
    const first = 'matchId;kunde\nPL-88001;Nordlicht AG\nPL-88002;<b>Test</b>\n';
    const corrected = 'matchId;kunde\nPL-88001;Nordlicht AG\nPL-88002;Hafenkontor GmbH\n';
    answers = [
      summary({ new: 1, refused: [{ line: 3, matchId: 'PL-88002', reason: 'Enthält HTML.' }] }),
      summary({ new: 2 }),
    ];
    renderWithProviders(<MatchImportTab />);

    await chooseFile(csv(first));
    await check();
    expect(await screen.findByText('1 neu, 0 geändert, 0 unverändert, 1 abgelehnt')).toBeInTheDocument();
    expect(screen.getByRole('row', { name: /PL-88002/ })).toHaveTextContent('Zeile 3');

    await chooseFile(csv(corrected));
    await check();
    expect(await screen.findByText('2 neu, 0 geändert, 0 unverändert, 0 abgelehnt')).toBeInTheDocument();
    expect(uploads.map((upload) => upload.body)).toEqual([first, corrected]);
    expect(uploads[1]?.url).toBe(
      '/backend/admin/match-import?filename=crm-export.csv&mode=check&skipInvalid=false',
    );
  });

  it('asks to choose a file again that can no longer be read, instead of blaming the server', async () => {
    renderWithProviders(<MatchImportTab />);
    await chooseFile(savedAfterChoice(csv('matchId\nPL-88001\n')));
    await check();

    expect(await screen.findByText(UNREADABLE)).toBeInTheDocument();
    expect(screen.queryByText(/Der Server ist nicht erreichbar/)).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Datei prüfen' })).toBeDisabled();
    expect(uploads).toEqual([]);

    answers = [summary({ unchanged: 1 })];
    await chooseFile(csv('matchId\nPL-88001\n'));
    expect(screen.queryByText(UNREADABLE)).not.toBeInTheDocument();
    await check();
    expect(await screen.findByText('0 neu, 0 geändert, 1 unverändert, 0 abgelehnt')).toBeInTheDocument();
    expect(uploads.map((upload) => upload.body)).toEqual(['matchId\nPL-88001\n']);
  });

  it('names a refused entry of a JSON file by its number, a CSV row by its line', async () => {
    answers = [
      summary({
        refused: [
          { entry: 2, matchId: 'PL-88002', reason: 'Enthält HTML.' },
          { line: 1, reason: 'Die Datei ist kein JSON.' },
        ],
      }),
    ];
    renderWithProviders(<MatchImportTab />);
    await chooseFile(new File(['[{}, {}]'], 'crm-export.json', { type: 'application/json' }));
    await check();

    expect(await screen.findByRole('row', { name: /PL-88002/ })).toHaveTextContent('Eintrag 2');
    expect(screen.getByRole('row', { name: /kein JSON/ })).toHaveTextContent('Zeile 1');
    expect(screen.getByRole('columnheader', { name: 'Stelle' })).toBeInTheDocument();
  });
});
