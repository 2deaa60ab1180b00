import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { DocumentDifferences } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, stubApi } from '@/test/utils';
import { API, renderPanel } from './test-fixtures';

const differences: DocumentDifferences = {
  version: 3,
  paragraphs: [
    {
      generated: 'Der Auftragnehmer haftet unbeschränkt für Schäden.',
      current: 'Der Auftragnehmer haftet bis 100.000 € für Schäden.',
      marked: true,
    },
    { generated: null, current: 'Gerichtsstand ist Hamburg.', marked: false },
    { generated: 'Die Vergütung ist monatlich fällig.', current: null, marked: false },
  ],
};

const paragraphs = () => screen.findByRole('list', { name: 'Abweichende Absätze' });
const paragraph = async (index: number) => {
  const item = within(await paragraphs()).getAllByRole('listitem')[index];
  if (!item) throw new Error(`no paragraph ${index}`);
  return item;
};

describe('NegotiationPanel: Abweichungen von der Vorlage', () => {
  it('lists the paragraphs that differ from the generated text, the marked one flagged', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, differences),
    });
    renderPanel();
    expect(
      await screen.findByRole('heading', { level: 3, name: 'Abweichungen von der Vorlage' }),
    ).toBeInTheDocument();
    expect(
      await screen.findByText(
        'Die Absätze der Version 3, die von dem abweichen, was die Vorlage für diesen Deal erstellt hat. 3 Absätze weichen ab, davon 1 mit Freigabe-Markierung.',
      ),
    ).toBeInTheDocument();

    const marked = await paragraph(0);
    expect(within(marked).getByText('Freigabe nötig bei Änderung')).toBeInTheDocument();
    expect(within(marked).getByText('Absatz geändert')).toBeInTheDocument();
    // Word by word: the struck generated words, then the inserted current ones, the rest kept.
    expect(within(marked).getByText('unbeschränkt').tagName).toBe('DEL');
    expect(within(marked).getByText('bis 100.000 €').tagName).toBe('INS');
    expect(marked).toHaveTextContent(
      'Der Auftragnehmer haftet gestrichen: unbeschränkt eingefügt: bis 100.000 € für Schäden.',
    );

    const added = await paragraph(1);
    expect(within(added).getByText('Absatz neu')).toBeInTheDocument();
    expect(within(added).queryByText('Freigabe nötig bei Änderung')).not.toBeInTheDocument();
    expect(within(added).getByText('Gerichtsstand ist Hamburg.').tagName).toBe('INS');

    const removed = await paragraph(2);
    expect(within(removed).getByText('Absatz gestrichen')).toBeInTheDocument();
    expect(within(removed).getByText('Die Vergütung ist monatlich fällig.').tagName).toBe('DEL');
    await expectNoSeriousViolations();
  });

  it('says so when the text is as generated', async () => {
    stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: jsonResponse(200, { version: 1, paragraphs: [] }),
    });
    renderPanel({ version: 1 });
    expect(
      await screen.findByText('Keine Abweichungen: Der Text entspricht dem erstellten.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Abweichende Absätze' })).not.toBeInTheDocument();
  });

  it('tells why it could not load them and tries again on request', async () => {
    const api = stubApi({
      [API.review]: jsonResponse(200, { review: null, proposedReviewers: [] }),
      [API.differences]: [
        jsonResponse(503, { error: 'unavailable', message: 'Der Vergleich ist gerade nicht möglich.' }),
        jsonResponse(200, differences),
      ],
    });
    renderPanel();
    expect(await screen.findByText('Der Vergleich ist gerade nicht möglich.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Erneut versuchen' }));
    expect(await screen.findByText('Freigabe nötig bei Änderung')).toBeInTheDocument();
    await waitFor(() => expect(api.callsTo(API.differences)).toHaveLength(2));
  });
});
