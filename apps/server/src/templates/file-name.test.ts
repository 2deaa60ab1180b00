import { BLANK_LINE, type CatalogueEntry, catalogueEntry } from '@vertragsgenerator/domain';
import { describe, expect, it } from 'vitest';
import { documentFileName } from './file-name.js';

const entry = (key: string) => catalogueEntry(key) as CatalogueEntry;
const name = (key: string, partnerName: string) =>
  documentFileName(entry(key), { matchId: 'PL-10001', partnerName });

describe('documentFileName', () => {
  it.each([
    ['de-wm-k-rv-1', 'Elbwerk Logistik AG', 'PL-10001 Rahmenvertrag Kunde Elbwerk Logistik AG.docx'],
    [
      'en-we-pp-ev',
      'Nordkap IT Services GmbH',
      'PL-10001 Einzelauftrag (englisch) Projektpartner Nordkap IT Services GmbH.docx',
    ],
    [
      'kuendigung-wp-pp-termination-los',
      'Jana Kowalski',
      'PL-10001 Fristlose Kündigung Projektpartner Jana Kowalski.docx',
    ],
    ['kuendigung-wm-k-confirmation', 'Elbwerk', 'PL-10001 Kündigungsbestätigung Kunde Elbwerk.docx'],
    ['angebot-we', 'Elbwerk', 'PL-10001 Angebot Kunde Elbwerk.docx'],
    ['zusatz-wm-k-hours', 'Elbwerk', 'PL-10001 Zusatzvereinbarung Stunden Kunde Elbwerk.docx'],
  ])('names %s after match, document and party', (key, partner, expected) => {
    expect(name(key, partner)).toBe(expected);
  });

  it('leaves out a party without a name instead of printing the blank line', () => {
    expect(name('angebot-wm', BLANK_LINE)).toBe('PL-10001 Angebot Kunde.docx');
  });

  it('replaces characters file systems refuse and keeps the name short', () => {
    expect(name('angebot-wm', 'A/B\\C: "D" <E> | F? *G*\tH\u0000.')).toBe(
      'PL-10001 Angebot Kunde A B C D E F G H.docx',
    );
    const long = name('angebot-wm', `${'Ä'.repeat(300)}\uD83D\uDE00`);
    expect(Array.from(long.slice(0, -'.docx'.length))).toHaveLength(150);
    expect(long.endsWith('Ä.docx')).toBe(true);
  });
});
