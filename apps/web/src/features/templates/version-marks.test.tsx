import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TemplateMarks } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { PATHS } from '@/lib/paths';
import { type ApiAnswer, jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { TemplatePage } from './template-page';
import {
  clientProtectionParagraph,
  comparison,
  liabilityParagraph,
  marks,
  offerWithCleanDraft,
  trial,
} from './test-fixtures';

const BASE = '/backend/templates/angebot-de.docx';
const MARKS = `${BASE}/versions/3/marks`;
const routes = [{ path: PATHS.template, Component: TemplatePage }];
const LIABILITY = { paragraph: liabilityParagraph, label: 'Haftung' };

/**
 * Version 3 of the offer with its marks as a server keeps them: a PUT replaces them (unless `put`
 * answers otherwise) and the next GET shows what it stored.
 */
function stubMarks(put?: ApiAnswer | ApiAnswer[]) {
  let stored: TemplateMarks = marks;
  const api = stubApi({
    [`GET ${BASE}`]: jsonResponse(200, offerWithCleanDraft),
    [`GET ${BASE}/versions/3/comparison`]: jsonResponse(200, comparison),
    [`GET ${BASE}/versions/3/trial`]: jsonResponse(200, trial),
    [`GET ${MARKS}`]: () => jsonResponse(200, stored),
    [`PUT ${MARKS}`]:
      put ??
      ((init) => {
        stored = { ...stored, marks: JSON.parse(String(init?.body)).marks };
        return jsonResponse(200, stored);
      }),
  });
  return api;
}

async function openMarks() {
  renderRoutes(routes, '/vorlagen/angebot-de');
  const section = await screen.findByRole('region', { name: 'Freigabe bei Änderung' });
  await within(section).findByRole('form', { name: 'Absatz markieren' });
  return section;
}

const paragraphSelect = (section: HTMLElement) => within(section).getByRole('combobox', { name: /^Absatz/ });
const labelInput = (section: HTMLElement) =>
  within(section).getByRole('textbox', { name: /^Name des Absatzes/ });
const markButton = (section: HTMLElement) =>
  within(section).getByRole('button', { name: 'Absatz markieren' });
const markedNames = (section: HTMLElement) =>
  within(within(section).getByRole('table', { name: 'Markierte Absätze' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[0]?.textContent);

/** Searches the paragraph select for `words` and picks the one option that matches. */
async function choose(section: HTMLElement, words: string) {
  await userEvent.click(paragraphSelect(section));
  await userEvent.type(paragraphSelect(section), words);
  const [option, ...more] = await screen.findAllByRole('option');
  expect(more).toHaveLength(0);
  await userEvent.click(option as HTMLElement);
}

describe('TemplatePage: Freigabe bei Änderung', () => {
  it('lists the marks, shortened with the whole paragraph a click away', async () => {
    stubMarks();
    const section = await openMarks();
    expect(
      within(section).getByText(/einen markierten Absatz, braucht das Dokument eine Freigabe/),
    ).toBeInTheDocument();
    expect(markedNames(section)).toEqual(['Haftung']);
    const row = within(section).getAllByRole('row')[1] as HTMLElement;
    expect(row).toHaveTextContent(/Haftung: Wir haften unbeschränkt für Vorsatz .* …/);
    expect(row).not.toHaveTextContent('vertragstypischen Schaden');

    const toggle = within(row).getByRole('button', { name: 'Ganzen Absatz zeigen („Haftung“)' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(toggle);
    expect(row).toHaveTextContent(liabilityParagraph);
    expect(within(row).getByRole('button', { name: 'Gekürzt zeigen („Haftung“)' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  });

  it('marks a chosen paragraph with its name, sending the whole new list, and shows it', async () => {
    const api = stubMarks();
    const section = await openMarks();

    await userEvent.click(paragraphSelect(section));
    const offered = (await screen.findAllByRole('option')).map((option) => option.textContent);
    // The marked paragraph is not offered again; a long one is shortened.
    expect(offered).toHaveLength(4);
    expect(offered.some((text) => text?.includes('Haftung'))).toBe(false);
    expect(offered).toContain(
      '4. Kundenschutz: {kundeName} wird während der Laufzeit und zwölf Monate danach keine …',
    );
    await userEvent.keyboard('{Escape}');

    await userEvent.click(markButton(section));
    expect(await within(section).findByText('Bitte wähle einen Absatz.')).toBeInTheDocument();
    expect(
      within(section).getByText('Bitte gib dem Absatz einen Namen, z. B. „Haftung“.'),
    ).toBeInTheDocument();
    expect(paragraphSelect(section)).toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(`PUT ${MARKS}`)).toHaveLength(0);

    // Found by a word beyond the shortened label.
    await choose(section, 'Beraterinnen');
    await userEvent.type(labelInput(section), '  Kundenschutz ');
    await userEvent.click(markButton(section));

    await waitFor(() => expect(api.callsTo(`PUT ${MARKS}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${MARKS}`)[0]?.body).toEqual({
      marks: [LIABILITY, { paragraph: clientProtectionParagraph, label: 'Kundenschutz' }],
    });
    expect(await within(section).findByText('„Kundenschutz“ ist markiert.')).toBeInTheDocument();
    expect(markedNames(section)).toEqual(['Haftung', 'Kundenschutz']);
    expect(labelInput(section)).toHaveValue('');
    expect(paragraphSelect(section)).toHaveValue('');
    await waitFor(() => expect(api.callsTo(`GET ${MARKS}`)).toHaveLength(2));
  });

  it('removes a mark by sending the list without it', async () => {
    const api = stubMarks();
    const section = await openMarks();
    await userEvent.click(within(section).getByRole('button', { name: 'Markierung „Haftung“ entfernen' }));

    await waitFor(() => expect(api.callsTo(`PUT ${MARKS}`)).toHaveLength(1));
    expect(api.callsTo(`PUT ${MARKS}`)[0]?.body).toEqual({ marks: [] });
    expect(await within(section).findByText('Die Markierung „Haftung“ ist entfernt.')).toBeInTheDocument();
    expect(within(section).queryByRole('table')).not.toBeInTheDocument();
    expect(within(section).getByText('Kein Absatz dieser Version ist markiert.')).toBeInTheDocument();
    expect(within(section).getByRole('heading', { name: 'Freigabe bei Änderung' })).toHaveFocus();
  });

  it('shows a refused paragraph under its field and any other refusal as an alert', async () => {
    const api = stubMarks([
      jsonResponse(400, {
        error: 'invalid_input',
        message: 'Die markierten Absätze passen nicht zur Version.',
        fields: { 'marks.1.paragraph': ['Dieser Absatz ist schon markiert.'] },
      }),
      jsonResponse(403, { error: 'forbidden', message: 'Vorlagen ändern nur Legal und Administration.' }),
    ]);
    const section = await openMarks();
    await choose(section, 'Kundenschutz');
    await userEvent.type(labelInput(section), 'Kundenschutz');
    await userEvent.click(markButton(section));

    const select = paragraphSelect(section);
    await waitFor(() => expect(select).toHaveAttribute('aria-invalid', 'true'));
    expect(select).toHaveAccessibleDescription(/Dieser Absatz ist schon markiert\./);
    expect(select).toHaveFocus();
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
    expect(markedNames(section)).toEqual(['Haftung']);
    // Nothing was reset: the same mark can be sent again.
    expect(labelInput(section)).toHaveValue('Kundenschutz');

    await userEvent.click(markButton(section));
    const alert = await within(section).findByRole('alert');
    expect(alert).toHaveTextContent('Die Markierungen konnten nicht gespeichert werden.');
    expect(alert).toHaveTextContent('Vorlagen ändern nur Legal und Administration.');
    expect(paragraphSelect(section)).not.toHaveAttribute('aria-invalid', 'true');
    expect(api.callsTo(`PUT ${MARKS}`)).toHaveLength(2);
  });
});
