import { describe, expect, it } from 'vitest';
import type { ResolvedMatch } from './match.js';
import { plausibilityHints } from './plausibility.js';

const today = new Date(2026, 2, 15, 12, 0);

const clean: ResolvedMatch = {
  matchId: 'PL-1',
  startdatum: '2026-04-01',
  enddatum: '2026-09-30',
  ek: 800,
  vk: '1.000,00',
  ek2: '850',
  vk2: 1100,
  stundenProWoche: 40,
};

const codes = (match: ResolvedMatch, on = today) => plausibilityHints(match, on).map((h) => h.code);

describe('plausibilityHints', () => {
  it('gives no hint for clean data', () => {
    expect(plausibilityHints(clean, today)).toEqual([]);
  });

  it('gives no hint for an empty match', () => {
    expect(plausibilityHints({ matchId: 'PL-1' }, today)).toEqual([]);
  });

  describe('end before start', () => {
    it('warns and names both date fields', () => {
      const hints = plausibilityHints({ ...clean, enddatum: '31.03.2026' }, today);
      expect(hints).toEqual([
        {
          code: 'end-before-start',
          message:
            'Das Enddatum (31.03.2026) liegt vor dem Startdatum (01.04.2026). Bitte korrigiere Startdatum oder Enddatum im CRM.',
          fields: ['startdatum', 'enddatum'],
        },
      ]);
    });

    it('accepts a one-day match', () => {
      expect(codes({ ...clean, enddatum: '01.04.2026' })).toEqual([]);
    });

    it('compares across formats and years', () => {
      expect(codes({ ...clean, startdatum: '2027-01-01', enddatum: '31.12.2026' })).toEqual([
        'end-before-start',
      ]);
    });

    it.each([{ enddatum: '2026-02-30' }, { enddatum: 'offen' }, { enddatum: undefined }])(
      'stays silent when a date cannot be read: %j',
      (change) => {
        expect(codes({ ...clean, ...change })).toEqual([]);
      },
    );
  });

  describe('VK below EK', () => {
    it('warns for remote rates', () => {
      const hints = plausibilityHints({ ...clean, ek: '1.200,00', vk: 1000 }, today);
      expect(hints).toEqual([
        {
          code: 'vk-below-ek-remote',
          message:
            'VK Remote (1.000,00 €) liegt unter EK Remote (1.200,00 €). Bitte prüfe EK Remote und VK Remote im CRM.',
          fields: ['ek', 'vk'],
        },
      ]);
    });

    it('warns for onsite rates', () => {
      const hints = plausibilityHints({ ...clean, ek2: 900, vk2: '899,99' }, today);
      expect(hints).toEqual([
        {
          code: 'vk-below-ek-onsite',
          message:
            'VK Onsite (899,99 €) liegt unter EK Onsite (900,00 €). Bitte prüfe EK Onsite und VK Onsite im CRM.',
          fields: ['ek2', 'vk2'],
        },
      ]);
    });

    it('does not compare remote with onsite rates', () => {
      expect(codes({ ...clean, ek: 500, vk: 600, ek2: 1500, vk2: 1600 })).toEqual([]);
    });

    it('accepts VK equal to EK', () => {
      expect(codes({ ...clean, ek: 1000, vk: '1000' })).toEqual([]);
    });

    it.each([{ vk: 'nach Absprache' }, { ek: undefined }, { vk: '' }])(
      'stays silent unless both are numeric: %j',
      (change) => {
        expect(codes({ ...clean, ek: 1000, vk: 900, ...change })).toEqual([]);
      },
    );
  });

  describe('weekly hours', () => {
    it.each([0, 0.5, 60.5, 80, '-5', '61'])('warns for %j', (hours) => {
      const hints = plausibilityHints({ ...clean, stundenProWoche: hours }, today);
      expect(hints.map((h) => h.code)).toEqual(['hours-out-of-range']);
      expect(hints[0]?.fields).toEqual(['stundenProWoche']);
      expect(hints[0]?.message).toContain('Auslastung');
      expect(hints[0]?.message).toContain('im CRM');
    });

    it('says which value it found', () => {
      expect(plausibilityHints({ ...clean, stundenProWoche: '80' }, today)[0]?.message).toBe(
        'Die Auslastung von 80 Stunden pro Woche liegt außerhalb von 1 bis 60 Stunden. Bitte korrigiere die Auslastung (Stunden pro Woche) im CRM.',
      );
    });

    it.each([1, 60, '37,5', 'Vollzeit', undefined])('stays silent for %j', (hours) => {
      expect(codes({ ...clean, stundenProWoche: hours })).toEqual([]);
    });
  });

  describe('start in the past', () => {
    it('warns for a start before today', () => {
      const hints = plausibilityHints({ ...clean, startdatum: '14.03.2026' }, today);
      expect(hints).toEqual([
        {
          code: 'start-in-past',
          message:
            'Das Startdatum (14.03.2026) liegt in der Vergangenheit. Bitte prüfe das Startdatum im CRM.',
          fields: ['startdatum'],
        },
      ]);
    });

    it('accepts a start today, whatever the time of day', () => {
      expect(codes({ ...clean, startdatum: '2026-03-15' }, new Date(2026, 2, 15, 0, 0))).toEqual([]);
      expect(codes({ ...clean, startdatum: '2026-03-15' }, new Date(2026, 2, 15, 23, 59))).toEqual([]);
    });

    it('stays silent for an unreadable start', () => {
      expect(codes({ ...clean, startdatum: '2020-02-30' })).toEqual([]);
    });
  });

  it('reports every problem at once', () => {
    const hints = plausibilityHints(
      {
        matchId: 'PL-1',
        startdatum: '2026-01-01',
        enddatum: '2025-12-31',
        ek: 1000,
        vk: 900,
        ek2: 1000,
        vk2: 900,
        stundenProWoche: 70,
      },
      today,
    );
    expect(hints.map((h) => h.code).sort()).toEqual(
      [
        'end-before-start',
        'hours-out-of-range',
        'start-in-past',
        'vk-below-ek-onsite',
        'vk-below-ek-remote',
      ].sort(),
    );
  });
});
