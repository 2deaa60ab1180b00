import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Review, Suggestion } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, stubApi } from '@/test/utils';
import { API, deletion, insertion, noDifferences, renderPanel, returnedRound, review } from './test-fixtures';

const decided = (suggestion: Suggestion, outcome: 'accepted' | 'rejected'): Suggestion => ({
  ...suggestion,
  outcome,
  decidedBy: 'Lena Legal',
  decidedAt: '2026-11-23T09:00:00Z',
});

const withSuggestions = (...suggestions: Suggestion[]): Review =>
  review({ rounds: [{ ...returnedRound, suggestions }] });

const list = () => screen.findByRole('list', { name: 'Vorschläge' });
const item = async (text: string) => {
  const found = within(await list())
    .getAllByRole('listitem')
    .find((candidate) => candidate.textContent?.includes(text));
  if (!found) throw new Error(`no suggestion with ${text}`);
  return within(found);
};

describe('NegotiationPanel: the counterparty’s suggestions', () => {
  it('lists each with its kind, its text marked, the paragraph, the author and the time', async () => {
    stubApi({
      [API.review]: jsonResponse(200, {
        review: withSuggestions(insertion, decided(deletion, 'rejected')),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Vorschläge der Gegenseite (Runde 1)' }),
    ).toBeInTheDocument();

    const inserted = await item('30 Tagen');
    expect(inserted.getByText('Einfügung')).toBeInTheDocument();
    expect(inserted.getByText('Offen')).toBeInTheDocument();
    // Inserted text is an <ins> (underlined), named for a screen reader; not told by colour alone.
    const insertedText = inserted.getByText('mit einer Frist von 30 Tagen');
    expect(insertedText.tagName).toBe('INS');
    expect(insertedText).toHaveTextContent('eingefügt: mit einer Frist von 30 Tagen');
    expect(
      inserted.getByText('Im Absatz: „Der Vertrag kann gekündigt werden mit einer Frist von 30 Tagen.“'),
    ).toBeInTheDocument();
    expect(inserted.getByText('Karl Kunde am 22.11.2026 11:00')).toBeInTheDocument();
    expect(inserted.getByRole('button', { name: 'Annehmen' })).toHaveAccessibleDescription(
      /^eingefügt:\s*mit einer Frist von 30 Tagen$/,
    );

    const deleted = await item('unbeschränkt');
    expect(deleted.getByText('Löschung')).toBeInTheDocument();
    expect(deleted.getByText('unbeschränkt').tagName).toBe('DEL');
    expect(deleted.getByText('Abgelehnt von Lena Legal am 23.11.2026 10:00')).toBeInTheDocument();
    // A decided suggestion is not decided again.
    expect(deleted.queryByRole('button', { name: 'Annehmen' })).not.toBeInTheDocument();
    expect(screen.getByText('1 offener Vorschlag')).toBeInTheDocument();
    await expectNoSeriousViolations();
  });

  it('accepts and rejects one by one, each on the newest version, and has the editor open the new one', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, {
        review: withSuggestions(insertion, deletion),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.decisions]: [
        jsonResponse(200, withSuggestions(decided(insertion, 'accepted'), deletion)),
        jsonResponse(200, withSuggestions(decided(insertion, 'accepted'), decided(deletion, 'rejected'))),
      ],
    });
    const { documentChanged } = renderPanel({ version: 3 });
    await userEvent.click((await item('30 Tagen')).getByRole('button', { name: 'Annehmen' }));
    expect(
      await (await item('30 Tagen')).findByText('Angenommen von Lena Legal am 23.11.2026 10:00'),
    ).toBeInTheDocument();
    await waitFor(() => expect(documentChanged).toHaveBeenCalledTimes(1));
    // Its buttons are gone: the focus waits on the section's heading, not at the top of the page.
    expect(
      screen.getByRole('heading', { level: 3, name: 'Vorschläge der Gegenseite (Runde 1)' }),
    ).toHaveFocus();

    // The decision made version 4: the next one builds on it.
    await waitFor(async () =>
      expect((await item('unbeschränkt')).getByRole('button', { name: 'Ablehnen' })).toBeEnabled(),
    );
    await userEvent.click((await item('unbeschränkt')).getByRole('button', { name: 'Ablehnen' }));
    expect(
      await (await item('unbeschränkt')).findByText('Abgelehnt von Lena Legal am 23.11.2026 10:00'),
    ).toBeInTheDocument();
    await waitFor(() => expect(documentChanged).toHaveBeenCalledTimes(2));

    expect(api.callsTo(API.decisions).map((call) => call.body)).toEqual([
      { baseVersion: 3, decisions: [{ id: insertion.id, outcome: 'accepted' }], all: null },
      { baseVersion: 4, decisions: [{ id: deletion.id, outcome: 'rejected' }], all: null },
    ]);
    // Nothing is open any more: the negotiation may go on.
    expect(screen.queryByRole('button', { name: 'Alle annehmen' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Nächste Runde senden' })).toBeInTheDocument();
  });

  it.each([
    { button: 'Alle annehmen', all: 'accepted' },
    { button: 'Alle ablehnen', all: 'rejected' },
  ] as const)('$button decides every open suggestion at once', async ({ button, all }) => {
    const api = stubApi({
      [API.review]: jsonResponse(200, {
        review: withSuggestions(insertion, deletion),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.decisions]: jsonResponse(200, withSuggestions(decided(insertion, all), decided(deletion, all))),
    });
    const { documentChanged } = renderPanel({ version: 5 });
    expect(await screen.findByText('2 offene Vorschläge')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: button }));
    await waitFor(() => expect(documentChanged).toHaveBeenCalledTimes(1));
    expect(api.callsTo(API.decisions).map((call) => call.body)).toEqual([
      { baseVersion: 5, decisions: [], all },
    ]);
    expect(screen.queryByRole('button', { name: 'Annehmen' })).not.toBeInTheDocument();
  });

  it('shows the server’s message when the document was saved meanwhile, and reloads before the next try', async () => {
    const conflict = 'Das Dokument wurde inzwischen als Version 4 gespeichert. Bitte lade es neu.';
    const api = stubApi({
      [API.review]: jsonResponse(200, {
        review: withSuggestions(insertion, deletion),
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
      [API.decisions]: [
        jsonResponse(409, { error: 'version_conflict', message: conflict }),
        jsonResponse(200, withSuggestions(decided(insertion, 'accepted'), deletion)),
      ],
    });
    const { documentChanged } = renderPanel({ version: 3 });
    await userEvent.click((await item('30 Tagen')).getByRole('button', { name: 'Annehmen' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Das Dokument wurde inzwischen geändert');
    expect(alert).toHaveTextContent(conflict);
    expect(alert).toHaveTextContent('Die neueste Version ist geladen. Bitte entscheide noch einmal.');
    // The editor and the negotiation are read again.
    await waitFor(() => expect(documentChanged).toHaveBeenCalledTimes(1));
    await waitFor(() => expect(api.callsTo(API.review)).toHaveLength(2));
    expect((await item('30 Tagen')).getByText('Offen')).toBeInTheDocument();

    await waitFor(async () =>
      expect((await item('30 Tagen')).getByRole('button', { name: 'Annehmen' })).toBeEnabled(),
    );
    await userEvent.click((await item('30 Tagen')).getByRole('button', { name: 'Annehmen' }));
    await waitFor(() => expect(api.callsTo(API.decisions)).toHaveLength(2));
    expect(api.callsTo(API.decisions).map((call) => call.body.baseVersion)).toEqual([3, 4]);
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('waits for the editor’s unsaved changes before any decision', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: withSuggestions(insertion), proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel({ dirty: true });
    expect(await (await item('30 Tagen')).findByRole('button', { name: 'Annehmen' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Alle annehmen' })).toBeDisabled();
    expect(
      screen.getByText(
        'Speichere oder verwirf erst deine Änderungen im Editor, bevor du über Vorschläge entscheidest.',
      ),
    ).toBeInTheDocument();
    expect(api.callsTo(API.decisions)).toHaveLength(0);
  });

  it('offers no decision once the negotiation has ended', async () => {
    stubApi({
      [API.review]: jsonResponse(200, {
        review: { ...withSuggestions(insertion), state: 'withdrawn' },
        proposedReviewers: [],
      }),
      [API.differences]: jsonResponse(200, noDifferences),
    });
    renderPanel();
    expect(await (await item('30 Tagen')).findByText('Offen')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Annehmen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Alle annehmen' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Die Verhandlung ist beendet. Die Links der Gegenseite gelten nicht mehr.'),
    ).toBeInTheDocument();
  });
});
