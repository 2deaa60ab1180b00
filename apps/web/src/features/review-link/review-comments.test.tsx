import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReviewerView } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { jsonResponse, stubApi } from '@/test/utils';
import { threadsOf } from './review-comments';
import { COMMENTS, contractResponse, DOCUMENT, renderReview, VIEW, viewCalls } from './review-test-page';
import { comment, LINK_TOKEN, reviewerView } from './test-fixtures';

const QUESTION = comment({
  id: '00000000-0000-4000-8000-000000000001',
  text: 'Ist die Vergütung netto gemeint?',
  quote: 'Die Vergütung beträgt 1.000 Euro.',
  createdAt: '2026-07-01T08:00:00.000Z',
});
const ANSWER = comment({
  id: '00000000-0000-4000-8000-000000000002',
  parentId: QUESTION.id,
  author: { name: 'Lena Legal', side: 'company' },
  text: 'Ja, zuzüglich Umsatzsteuer.',
  createdAt: '2026-07-01T09:30:00.000Z',
});
const THANKS = comment({
  id: '00000000-0000-4000-8000-000000000003',
  parentId: ANSWER.id,
  text: 'Danke, dann bitte so ergänzen.',
  createdAt: '2026-07-01T10:00:00.000Z',
});
const EARLIER = comment({
  id: '00000000-0000-4000-8000-000000000004',
  round: 1,
  text: 'Bitte die Laufzeit prüfen.',
  createdAt: '2026-06-01T10:00:00.000Z',
});

const commentBox = () => screen.getByRole('textbox', { name: 'Kommentar' });
const quoteBox = () => screen.getByRole('textbox', { name: /^Textstelle/ });

/** Selects `text` in the contract's first view, as a reader does with the mouse or a finger. */
function selectInContract(text: string) {
  const contract = screen.getByRole('document', { name: 'Vertrag' });
  const walker = document.createTreeWalker(contract, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const start = node.textContent?.indexOf(text) ?? -1;
    if (start < 0) continue;
    const range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, start + text.length);
    const selection = document.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
    fireEvent(document, new Event('selectionchange'));
    return;
  }
  throw new Error(`the contract shows no “${text}”`);
}

describe('threadsOf', () => {
  it('puts every answer below the comment that opened its thread, in the order written', () => {
    const threads = threadsOf([THANKS, ANSWER, QUESTION, EARLIER]);
    expect(threads.map(({ root, replies }) => [root.id, replies.map((reply) => reply.id)])).toEqual([
      [EARLIER.id, []],
      [QUESTION.id, [ANSWER.id, THANKS.id]],
    ]);
  });

  it('opens a thread with a comment whose parent the reviewer does not see', () => {
    const orphan = comment({ id: '00000000-0000-4000-8000-000000000009', parentId: ANSWER.id, text: 'x' });
    expect(threadsOf([orphan]).map(({ root }) => root.id)).toEqual([orphan.id]);
  });
});

describe('ReviewPage: the comments', () => {
  it('shows the threads with author, time, quoted passage and the company’s replies', async () => {
    const view: ReviewerView = { ...reviewerView, round: 2, comments: [QUESTION, ANSWER, THANKS, EARLIER] };
    stubApi({ [VIEW]: jsonResponse(200, view), [DOCUMENT]: await contractResponse() });
    renderReview();

    const section = (await screen.findByRole('heading', { level: 2, name: 'Kommentare' }))
      .parentElement as HTMLElement;
    const threads = within(section)
      .getAllByRole('listitem')
      .filter((item) => item.parentElement?.parentElement === section);
    expect(threads).toHaveLength(2);
    const [earlier, question] = threads as [HTMLElement, HTMLElement];
    expect(earlier).toHaveTextContent('Bitte die Laufzeit prüfen.');
    expect(within(earlier).getByText('Runde 1')).toBeInTheDocument();

    expect(
      within(question).getByText('Die Vergütung beträgt 1.000 Euro.').closest('blockquote'),
    ).toHaveTextContent('Textstelle');
    const time = new Intl.DateTimeFormat('de-DE', {
      timeZone: 'Europe/Berlin',
      dateStyle: 'medium',
      timeStyle: 'short',
    }).format(new Date(QUESTION.createdAt));
    expect(within(question).getAllByText('Karla Kundin')[0]?.parentElement).toHaveTextContent(
      `Karla Kundin${time}`,
    );
    const replies = within(question).getByRole('list', {
      name: 'Antworten auf den Kommentar von Karla Kundin',
    });
    expect(
      within(replies)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual([
      expect.stringContaining('Lena Legal (Demo GmbH)'),
      expect.stringContaining('Danke, dann bitte so ergänzen.'),
    ]);
    expect(within(replies).getAllByRole('listitem')[0]).toHaveTextContent('Ja, zuzüglich Umsatzsteuer.');
  });

  it('posts a comment with the passage selected in the contract', async () => {
    const posted = comment({
      id: '00000000-0000-4000-8000-000000000005',
      text: 'Bitte zuzüglich Umsatzsteuer.',
      quote: 'Die Vergütung beträgt 1.000 Euro.',
    });
    const api = stubApi({
      [VIEW]: jsonResponse(200, reviewerView),
      [DOCUMENT]: await contractResponse(),
      [COMMENTS]: jsonResponse(200, { ...reviewerView, comments: [posted] }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });

    selectInContract('Die Vergütung beträgt 1.000 Euro.');
    await userEvent.click(screen.getByRole('button', { name: 'Markierten Text übernehmen' }));
    expect(quoteBox()).toHaveValue('Die Vergütung beträgt 1.000 Euro.');
    expect(screen.getByText('Die markierte Textstelle wurde übernommen.')).toBeInTheDocument();
    await userEvent.type(commentBox(), 'Bitte zuzüglich Umsatzsteuer.');
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar senden' }));

    await waitFor(() =>
      expect(api.callsTo(COMMENTS)).toEqual([
        {
          url: '/backend/review/comments',
          body: { text: 'Bitte zuzüglich Umsatzsteuer.', quote: 'Die Vergütung beträgt 1.000 Euro.' },
        },
      ]),
    );
    expect(api.headersOf(COMMENTS)[0]?.get('x-review-token')).toBe(LINK_TOKEN);
    expect(await screen.findByText('Ihr Kommentar wurde gesendet.')).toBeInTheDocument();
    // The form is empty for the next one, and the comment shows in the list.
    expect(commentBox()).toHaveValue('');
    expect(quoteBox()).toHaveValue('');
    expect(await screen.findAllByText('Bitte zuzüglich Umsatzsteuer.')).toHaveLength(1);
  });

  it('says to select a passage first, and asks for a comment before asking the server', async () => {
    const api = stubApi({ [VIEW]: jsonResponse(200, reviewerView), [DOCUMENT]: await contractResponse() });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });

    await userEvent.click(screen.getByRole('button', { name: 'Markierten Text übernehmen' }));
    expect(screen.getByText('Bitte markieren Sie zuerst eine Textstelle im Vertrag.')).toBeInTheDocument();
    expect(quoteBox()).toHaveValue('');

    await userEvent.type(commentBox(), '   ');
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar senden' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Bitte schreiben Sie einen Kommentar.');
    expect(commentBox()).toHaveFocus();
    expect(commentBox()).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(COMMENTS)).toEqual([]);
  });

  it('answers a comment in its thread, and keeps the text when the server refuses it', async () => {
    const reply = comment({
      id: '00000000-0000-4000-8000-000000000006',
      parentId: QUESTION.id,
      text: 'Netto, bitte.',
      createdAt: '2026-07-02T08:00:00.000Z',
    });
    const api = stubApi({
      [VIEW]: jsonResponse(200, { ...reviewerView, comments: [QUESTION] }),
      [DOCUMENT]: await contractResponse(),
      [COMMENTS]: [
        jsonResponse(400, { error: 'validation_failed', message: 'Der Kommentar ist zu lang.' }),
        jsonResponse(200, { ...reviewerView, comments: [QUESTION, reply] }),
      ],
    });
    renderReview();

    await userEvent.click(await screen.findByRole('button', { name: 'Antworten auf Karla Kundin' }));
    const answer = screen.getByRole('textbox', { name: 'Ihre Antwort' });
    await waitFor(() => expect(answer).toHaveFocus());
    await userEvent.type(answer, 'Netto, bitte.');
    await userEvent.click(screen.getByRole('button', { name: 'Antwort senden' }));

    expect(await screen.findByText('Der Kommentar ist zu lang.')).toBeInTheDocument();
    expect(answer).toHaveValue('Netto, bitte.');
    await userEvent.click(screen.getByRole('button', { name: 'Antwort senden' }));

    await waitFor(() =>
      expect(screen.queryByRole('textbox', { name: 'Ihre Antwort' })).not.toBeInTheDocument(),
    );
    expect(api.callsTo(COMMENTS).map(({ body }) => body)).toEqual([
      { text: 'Netto, bitte.', parentId: QUESTION.id },
      { text: 'Netto, bitte.', parentId: QUESTION.id },
    ]);
    const replies = await screen.findByRole('list', { name: 'Antworten auf den Kommentar von Karla Kundin' });
    expect(within(replies).getByText('Netto, bitte.')).toBeInTheDocument();
    // The focus goes back to the button that opened the form, not to the page's top.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Antworten auf Karla Kundin' })).toHaveFocus(),
    );
  });

  it('shows the round sent back as it is, with nothing left to write', async () => {
    const returned: ReviewerView = {
      ...reviewerView,
      returnedAt: '2026-07-03T12:15:00.000Z',
      comments: [QUESTION],
    };
    stubApi({ [VIEW]: jsonResponse(200, returned), [DOCUMENT]: await contractResponse() });
    renderReview();

    expect(await screen.findByText('Zurückgesendet am 3. Juli 2026 um 14:15')).toBeInTheDocument();
    expect(screen.getByText('Ist die Vergütung netto gemeint?')).toBeInTheDocument();
    await screen.findByRole('document', { name: 'Vertrag' });
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
    expect(
      screen.queryByRole('button', { name: /Antworten|Kommentar senden|Änderungen vorschlagen/ }),
    ).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Zurücksenden' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vertrag herunterladen (Word)' })).toBeInTheDocument();
  });

  it('shows the round as sent back when the server says so to a comment', async () => {
    const api = stubApi({
      [VIEW]: [
        jsonResponse(200, reviewerView),
        jsonResponse(200, { ...reviewerView, returnedAt: '2026-07-03T12:15:00.000Z' }),
      ],
      [DOCUMENT]: await contractResponse(),
      [COMMENTS]: jsonResponse(409, {
        error: 'round_returned',
        message: 'Diese Runde wurde bereits zurückgesendet.',
      }),
    });
    renderReview();
    await screen.findByRole('document', { name: 'Vertrag' });
    await userEvent.type(commentBox(), 'Noch etwas.');
    await userEvent.click(screen.getByRole('button', { name: 'Kommentar senden' }));

    expect(await screen.findByText(/^Zurückgesendet am/)).toBeInTheDocument();
    expect(viewCalls(api)).toHaveLength(2);
    expect(screen.queryByRole('textbox', { name: 'Kommentar' })).not.toBeInTheDocument();
  });
});
