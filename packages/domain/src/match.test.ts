import { describe, expect, it } from 'vitest';
import {
  isValidMatchId,
  MATCH_NUMERIC_FIELDS,
  MATCH_TEXT_FIELDS,
  type MatchRecord,
  matchFieldsSchema,
  matchRecordSchema,
  normalizeMatchId,
  resolvedMatchSchema,
  resolveMatch,
} from './match.js';

describe('matchRecordSchema', () => {
  it('covers exactly the fields a CRM match record has', () => {
    const crmFields = [
      'beraterJob',
      'beraterKandidat',
      'candidateFirstName',
      'candidateLastName',
      'ppGesellschaft',
      'ppAdresse',
      'kunde',
      'ansprechpartnerKunde',
      'adresseKunde',
      'startdatum',
      'enddatum',
      'kuendigungsfristKunde',
      'kuendigungsfrist',
      'zahlungszielPP',
      'zahlungszielKunde',
      'verguetungssatz',
      'ek',
      'vk',
      'ek2',
      'vk2',
      'tagessatzEk',
      'tagessatzRemote',
      'tagessatzEk2',
      'tagessatzOnsite',
      'stundenProWoche',
      'einsatzort',
      'position',
      'aufgabenbeschreibung',
      'addAgreements',
      'Anstellungsart',
      'vertragspartnerPP',
      'vertragspartnerKunde',
    ];
    expect(Object.keys(matchFieldsSchema.shape).sort()).toEqual([...crmFields].sort());
    expect(Object.keys(matchRecordSchema.shape).sort()).toEqual([...crmFields, 'matchId'].sort());
  });

  it('accepts a record with only its ID', () => {
    expect(matchRecordSchema.parse({ matchId: 'PL-1' })).toEqual({ matchId: 'PL-1' });
  });

  it('requires a valid match ID', () => {
    expect(matchRecordSchema.safeParse({}).success).toBe(false);
    expect(matchRecordSchema.safeParse({ matchId: '123' }).success).toBe(false);
    expect(matchRecordSchema.safeParse({ matchId: 'PL-' }).success).toBe(false);
  });

  it('turns null into a missing field', () => {
    const parsed = matchRecordSchema.parse({ matchId: 'PL-1', kunde: null, ek: null });
    expect(parsed.kunde).toBeUndefined();
    expect(parsed.ek).toBeUndefined();
    expect(JSON.parse(JSON.stringify(parsed))).toStrictEqual({ matchId: 'PL-1' });
  });

  it('keeps rates and hours as given, number or text', () => {
    const parsed = matchRecordSchema.parse({
      matchId: 'PL-1',
      ek: 850,
      vk: '1.100,00',
      stundenProWoche: '40',
    });
    expect(parsed).toEqual({ matchId: 'PL-1', ek: 850, vk: '1.100,00', stundenProWoche: '40' });
  });

  it.each(MATCH_NUMERIC_FIELDS)('accepts text and finite numbers for %s', (field) => {
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: 12.5 }).success).toBe(true);
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: 'zwölf' }).success).toBe(true);
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: Number.NaN }).success).toBe(false);
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: true }).success).toBe(false);
  });

  it.each(MATCH_TEXT_FIELDS)('refuses a number for the text field %s', (field) => {
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: 3 }).success).toBe(false);
    expect(matchRecordSchema.safeParse({ matchId: 'PL-1', [field]: 'x' }).success).toBe(true);
  });

  it('drops fields it does not know', () => {
    expect(matchRecordSchema.parse({ matchId: 'PL-1', unbekannt: 'x' })).toEqual({ matchId: 'PL-1' });
  });
});

describe('resolveMatch', () => {
  const base: MatchRecord = { matchId: 'PL-7' };

  it.each([
    ['kuendigungsfristKunde', 'kuendigungsfrist'],
    ['ek', 'tagessatzEk'],
    ['vk', 'tagessatzRemote'],
    ['ek2', 'tagessatzEk2'],
    ['vk2', 'tagessatzOnsite'],
  ] as const)('%s falls back to %s', (primary, fallback) => {
    expect(resolveMatch({ ...base, [fallback]: '4 Wochen' })[primary]).toBe('4 Wochen');
    expect(resolveMatch({ ...base, [primary]: '  ', [fallback]: '4 Wochen' })[primary]).toBe('4 Wochen');
    expect(resolveMatch({ ...base, [primary]: '6 Wochen', [fallback]: '4 Wochen' })[primary]).toBe(
      '6 Wochen',
    );
    expect(resolveMatch(base)[primary]).toBeUndefined();
    expect(resolveMatch({ ...base, [primary]: '', [fallback]: ' ' })[primary]).toBeUndefined();
  });

  it('prefers a numeric primary value, keeping its type', () => {
    expect(resolveMatch({ ...base, ek: 0, tagessatzEk: 900 }).ek).toBe(0);
    expect(resolveMatch({ ...base, vk2: '', tagessatzOnsite: 1200 }).vk2).toBe(1200);
  });

  it('drops the fallback source fields and keeps every other field', () => {
    const resolved = resolveMatch({
      ...base,
      kunde: 'ACME AG',
      stundenProWoche: 40,
      kuendigungsfrist: '4 Wochen',
      tagessatzEk: 800,
      tagessatzRemote: 1000,
      tagessatzEk2: 850,
      tagessatzOnsite: 1100,
    });
    expect(resolved).toEqual({
      matchId: 'PL-7',
      kunde: 'ACME AG',
      stundenProWoche: 40,
      kuendigungsfristKunde: '4 Wochen',
      ek: 800,
      vk: 1000,
      ek2: 850,
      vk2: 1100,
    });
    expect(resolvedMatchSchema.parse(JSON.parse(JSON.stringify(resolved)))).toEqual(resolved);
  });
});

describe('normalizeMatchId', () => {
  it.each([
    ['123', 'PL-123'],
    ['  123  ', 'PL-123'],
    ['PL-123', 'PL-123'],
    ['pl-123', 'PL-123'],
    ['Pl-abc', 'PL-abc'],
    [' pL-9 ', 'PL-9'],
    ['PL123', 'PL-PL123'],
    ['', 'PL-'],
  ])('%j → %j', (input, expected) => {
    expect(normalizeMatchId(input)).toBe(expected);
  });
});

describe('isValidMatchId', () => {
  it.each(['PL-1', 'PL-abc_DEF-123', `PL-${'a'.repeat(32)}`])('accepts %s', (id) => {
    expect(isValidMatchId(id)).toBe(true);
  });

  it.each(['PL-', 'pl-1', '123', 'PL-1 2', 'PL-1/2', 'PL-ä', `PL-${'a'.repeat(33)}`, ' PL-1', 'PL-1\n'])(
    'refuses %j',
    (id) => {
      expect(isValidMatchId(id)).toBe(false);
    },
  );
});
