import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { choose, docxResponse, renderForm, submitButton, typeInto } from '@/features/forms/test-fixtures';
import { captureDownloads } from '@/test/downloads';
import { jsonResponse } from '@/test/utils';

const FAILED =
  'Das zugehörige Dokument konnte nicht geladen werden. Es existiert kein passendes Template für die gewählten Daten.';
const GENERATE = 'POST /backend/generateDocx/';
const serverFault = () => jsonResponse(500, { error: 'render_failed', message: 'Vorlage kaputt.' });
const networkFailure = () => new TypeError('Failed to fetch');

let downloads: string[];

beforeEach(() => {
  downloads = captureDownloads();
});

afterEach(() => {
  vi.useRealTimers();
});

async function fillDocxForm() {
  await choose('Sprache', 'Deutsch');
  await choose('Gesellschaft', 'WE Engineering GmbH');
  await choose('Vertragsart', 'Einzelauftrag');
}

/** A consultant's partner contract for e-signature, complete. */
async function fillEsignatureForm() {
  await choose('Sprache', 'Deutsch');
  await choose('Gesellschaft', 'WM Consulting GmbH');
  await choose('Vertragsart', 'Rahmenvertrag');
  await choose('Absender', 'Anna Aster');
  await typeInto('Projektpartner Name', 'Carla Projekt');
  await typeInto('Projektpartner E-Mail', 'carla@projekt.de');
}

/** Advances fake time and lets the answers and React settle. */
async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

describe('generation flow', () => {
  it('downloads the DOCX under the UTF-8 name of Content-Disposition', async () => {
    const { callsTo } = renderForm('docx', {
      api: {
        [GENERATE]: docxResponse(
          `attachment; filename="PL-10001 Einzelauftrag Kunde Elbwerk Gruen.docx"; filename*=UTF-8''PL-10001%20Einzelauftrag%20Kunde%20Elbwerk%20Gr%C3%BCn.docx`,
        ),
      },
    });
    await fillDocxForm();
    await userEvent.click(submitButton());
    await waitFor(() => expect(downloads).toEqual(['PL-10001 Einzelauftrag Kunde Elbwerk Grün.docx']));
    expect(callsTo(GENERATE)).toEqual([
      {
        url: '/backend/generateDocx/docx-de-we-ev/PL-10001',
        body: { dataList: { vertragspartner_type: 'k' } },
      },
    ]);
    expect(screen.getByRole('progressbar', { name: 'Fortschritt der Dokumenterstellung' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(performance.getEntriesByName('generation:submit-to-open', 'measure').length).toBeGreaterThan(0);
  });

  it('retries a 5xx three times, 2 s apart, then shows the alert that no document could be made', async () => {
    const { callsTo } = renderForm('docx', { api: { [GENERATE]: serverFault } });
    await fillDocxForm();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(submitButton());
    await advance(0);
    expect(callsTo(GENERATE)).toHaveLength(1);
    expect(
      screen.getByRole('progressbar', { name: 'Fortschritt der Dokumenterstellung' }),
    ).toBeInTheDocument();
    for (const attempt of [2, 3, 4]) {
      await advance(1999);
      expect(callsTo(GENERATE)).toHaveLength(attempt - 1);
      await advance(1);
      expect(callsTo(GENERATE)).toHaveLength(attempt);
      // The last failure is final at once; before it, the progress names the attempt it waits after.
      if (attempt < 4) expect(screen.getByText(new RegExp(`Versuch ${attempt} von 4`))).toBeInTheDocument();
    }
    expect(screen.getByRole('alert')).toHaveTextContent(FAILED);
    await advance(10_000);
    expect(callsTo(GENERATE)).toHaveLength(4);
    expect(downloads).toEqual([]);
    expect(submitButton()).toBeEnabled();
  });

  it('retries a network failure and succeeds on the next attempt', async () => {
    const { callsTo, headersOf } = renderForm('docx', {
      api: { [GENERATE]: [networkFailure, docxResponse('attachment; filename="vertrag.docx"')] },
    });
    await fillDocxForm();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(submitButton());
    await advance(0);
    expect(callsTo(GENERATE)).toHaveLength(1);
    await advance(2000);
    expect(callsTo(GENERATE)).toHaveLength(2);
    // Both attempts are one click: the server answers the retry from what the first one made.
    const [first, retry] = headersOf(GENERATE).map((headers) => headers.get('Idempotency-Key'));
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(retry).toBe(first);
    expect(downloads).toEqual(['vertrag.docx']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('asks again with the same key while an earlier attempt of the click is still in progress (409)', async () => {
    const ENVELOPE = 'POST /backend/generateDocusign/';
    const inProgress = () =>
      jsonResponse(409, {
        error: 'in_progress',
        message: 'Dieser Umschlag wird gerade erstellt. Bitte warte einen Moment.',
      });
    const opened = vi.spyOn(window, 'open').mockReturnValue(null);
    const { callsTo, headersOf } = renderForm('docusign', {
      level: 1,
      api: { [ENVELOPE]: [inProgress, jsonResponse(200, { data: 'https://sign.example/sender/1' })] },
    });
    await fillEsignatureForm();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(submitButton());
    await advance(0);
    expect(callsTo(ENVELOPE)).toHaveLength(1);
    await advance(2000);
    expect(callsTo(ENVELOPE)).toHaveLength(2);
    const [first, retry] = headersOf(ENVELOPE).map((headers) => headers.get('Idempotency-Key'));
    expect(retry).toBe(first);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    opened.mockRestore();
  });

  it('ends at once on a 4xx with the server message', async () => {
    const message = 'Dieses Dokument darfst du mit deiner Berechtigung nicht erstellen.';
    const { callsTo } = renderForm('docx', {
      api: { [GENERATE]: jsonResponse(403, { error: 'forbidden', message }) },
    });
    await fillDocxForm();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    fireEvent.click(submitButton());
    await advance(0);
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    await advance(10_000);
    expect(callsTo(GENERATE)).toHaveLength(1);
  });

  it('maps the fields of a 400 onto the red borders of the form', async () => {
    renderForm('termination', {
      api: {
        [GENERATE]: jsonResponse(400, {
          error: 'invalid_input',
          message: 'Die Angaben im Formular sind unvollständig oder ungültig.',
          fields: { selectedPerson: ['Unbekannte Person „x“.'] },
        }),
      },
    });
    await choose('Gesellschaft', 'WM Consulting GmbH');
    await choose('Vertragspartner', 'Projektpartner');
    await choose('Dokumentart', 'Kündigungsbestätigung');
    await choose('Unterzeichner', 'Lea Brandt (Leiterin Recht & Verträge)');
    await userEvent.click(submitButton());
    expect(
      await screen.findByText('Die Angaben im Formular sind unvollständig oder ungültig.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Unterzeichner' })).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Unbekannte Person „x“.')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Gesellschaft' })).not.toHaveAttribute(
      'aria-invalid',
      'true',
    );
  });

  it('shows a refusal of the signature provider (422) at once, without retrying', async () => {
    const { callsTo } = renderForm('docusign', {
      level: 1,
      api: {
        'POST /backend/generateDocusign/': jsonResponse(422, {
          error: 'signature_rejected',
          message: 'DocuSign lehnt eine E-Mail-Adresse eines Empfängers ab.',
        }),
      },
    });
    await fillEsignatureForm();
    await userEvent.click(submitButton());
    expect(
      await screen.findByText('DocuSign lehnt eine E-Mail-Adresse eines Empfängers ab.'),
    ).toBeInTheDocument();
    expect(callsTo('POST /backend/generateDocusign/')).toHaveLength(1);
  });

  it('a double click generates once; the button is disabled while it runs', async () => {
    let release: (response: Response) => void = () => {};
    const { callsTo } = renderForm('docx', {
      api: { [GENERATE]: () => new Promise<Response>((resolve) => (release = resolve)) },
    });
    await fillDocxForm();
    const button = submitButton();
    fireEvent.click(button);
    fireEvent.click(button);
    await userEvent.dblClick(button);
    await waitFor(() => expect(submitButton()).toBeDisabled());
    expect(callsTo(GENERATE)).toHaveLength(1);
    release(docxResponse('attachment; filename="einmal.docx"'));
    await waitFor(() => expect(downloads).toEqual(['einmal.docx']));
    expect(submitButton()).toBeEnabled();
  });

  it('offers to open in the current tab, and how to allow popups, when the new tab is blocked', async () => {
    const url = 'https://signing.example/envelope/7';
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderForm('docusign', {
      level: 1,
      api: { 'POST /backend/generateDocusign/': jsonResponse(200, { data: url }) },
    });
    await fillEsignatureForm();
    await userEvent.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Neuer Tab blockiert' });
    expect(dialog).toHaveTextContent(/Pop-ups/);
    expect(open).toHaveBeenCalledWith(url, '_blank');
    await userEvent.click(screen.getByRole('button', { name: 'Im aktuellen Tab öffnen' }));
    expect(open).toHaveBeenLastCalledWith(url, '_self');
  });
});

describe('hand-over to the built-in editor', () => {
  const withDocumentId = () => {
    const response = docxResponse('attachment; filename="vertrag.docx"');
    response.headers.set('x-document-id', 'doc-7');
    return response;
  };

  it('opens the stored document in a new tab instead of downloading it', async () => {
    const tab = { opener: window } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(tab);
    renderForm('docx', { api: { [GENERATE]: withDocumentId } });
    await fillDocxForm();
    await userEvent.click(submitButton());

    await waitFor(() => expect(open).toHaveBeenCalledWith('/dokumente/doc-7', '_blank'));
    expect(tab.opener).toBeNull();
    expect(screen.getByRole('progressbar', { name: 'Fortschritt der Dokumenterstellung' })).toHaveAttribute(
      'aria-valuenow',
      '100',
    );
    expect(downloads).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers the current tab when the new tab is blocked', async () => {
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    renderForm('docx', { api: { [GENERATE]: withDocumentId } });
    await fillDocxForm();
    await userEvent.click(submitButton());

    const dialog = await screen.findByRole('dialog', { name: 'Neuer Tab blockiert' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Im aktuellen Tab öffnen' }));
    expect(open).toHaveBeenLastCalledWith('/dokumente/doc-7', '_self');
    expect(downloads).toEqual([]);
  });

  it('downloads the file when the server names no stored document', async () => {
    const open = vi.spyOn(window, 'open');
    renderForm('docx', { api: { [GENERATE]: docxResponse('attachment; filename="vertrag.docx"') } });
    await fillDocxForm();
    await userEvent.click(submitButton());
    await waitFor(() => expect(downloads).toEqual(['vertrag.docx']));
    expect(open).not.toHaveBeenCalled();
  });
});
