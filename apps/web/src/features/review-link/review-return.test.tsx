import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DOCX_MIME_TYPE, type ReviewerView } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { docxWithParagraphs } from '@/test/docx';
import { jsonResponse, stubApi } from '@/test/utils';
import { contractResponse, DOCUMENT, RETURN, renderReview, VIEW, viewCalls } from './review-test-page';
import { LINK_TOKEN, reviewerView } from './test-fixtures';

const returnedView: ReviewerView = { ...reviewerView, returnedAt: '2026-07-03T12:15:00.000Z' };

const returnButton = () => screen.getByRole('button', { name: 'Zurücksenden' });
const confirmButton = () => screen.getByRole('button', { name: 'Ja, zurücksenden' });
/** Mantine's FileButton keeps its input out of sight; its button opens the browser's file picker. */
const fileInput = () => document.querySelector<HTMLInputElement>('input[type="file"]') as HTMLInputElement;

/** The request body of the n-th call to return, as the server receives it. */
function returnCall(api: ReturnType<typeof stubApi>, index = 0) {
  const calls = api.fetchMock.mock.calls.filter(([url, init]) => `${init?.method} ${String(url)}` === RETURN);
  const init = calls[index]?.[1];
  return { headers: new Headers(init?.headers), body: init?.body };
}

describe('ReviewPage: sending the round back', () => {
  it('asks first, then sends only the comments when nothing was changed', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(200, returnedView),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    expect(
      screen.getByText('Sie senden Ihre Kommentare zurück, ohne Änderungen am Vertrag.'),
    ).toBeInTheDocument();

    await userEvent.click(returnButton());
    const question = screen.getByRole('group', { name: 'Vertrag jetzt zurücksenden?' });
    expect(question).toHaveAccessibleDescription('Nach dem Zurücksenden sind keine Änderungen mehr möglich.');
    await waitFor(() => expect(question).toHaveFocus());
    expect(api.callsTo(RETURN)).toEqual([]);
    await userEvent.click(confirmButton());

    expect(await screen.findByText('Zurückgesendet am 3. Juli 2026 um 14:15')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('status', { name: /^Zurückgesendet am/ })).toHaveFocus());
    const { headers, body } = returnCall(api);
    expect(headers.get('x-review-source')).toBe('none');
    expect(headers.get('x-review-token')).toBe(LINK_TOKEN);
    expect(headers.has('x-file-name')).toBe(false);
    expect(body).toBeUndefined();
    // Read-only from now on.
    expect(screen.queryByRole('button', { name: 'Zurücksenden' })).not.toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Kommentar' })).not.toBeInTheDocument();
  });

  it('sends nothing when the question is answered with Abbrechen, and gives the focus back', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.click(returnButton());
    await userEvent.click(screen.getByRole('button', { name: 'Abbrechen' }));

    await waitFor(() => expect(returnButton()).toHaveFocus());
    expect(api.callsTo(RETURN)).toEqual([]);
  });

  it('sends the reviewer’s own Word file with its name', async () => {
    const api = stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(200, returnedView),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    const file = new File([await docxWithParagraphs(['Geändert'])], 'Rahmenvertrag (Änderungen).docx', {
      type: '',
    });
    await userEvent.upload(fileInput(), file);

    expect(screen.getByText('Gewählte Datei: Rahmenvertrag (Änderungen).docx')).toBeInTheDocument();
    expect(
      screen.getByText(
        'Sie senden Ihre Word-Datei „Rahmenvertrag (Änderungen).docx“ und Ihre Kommentare zurück.',
      ),
    ).toBeInTheDocument();
    await userEvent.click(returnButton());
    await userEvent.click(confirmButton());

    await screen.findByText(/^Zurückgesendet am/);
    const { headers, body } = returnCall(api);
    expect(headers.get('x-review-source')).toBe('upload');
    expect(headers.get('x-file-name')).toBe(encodeURIComponent('Rahmenvertrag (Änderungen).docx'));
    expect(headers.get('content-type')).toBe(DOCX_MIME_TYPE);
    expect(body).toBeInstanceOf(Blob);
    expect((body as Blob).size).toBe(file.size);
  });

  it('shows why the server refused the file beside it, and keeps what the reviewer had', async () => {
    const message = 'Die Datei enthält Makros. Bitte speichern Sie sie als .docx ohne Makros.';
    const api = stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(422, { error: 'file_has_macros', message }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.type(screen.getByRole('textbox', { name: 'Kommentar' }), 'Mein Entwurf');
    await userEvent.upload(fileInput(), new File(['PK'], 'mit-makros.docx'));
    await userEvent.click(returnButton());
    await userEvent.click(confirmButton());

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(message);
    expect(screen.getByRole('button', { name: 'Eigene Word-Datei hochladen' })).toHaveAccessibleDescription(
      message,
    );
    expect(screen.getByText('Gewählte Datei: mit-makros.docx')).toBeInTheDocument();
    expect(screen.getByRole('textbox', { name: 'Kommentar' })).toHaveValue('Mein Entwurf');
    expect(screen.queryByText(/^Zurückgesendet am/)).not.toBeInTheDocument();
    await waitFor(() => expect(returnButton()).toHaveFocus());

    // Without the file, the return offers the comments alone again.
    await userEvent.click(screen.getByRole('button', { name: 'Datei entfernen' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(
      screen.getByText('Sie senden Ihre Kommentare zurück, ohne Änderungen am Vertrag.'),
    ).toBeInTheDocument();
    expect(api.callsTo(RETURN)).toHaveLength(1);
  });

  it('takes only a .docx file', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.upload(fileInput(), new File(['%PDF'], 'vertrag.pdf', { type: 'application/pdf' }), {
      applyAccept: false,
    });

    expect(screen.getByRole('alert')).toHaveTextContent('Bitte wählen Sie eine Word-Datei (.docx).');
    expect(screen.queryByText(/^Gewählte Datei/)).not.toBeInTheDocument();
    expect(api.callsTo(RETURN)).toEqual([]);
  });

  it('shows the round as sent back when it was, meanwhile', async () => {
    const api = stubApi({
      [VIEW]: [jsonResponse(200, reviewerView), jsonResponse(200, returnedView)],
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(409, {
        error: 'round_returned',
        message: 'Diese Runde wurde bereits zurückgesendet.',
      }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.click(returnButton());
    await userEvent.click(confirmButton());

    expect(await screen.findByText(/^Zurückgesendet am/)).toBeInTheDocument();
    expect(viewCalls(api)).toHaveLength(2);
  });

  it('shows a withdrawn link as the page does on opening it', async () => {
    const message = 'Dieser Link wurde zurückgezogen. Bitte wenden Sie sich an Lena Legal.';
    stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
      [RETURN]: jsonResponse(410, { error: 'link_withdrawn', message }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.click(returnButton());
    await userEvent.click(confirmButton());

    expect(
      await screen.findByRole('heading', { name: 'Dieser Link funktioniert nicht' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent(message);
    expect(screen.queryByRole('document', { name: 'Vertrag' })).not.toBeInTheDocument();
  });
});
