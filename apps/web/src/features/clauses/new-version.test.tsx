import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ClauseDetail, ClauseVersion } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { expectHeadingsInOrder, expectNoSeriousViolations } from '@/test/axe';
import { jsonResponse, renderRoutes, stubApi } from '@/test/utils';
import { ClausePage } from './clause-page';
import { CLAUSE_PATHS } from './paths';
import { comparison, liabilityWithBrokenDraft, publishedVersion, standardVariant } from './test-fixtures';

const BASE = '/backend/clauses/haftung';
const routes = [{ path: CLAUSE_PATHS.clause, Component: ClausePage }];
const editor = () => screen.getByRole('region', { name: 'Neue Version' });
const variant = (legend: string) => within(editor()).getByRole('group', { name: legend });
const box = (scope: HTMLElement, name: RegExp) => within(scope).getByRole('textbox', { name });

const swiss = {
  name: 'Schweiz',
  rule: 'land = CH',
  de: 'Schweizer Recht.',
  en: 'Swiss law.',
};
const saved: ClauseVersion = {
  ...publishedVersion,
  version: 3,
  status: 'Entwurf',
  comment: 'Schweiz',
  content: { variants: [swiss, standardVariant], option: 'always' },
  publishedAt: null,
  publishedBy: null,
  publishComment: null,
  problems: [
    { place: 'Variante „Schweiz“, englischer Text', message: 'Der englische Text ist kürzer als erwartet.' },
  ],
};
const withSaved: ClauseDetail = {
  ...liabilityWithBrokenDraft,
  drafts: 2,
  versions: [saved, ...liabilityWithBrokenDraft.versions],
};

function stub() {
  return stubApi({
    [`GET ${BASE}`]: [jsonResponse(200, liabilityWithBrokenDraft), jsonResponse(200, withSaved)],
    [`GET ${BASE}/versions/3/compare`]: jsonResponse(200, comparison),
    [`POST ${BASE}/versions`]: jsonResponse(201, saved),
  });
}

describe('a new clause version', () => {
  it('starts from the version under review and posts its variants in the order given; the problems show', async () => {
    const api = stub();
    const { router } = renderRoutes(routes, '/klauseln/haftung?version=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Version' }));
    expect(screen.getByRole('heading', { name: 'Neue Version' })).toHaveFocus();
    expect(editor()).toHaveTextContent('Ausgangspunkt ist der Inhalt von Version 1.');
    expect(box(variant('Variante 1: Standard'), /^Deutscher Text/)).toHaveValue(
      'Wir haften unbeschränkt für Vorsatz und grobe Fahrlässigkeit.',
    );
    expect(within(editor()).getByRole('button', { name: 'Variante 1 entfernen' })).toBeDisabled();

    await userEvent.click(within(editor()).getByRole('button', { name: 'Variante hinzufügen' }));
    const added = variant('Variante 2');
    expect(box(added, /^Name der Variante/)).toHaveFocus();
    await userEvent.keyboard(swiss.name);
    await userEvent.type(box(variant('Variante 2: Schweiz'), /^Regel/), swiss.rule);
    await userEvent.type(box(variant('Variante 2: Schweiz'), /^Deutscher Text/), swiss.de);
    await userEvent.type(box(variant('Variante 2: Schweiz'), /^Englischer Text/), swiss.en);

    // Moved by keyboard: the focus stays with the moved variant's button.
    within(editor()).getByRole('button', { name: 'Variante 2 nach oben' }).focus();
    await userEvent.keyboard('{Enter}');
    const movedDown = within(variant('Variante 1: Schweiz')).getByRole('button', {
      name: 'Variante 1 nach unten',
    });
    await waitFor(() => expect(movedDown).toHaveFocus());
    expect(variant('Variante 2: Standard')).toBeInTheDocument();

    await userEvent.type(box(editor(), /^Was ändert sich/), 'Schweiz');
    expectHeadingsInOrder();
    await userEvent.click(within(editor()).getByRole('button', { name: 'Version speichern und prüfen' }));

    await waitFor(() => expect(router.state.location.search).toBe('?version=3'));
    expect(api.callsTo(`POST ${BASE}/versions`)[0]?.body).toEqual({
      content: {
        variants: [swiss, standardVariant],
        option: 'always',
      },
      comment: 'Schweiz',
    });
    expect(await screen.findByRole('heading', { name: 'Version 3', level: 2 })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Neue Version' })).not.toBeInTheDocument();
    const versions = screen.getByRole('table', { name: 'Versionen' });
    expect(within(versions).getAllByRole('row')[1]).toHaveTextContent('Entwurf1 Problem');
    expect(screen.getByRole('region', { name: 'Prüfung' })).toHaveTextContent(
      'Variante „Schweiz“, englischer Text: Der englische Text ist kürzer als erwartet.',
    );
    expect(
      screen.getByText('Version 3 ist gespeichert – mit einem Problem, siehe unten.'),
    ).toBeInTheDocument();
  });

  it('marks a variant without a name and a missing comment at their fields, and sends nothing', async () => {
    const api = stub();
    renderRoutes(routes, '/klauseln/haftung?version=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Version' }));
    await userEvent.click(within(editor()).getByRole('button', { name: 'Variante hinzufügen' }));
    await userEvent.click(within(editor()).getByRole('button', { name: 'Version speichern und prüfen' }));

    const name = box(variant('Variante 2'), /^Name der Variante/);
    await waitFor(() => expect(name).toHaveFocus());
    expect(name).toHaveAccessibleDescription('Bitte gib der Variante einen Namen.');
    expect(box(editor(), /^Was ändert sich/)).toHaveAccessibleDescription(
      'Bitte kurz beschreiben, was sich ändert.',
    );
    expect(within(editor()).getByText('Bitte korrigiere die rot markierten Felder.')).toBeInTheDocument();
    // The editor with its marks, its help unfolded: the rest of the page is checked in clause-page.test.tsx.
    for (const summary of within(editor()).getAllByText(/^So schreibst du/)) await userEvent.click(summary);
    await expectNoSeriousViolations(editor());

    await userEvent.click(within(editor()).getByRole('button', { name: 'Variante 2 entfernen' }));
    expect(within(editor()).queryByRole('group', { name: 'Variante 2' })).not.toBeInTheDocument();
    expect(within(editor()).getByRole('button', { name: 'Variante hinzufügen' })).toHaveFocus();

    await userEvent.click(within(editor()).getByRole('button', { name: 'Abbrechen' }));
    expect(screen.queryByRole('region', { name: 'Neue Version' })).not.toBeInTheDocument();
    expect(api.callsTo(`POST ${BASE}/versions`)).toHaveLength(0);
  });

  it("shows the server's verdict on a field at that field", async () => {
    const api = stubApi({
      [`GET ${BASE}`]: jsonResponse(200, liabilityWithBrokenDraft),
      [`POST ${BASE}/versions`]: jsonResponse(400, {
        error: 'invalid_request',
        message: 'Bitte prüfe die markierten Felder.',
        fields: { 'content.variants.0.rule': ['Die Regel ist an Stelle 7 nicht lesbar.'] },
      }),
    });
    renderRoutes(routes, '/klauseln/haftung?version=1');
    await userEvent.click(await screen.findByRole('button', { name: 'Neue Version' }));
    await userEvent.type(box(variant('Variante 1: Standard'), /^Regel/), 'land = ');
    await userEvent.type(box(editor(), /^Was ändert sich/), 'Nur in Deutschland');
    await userEvent.click(within(editor()).getByRole('button', { name: 'Version speichern und prüfen' }));
    const rule = box(variant('Variante 1: Standard'), /^Regel/);
    await waitFor(() => expect(rule).toHaveAccessibleDescription(expect.stringContaining('an Stelle 7')));
    expect(within(editor()).getByText('Bitte prüfe die markierten Felder.')).toBeInTheDocument();
    expect(api.callsTo(`POST ${BASE}/versions`)[0]?.body.content.variants[0].rule).toBe('land =');
  });
});
