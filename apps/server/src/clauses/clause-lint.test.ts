import type { ClauseContent, ClauseVariant } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { lintClauseContent } from './clause-lint.js';

const variant = (overrides: Partial<ClauseVariant> = {}): ClauseVariant => ({
  name: 'Standard',
  rule: null,
  de: 'Die Haftung von {firmaName} gegenüber {partnerName} ist begrenzt.',
  en: 'The liability of {firmaName} towards {partnerName} is limited.',
  ...overrides,
});
const content = (...variants: ClauseVariant[]): ClauseContent => ({ option: 'always', variants });

describe('the check of a clause version', () => {
  it('finds nothing in a clause with readable rules, both languages and known placeholders', () => {
    expect(
      lintClauseContent(
        content(
          variant({
            name: 'Schweiz',
            rule: 'land = CH',
            de: '{#mitKunde}Es gilt **Schweizer** Recht.{/mitKunde}',
          }),
          variant(),
        ),
      ),
    ).toEqual([]);
  });

  it.each([
    [
      'a missing English text',
      content(variant({ en: '  ' })),
      [
        {
          place: 'Variante „Standard“, englischer Text',
          message: 'Der englische Text fehlt: jede Variante braucht beide Sprachen.',
        },
      ],
    ],
    [
      'an unknown placeholder, with the name it likely means',
      content(variant({ de: 'Gegenüber {PartnerName} und {gibtsNicht}.' })),
      [
        {
          place: 'Variante „Standard“, deutscher Text',
          message:
            '{PartnerName}: Unbekannter Platzhalter, nicht im Feldverzeichnis. Gemeint ist wohl {partnerName}.',
        },
        {
          place: 'Variante „Standard“, deutscher Text',
          message: '{gibtsNicht}: Unbekannter Platzhalter, nicht im Feldverzeichnis.',
        },
      ],
    ],
    [
      'a clause placed inside a clause',
      content(variant({ en: 'See {@klausel:haftung}.' })),
      [
        {
          place: 'Variante „Standard“, englischer Text',
          message: '{@klausel:haftung}: Eine Klausel kann keine Klausel und kein rohes XML enthalten.',
        },
      ],
    ],
    [
      'a section that is not closed, and a text field used as one',
      content(variant({ de: '{#mitKunde}Nur für Kunden. {#kunde}x{/kunde}' })),
      [
        {
          place: 'Variante „Standard“, deutscher Text',
          message: '{#kunde}: „kunde“ ist ein Textfeld; in Klauseln gehen Abschnitte nur mit Bedingungen.',
        },
        {
          place: 'Variante „Standard“, deutscher Text',
          message: '{#mitKunde} wird nicht mit {/mitKunde} geschlossen.',
        },
      ],
    ],
    [
      'a brace left open',
      content(variant({ de: 'Gegenüber {partnerName ist begrenzt.' })),
      [
        {
          place: 'Variante „Standard“, deutscher Text',
          message: 'Eine Klammer „{“ ist nicht geschlossen bzw. nicht geöffnet.',
        },
      ],
    ],
    [
      'a rule that names an unknown field',
      content(variant({ name: 'Schweiz', rule: 'lnad = CH' }), variant()),
      [
        {
          place: 'Variante „Schweiz“, Regel',
          message: expect.stringMatching(/^Unbekanntes Feld „lnad“/),
        },
      ],
    ],
    [
      'a variant without a rule before another, which could never apply',
      content(variant(), variant({ name: 'Schweiz', rule: 'land = CH' })),
      [
        {
          place: 'Variante „Standard“, Regel',
          message: expect.stringMatching(/^Ohne Regel gilt diese Variante immer/),
        },
      ],
    ],
    [
      'two variants of the same name',
      content(variant({ name: 'Schweiz', rule: 'land = CH' }), variant({ name: 'schweiz' })),
      [{ place: null, message: 'Zwei Varianten heißen „schweiz“: die Namen müssen verschieden sein.' }],
    ],
  ])('reports %s', (_case, tried, problems) => {
    expect(lintClauseContent(tried)).toEqual(problems);
  });
});
