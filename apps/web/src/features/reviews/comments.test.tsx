import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, stubApi } from '@/test/utils';
import { threadsOf } from './comments';
import { API, comment, noDifferences, renderPanel, review } from './test-fixtures';

const question = comment(1, {
  text: 'Warum ist die Haftung unbeschränkt?',
  quote: 'Der Auftragnehmer haftet unbeschränkt.',
});
const answer = comment(2, {
  parentId: question.id,
  author: { name: 'Lena Legal', side: 'company' },
  text: 'Das ist bei uns Standard.',
});
const note = comment(3, {
  visibility: 'internal',
  author: { name: 'Lena Legal', side: 'company' },
  text: 'Mit der Leitung klären.',
});

const threads = () => screen.findByRole('list', { name: 'Kommentare' });
const thread = async (text: string) => {
  const found = within(await threads())
    .getAllByRole('listitem')
    .find((candidate) => candidate.textContent?.includes(text));
  if (!found) throw new Error(`no thread with ${text}`);
  return within(found);
};

describe('NegotiationPanel: comments', () => {
  it('shows threads with author, side, time, quote and text, internal ones badged', async () => {
    stubApi({
      [API.review]: jsonResponse(200, {
        review: review({ comments: [note, answer, question] }),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    const first = await thread('Warum ist die Haftung');
    expect(first.getByText('Karl Kunde')).toBeInTheDocument();
    expect(first.getByText('Gegenseite')).toBeInTheDocument();
    expect(first.getByText('22.11.2026 12:00 · Runde 1')).toBeInTheDocument();
    expect(first.getByText('„Der Auftragnehmer haftet unbeschränkt.“', { exact: false })).toBeInTheDocument();
    // The company's reply stands in the thread it answers.
    expect(first.getByText('Das ist bei uns Standard.')).toBeInTheDocument();
    expect(first.getByText('Firma')).toBeInTheDocument();
    expect(first.queryByText('Intern')).not.toBeInTheDocument();

    const internal = await thread('Mit der Leitung klären.');
    expect(internal.getByText('Intern')).toBeInTheDocument();
    await expectNoSeriousViolations();
  });

  it('answers the counterparty for them to read by default, or internally when chosen', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: review({ comments: [question] }), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.comments]: [
        jsonResponse(201, review({ comments: [question, answer] })),
        jsonResponse(201, review({ comments: [question, answer] })),
      ],
    });
    renderPanel();
    await userEvent.click(
      (await thread('Warum ist die Haftung')).getByRole('button', { name: 'Antworten auf Karl Kunde' }),
    );
    const replyForm = () => within(screen.getByRole('form', { name: 'Antwort auf Karl Kunde' }));
    const reply = replyForm().getByRole('textbox', { name: 'Deine Antwort' });
    expect(reply).toHaveFocus();
    expect(replyForm().getByRole('radio', { name: 'Für die Gegenseite' })).toBeChecked();
    expect(replyForm().getByRole('radio', { name: 'Intern' })).not.toBeChecked();
    await expectNoSeriousViolations();
    await userEvent.type(reply, 'Das ist bei uns Standard.');
    await userEvent.click(replyForm().getByRole('button', { name: 'Senden' }));
    expect(
      await (await thread('Warum ist die Haftung')).findByText('Das ist bei uns Standard.'),
    ).toBeInTheDocument();
    // The form closed, and the focus is back where the keyboard left off.
    expect(screen.queryByRole('textbox', { name: 'Deine Antwort' })).not.toBeInTheDocument();
    expect(
      (await thread('Warum ist die Haftung')).getByRole('button', { name: 'Antworten auf Karl Kunde' }),
    ).toHaveFocus();

    await userEvent.click(
      (await thread('Warum ist die Haftung')).getByRole('button', { name: 'Antworten auf Karl Kunde' }),
    );
    await userEvent.click(replyForm().getByRole('radio', { name: 'Intern' }));
    await userEvent.type(replyForm().getByRole('textbox', { name: 'Deine Antwort' }), 'Leitung fragen.');
    await userEvent.click(replyForm().getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(API.comments)).toHaveLength(2));

    expect(api.callsTo(API.comments).map((call) => call.body)).toEqual([
      { text: 'Das ist bei uns Standard.', visibility: 'external', parentId: question.id, quote: '' },
      { text: 'Leitung fragen.', visibility: 'internal', parentId: question.id, quote: '' },
    ]);
  });

  it('keeps a reply to an internal note internal', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: review({ comments: [note] }), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.comments]: jsonResponse(201, review({ comments: [note] })),
    });
    renderPanel();
    await userEvent.click(
      (await thread('Mit der Leitung')).getByRole('button', { name: 'Antworten auf Lena Legal' }),
    );
    const replyForm = within(screen.getByRole('form', { name: 'Antwort auf Lena Legal' }));
    expect(replyForm.getByText('Die Antwort auf eine interne Notiz bleibt intern.')).toBeInTheDocument();
    expect(replyForm.queryByRole('radio', { name: 'Für die Gegenseite' })).not.toBeInTheDocument();
    await userEvent.type(screen.getByRole('textbox', { name: 'Deine Antwort' }), 'Erledigt.');
    await userEvent.click(screen.getByRole('button', { name: 'Senden' }));
    await waitFor(() => expect(api.callsTo(API.comments)).toHaveLength(1));
    expect(api.callsTo(API.comments)[0]?.body).toMatchObject({ visibility: 'internal', parentId: note.id });
  });

  it('adds a new comment as an internal note by default, with its quote; for the counterparty when chosen', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: review(), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.comments]: [
        jsonResponse(201, review({ comments: [note] })),
        jsonResponse(201, review({ comments: [note, question] })),
      ],
    });
    renderPanel();
    expect(await screen.findByText('Noch keine Kommentare.')).toBeInTheDocument();
    const form = within(screen.getByRole('region', { name: 'Neuer Kommentar' }));
    expect(form.getByRole('radio', { name: 'Intern' })).toBeChecked();

    // Nothing to send yet: the field says so, and nothing is asked.
    await userEvent.click(form.getByRole('button', { name: 'Kommentar speichern' }));
    expect(form.getByText('Bitte schreibe einen Kommentar.')).toBeInTheDocument();
    expect(api.callsTo(API.comments)).toHaveLength(0);

    await userEvent.type(form.getByRole('textbox', { name: /^Kommentar/ }), 'Mit der Leitung klären.');
    await userEvent.type(form.getByRole('textbox', { name: /^Textstelle/ }), 'haftet unbeschränkt');
    await userEvent.click(form.getByRole('button', { name: 'Kommentar speichern' }));
    expect(await (await thread('Mit der Leitung klären.')).findByText('Intern')).toBeInTheDocument();

    // A fresh form for the next one.
    const next = within(screen.getByRole('region', { name: 'Neuer Kommentar' }));
    expect(next.getByRole('textbox', { name: /^Kommentar/ })).toHaveValue('');
    await userEvent.click(next.getByRole('radio', { name: 'Für die Gegenseite' }));
    await userEvent.type(next.getByRole('textbox', { name: /^Kommentar/ }), 'Bitte sehen Sie sich § 7 an.');
    await userEvent.click(next.getByRole('button', { name: 'Kommentar speichern' }));
    await waitFor(() => expect(api.callsTo(API.comments)).toHaveLength(2));

    expect(api.callsTo(API.comments).map((call) => call.body)).toEqual([
      {
        text: 'Mit der Leitung klären.',
        visibility: 'internal',
        parentId: null,
        quote: 'haftet unbeschränkt',
      },
      { text: 'Bitte sehen Sie sich § 7 an.', visibility: 'external', parentId: null, quote: '' },
    ]);
  });

  it('keeps the comments readable once the negotiation has ended, without a form', async () => {
    stubApi({
      [API.review]: jsonResponse(200, {
        review: review({ state: 'agreed', comments: [question] }),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(await thread('Warum ist die Haftung')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Antworten/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Neuer Kommentar' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Die Verhandlung ist abgeschlossen: Kommentare sind nur noch zu lesen.'),
    ).toBeInTheDocument();
  });
});

describe('threadsOf', () => {
  it('puts a reply to a reply under the comment its chain starts with, in the order they were written', () => {
    const late = comment(5, { parentId: answer.id, text: 'Danke.' });
    const grouped = threadsOf([late, note, answer, question]);
    expect(grouped.map((entry) => [entry.root.id, entry.replies.map((reply) => reply.id)])).toEqual([
      [question.id, [answer.id, late.id]],
      [note.id, []],
    ]);
  });

  it('starts a thread of its own for a reply whose comment is unknown', () => {
    const orphan = comment(4, { parentId: '00000000-0000-4000-8000-000000009999' });
    expect(threadsOf([orphan]).map((entry) => entry.root.id)).toEqual([orphan.id]);
  });
});
