import { describe, expect, it } from 'vitest';
import { DISPLAY_LABELS, displayRows, isWideValue, WIDE_VALUE_THRESHOLD } from './display.js';
import type { ResolvedMatch } from './match.js';

const ROW_LABELS_IN_ORDER = [
  'Berater Job',
  'Berater Kandidat',
  'Projektpartner',
  'Projektpartner Gesellschaft',
  'Projektpartner Adresse',
  'Kunde',
  'Ansprechpartner Kunde',
  'Adresse Kunde',
  'Startdatum',
  'Enddatum',
  'Kündigungsfrist',
  'Zahlungsziel PP',
  'Zahlungsziel Kunde',
  'Vergütungssatz',
  'EK Remote',
  'VK Remote',
  'EK Onsite',
  'VK Onsite',
  'Auslastung',
  'Einsatzort',
  'Position',
  'Aufgabenbeschreibung',
  'Zusätzliche Vereinbarungen',
  'Anstellungsart',
  'Vertragspartner PP',
  'Vertragspartner Kunde',
];

const full: ResolvedMatch = {
  matchId: 'PL-42',
  beraterJob: 'Jana Job',
  beraterKandidat: 'Karl Kandidat',
  candidateFirstName: 'Anna',
  candidateLastName: 'Muster',
  ppGesellschaft: 'Muster IT GmbH',
  ppAdresse: 'Hauptstr. 1, 10115 Berlin',
  kunde: 'ACME AG',
  ansprechpartnerKunde: 'Bernd Bauer',
  adresseKunde: 'Ring 2, 80331 München',
  startdatum: '2026-04-01',
  enddatum: '30.09.2026',
  kuendigungsfristKunde: '4 weeks',
  zahlungszielPP: '14 days net',
  zahlungszielKunde: '1 month',
  verguetungssatz: '95,5',
  ek: 800,
  vk: '1000',
  ek2: '850.5',
  vk2: 1100,
  stundenProWoche: 40,
  einsatzort: 'Remote',
  position: 'Backend-Entwicklerin',
  aufgabenbeschreibung: 'Entwicklung',
  addAgreements: 'keine',
  Anstellungsart: 'Freelancer',
  vertragspartnerPP: 'WM Consulting GmbH',
  vertragspartnerKunde: 'WE Engineering GmbH',
};

describe('displayRows', () => {
  it('lists the rows in their fixed order with their labels', () => {
    expect(displayRows(full).map((row) => row.label)).toEqual(ROW_LABELS_IN_ORDER);
  });

  it('formats each row by its kind', () => {
    expect(displayRows(full).map((row) => [row.key, row.value])).toEqual([
      ['beraterJob', 'Jana Job'],
      ['beraterKandidat', 'Karl Kandidat'],
      ['projektpartner', 'Anna Muster'],
      ['ppGesellschaft', 'Muster IT GmbH'],
      ['ppAdresse', 'Hauptstr. 1, 10115 Berlin'],
      ['kunde', 'ACME AG'],
      ['ansprechpartnerKunde', 'Bernd Bauer'],
      ['adresseKunde', 'Ring 2, 80331 München'],
      ['startdatum', '01.04.2026'],
      ['enddatum', '30.09.2026'],
      ['kuendigungsfristKunde', '4 weeks'],
      ['zahlungszielPP', '14 Tage netto'],
      ['zahlungszielKunde', '1 Monat'],
      ['verguetungssatz', '95,50 €'],
      ['ek', '800,00 €'],
      ['vk', '1.000,00 €'],
      ['ek2', '850,50 €'],
      ['vk2', '1.100,00 €'],
      ['stundenProWoche', '40 pro Woche'],
      ['einsatzort', 'Remote'],
      ['position', 'Backend-Entwicklerin'],
      ['aufgabenbeschreibung', 'Entwicklung'],
      ['addAgreements', 'keine'],
      ['Anstellungsart', 'Freelancer'],
      ['vertragspartnerPP', 'WM Consulting GmbH'],
      ['vertragspartnerKunde', 'WE Engineering GmbH'],
    ]);
  });

  it('shows / for every missing value', () => {
    const rows = displayRows({ matchId: 'PL-1' });
    expect(rows).toHaveLength(ROW_LABELS_IN_ORDER.length);
    for (const row of rows) {
      expect(row.value, row.label).toBe('/');
      expect(row.wide).toBe(false);
    }
  });

  it.each([
    [{ candidateFirstName: 'Anna' }, 'Anna'],
    [{ candidateLastName: 'Muster' }, 'Muster'],
    [{ candidateFirstName: ' Anna ', candidateLastName: ' Muster ' }, 'Anna Muster'],
    [{ candidateFirstName: '  ', candidateLastName: 'Muster' }, 'Muster'],
    [{ candidateFirstName: '', candidateLastName: ' ' }, '/'],
  ])('joins the project partner name %j to %j', (names, expected) => {
    const row = displayRows({ matchId: 'PL-1', ...names }).find((r) => r.key === 'projektpartner');
    expect(row?.value).toBe(expected);
  });

  it('shows an unreadable date as Ungültiges Datum', () => {
    const row = displayRows({ matchId: 'PL-1', startdatum: '2026-02-30' }).find(
      (r) => r.key === 'startdatum',
    );
    expect(row?.value).toBe('Ungültiges Datum');
  });

  it('uses the wide layout only above 40 characters', () => {
    const at = 'x'.repeat(40);
    const above = 'x'.repeat(41);
    const rows = displayRows({ matchId: 'PL-1', aufgabenbeschreibung: above, position: at });
    expect(rows.find((r) => r.key === 'aufgabenbeschreibung')?.wide).toBe(true);
    expect(rows.find((r) => r.key === 'position')?.wide).toBe(false);
  });

  it('decides wide on the formatted value, not the raw one', () => {
    const longOnlyFormatted = '1234567890123456789012345';
    const longOnlyRaw = `${' '.repeat(40)}1234`;
    const rows = displayRows({ matchId: 'PL-1', stundenProWoche: longOnlyFormatted, ek: longOnlyRaw });
    const hours = rows.find((r) => r.key === 'stundenProWoche');
    expect(hours?.value.endsWith(' pro Woche')).toBe(true);
    expect(hours?.wide).toBe(true);
    const ek = rows.find((r) => r.key === 'ek');
    expect(ek?.value).toBe('1.234,00 €');
    expect(ek?.wide).toBe(false);
  });
});

describe('isWideValue', () => {
  it('uses the threshold of 40 characters', () => {
    expect(WIDE_VALUE_THRESHOLD).toBe(40);
  });

  it('counts characters, not UTF-16 units', () => {
    expect(isWideValue('ä'.repeat(40))).toBe(false);
    expect(isWideValue('😀'.repeat(40))).toBe(false);
    expect(isWideValue('😀'.repeat(41))).toBe(true);
  });
});

describe('DISPLAY_LABELS', () => {
  it('names fields by their row label', () => {
    expect(DISPLAY_LABELS.ek2).toBe('EK Onsite');
    expect(DISPLAY_LABELS.stundenProWoche).toBe('Auslastung');
  });
});
