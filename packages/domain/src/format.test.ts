import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  berlinCalendarDateOf,
  calendarDateOf,
  compareCalendarDates,
  displayValue,
  formatDate,
  formatDateTime,
  formatHoursPerWeek,
  formatPaymentTerm,
  formatPaymentTermEnglish,
  formatPrice,
  parseDate,
  parseGermanNumber,
} from './format.js';

const MISSING = [undefined, null, '', '   '] as const;

describe('formatDate', () => {
  it.each(MISSING)('shows %j as /', (value) => {
    expect(formatDate(value)).toBe('/');
  });

  it.each([
    ['2026-03-01', '01.03.2026'],
    ['2024-02-29', '29.02.2024'],
    ['2000-02-29', '29.02.2000'],
    ['  2026-12-31 ', '31.12.2026'],
    ['2026-03-01T00:00:00.000Z', '01.03.2026'],
    ['2026-03-01T23:59:59+02:00', '01.03.2026'],
    ['2026-03-01T10:15', '01.03.2026'],
    ['2026-03-01 10:15:30', '01.03.2026'],
    ['2026-03-01T10:15:30.123456-0500', '01.03.2026'],
    ['01.03.2026', '01.03.2026'],
    ['1.3.2026', '01.03.2026'],
    ['31.12.1999', '31.12.1999'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatDate(input)).toBe(expected);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '1900-02-29',
    '1800-02-29',
    '2026-04-31',
    '2026-13-01',
    '2026-00-10',
    '2026-01-00',
    '0000-01-01',
    '30.02.2026',
    '32.01.2026',
    '01.13.2026',
    '2026-03-01T24:00',
    '2026-03-01T10:60',
    '2026-03-01T10:00:60',
    '2026-03-01T10:00+25:00',
    '2026-3-1',
    '01.03.26',
    '01/03/2026',
    'März 2026',
    'morgen',
  ])('shows %j as Ungültiges Datum', (input) => {
    expect(formatDate(input)).toBe('Ungültiges Datum');
  });

  it('does not read a number as a date', () => {
    expect(formatDate(20260301)).toBe('Ungültiges Datum');
  });

  it('reads any valid ISO or German date back as the same day', () => {
    const validDate = fc
      .record({
        year: fc.integer({ min: 1, max: 9999 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
      })
      // Date.UTC would shift years 0–99 into the 1900s, so setUTCFullYear checks real calendar validity.
      .filter(({ year, month, day }) => {
        const d = new Date(0);
        d.setUTCFullYear(year, month - 1, day);
        return d.getUTCDate() === day;
      });
    fc.assert(
      fc.property(validDate, ({ year, month, day }) => {
        const dd = String(day).padStart(2, '0');
        const mm = String(month).padStart(2, '0');
        const yyyy = String(year).padStart(4, '0');
        const expected = `${dd}.${mm}.${yyyy}`;
        expect(formatDate(`${yyyy}-${mm}-${dd}`)).toBe(expected);
        expect(formatDate(`${yyyy}-${mm}-${dd}T12:00:00Z`)).toBe(expected);
        expect(formatDate(expected)).toBe(expected);
      }),
    );
  });

  it('refuses any day past the end of its month', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 9999 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        const d = new Date(0);
        d.setUTCFullYear(year, month, 0);
        const firstInvalidDay = d.getUTCDate() + 1;
        const text = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${firstInvalidDay}`;
        expect(formatDate(text)).toBe('Ungültiges Datum');
      }),
    );
  });
});

describe('parseDate and date comparison', () => {
  it('reads the calendar day', () => {
    expect(parseDate('2026-03-01')).toEqual({ year: 2026, month: 3, day: 1 });
    expect(parseDate('5.11.2026')).toEqual({ year: 2026, month: 11, day: 5 });
    expect(parseDate(undefined)).toBeUndefined();
    expect(parseDate('2026-02-30')).toBeUndefined();
  });

  it('orders days', () => {
    const d = (year: number, month: number, day: number) => ({ year, month, day });
    expect(compareCalendarDates(d(2026, 1, 31), d(2026, 2, 1))).toBeLessThan(0);
    expect(compareCalendarDates(d(2025, 12, 31), d(2026, 1, 1))).toBeLessThan(0);
    expect(compareCalendarDates(d(2026, 3, 2), d(2026, 3, 1))).toBeGreaterThan(0);
    expect(compareCalendarDates(d(2026, 3, 1), d(2026, 3, 1))).toBe(0);
  });

  it('takes the local day of a Date', () => {
    expect(calendarDateOf(new Date(2026, 0, 31, 23, 59))).toEqual({ year: 2026, month: 1, day: 31 });
  });
});

describe('formatPrice', () => {
  it.each(MISSING)('shows %j as /', (value) => {
    expect(formatPrice(value)).toBe('/');
  });

  it.each([
    [1234.5, '1.234,50 €'],
    [0, '0,00 €'],
    [85, '85,00 €'],
    [999.999, '1.000,00 €'],
    [1234567.891, '1.234.567,89 €'],
    [-1234.5, '-1.234,50 €'],
    [-0.001, '0,00 €'],
  ])('formats the number %j as %j', (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
  });

  it.each([
    ['1234.5', '1.234,50 €'],
    ['1234', '1.234,00 €'],
    ['1.234,50', '1.234,50 €'],
    ['1234,5 €', '1.234,50 €'],
    ['1234,5€', '1.234,50 €'],
    ['€ 1234,5', '1.234,50 €'],
    ['1.234,5 EUR', '1.234,50 €'],
    ['1.234.567', '1.234.567,00 €'],
    ['1,234.50', '1.234,50 €'],
    ['1,234,567', '1.234.567,00 €'],
    ['  950  ', '950,00 €'],
    ['-12,3', '-12,30 €'],
    ['0.5', '0,50 €'],
  ])('formats the text %j as %j', (input, expected) => {
    expect(formatPrice(input)).toBe(expected);
  });

  it('separates the euro sign with a plain space', () => {
    expect(formatPrice(1)).toBe('1,00\u0020€');
    expect(formatPrice(1)).not.toContain('\u00a0');
  });

  it.each(['nach Absprache', '1.23.4', '12,34,5', '1,2.3', '12 34', 'ca. 900', '€', '1e3', 'Infinity'])(
    'shows the text %j unchanged',
    (input) => {
      expect(formatPrice(input)).toBe(input);
    },
  );

  it('shows a non-finite number as it is', () => {
    expect(formatPrice(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });

  it('round-trips any amount in cents through German parsing', () => {
    fc.assert(
      fc.property(fc.integer({ min: -(10 ** 13), max: 10 ** 13 }), (cents) => {
        const abs = Math.abs(cents);
        const euros = String(Math.floor(abs / 100)).replace(/\B(?=(\d{3})+$)/g, '.');
        const rest = String(abs % 100).padStart(2, '0');
        const expected = `${cents < 0 ? '-' : ''}${euros},${rest} €`;
        const amount = cents / 100;
        const formatted = formatPrice(amount);
        expect(formatted).toBe(expected);
        expect(parseGermanNumber(formatted)).toBe(amount);
        expect(formatPrice(formatted)).toBe(formatted);
      }),
    );
  });
});

describe('parseGermanNumber', () => {
  it.each([
    [42, 42],
    ['42', 42],
    ['1.234,56', 1234.56],
    ['1234.56', 1234.56],
    ['1,5', 1.5],
    ['1.234', 1.234],
    ['1.234.000', 1234000],
  ])('reads %j as %j', (input, expected) => {
    expect(parseGermanNumber(input)).toBe(expected);
  });

  it.each([undefined, null, '', 'abc', Number.NaN, '1..2', ',5'])('does not read %j', (input) => {
    expect(parseGermanNumber(input)).toBeUndefined();
  });
});

describe('formatHoursPerWeek', () => {
  it.each(MISSING)('shows %j as /', (value) => {
    expect(formatHoursPerWeek(value)).toBe('/');
  });

  it.each([
    [40, '40 pro Woche'],
    ['40', '40 pro Woche'],
    [37.5, '37,5 pro Woche'],
    ['37,5', '37,5 pro Woche'],
    ['20.25', '20,25 pro Woche'],
    [0, '0 pro Woche'],
  ])('formats %j as %j', (input, expected) => {
    expect(formatHoursPerWeek(input)).toBe(expected);
  });

  it.each(['Vollzeit', '40h', '32-40'])('shows the text %j unchanged', (input) => {
    expect(formatHoursPerWeek(input)).toBe(input);
  });
});

describe('formatPaymentTerm', () => {
  it.each(MISSING)('shows %j as /', (value) => {
    expect(formatPaymentTerm(value)).toBe('/');
  });

  it.each([
    ['30 days', '30 Tage'],
    ['1 day', '1 Tag'],
    ['1 days', '1 Tag'],
    ['2 day', '2 Tage'],
    ['2 weeks', '2 Wochen'],
    ['1 week', '1 Woche'],
    ['1 month', '1 Monat'],
    ['3 months', '3 Monate'],
    ['1,5 months', '1,5 Monate'],
    ['14 days net', '14 Tage netto'],
    ['30 DAYS NET', '30 Tage netto'],
    ['30 Days', '30 Tage'],
    ['30days', '30Tage'],
    ['day', 'Tag'],
    ['weeks', 'Wochen'],
    ['2 weeks after 1 month', '2 Wochen after 1 Monat'],
  ])('translates %j to %j', (input, expected) => {
    expect(formatPaymentTerm(input)).toBe(expected);
  });

  it.each(['30 Tage', '1 Tag netto', '2 Wochen zum Monatsende', '3 Monate', 'sofort', 'Mondays', 'Netzwerk'])(
    'leaves %j unchanged',
    (input) => {
      expect(formatPaymentTerm(input)).toBe(input);
    },
  );

  it('shows a bare number as it is', () => {
    expect(formatPaymentTerm(30)).toBe('30');
  });
});

describe('displayValue', () => {
  it.each(MISSING)('shows %j as /', (value) => {
    expect(displayValue(value)).toBe('/');
  });

  it('shows text and numbers as they are', () => {
    expect(displayValue('Berlin')).toBe('Berlin');
    expect(displayValue(' Berlin ')).toBe(' Berlin ');
    expect(displayValue(0)).toBe('0');
  });
});

describe('formatPaymentTermEnglish', () => {
  it.each([
    ['30 Tage', '30 days'],
    ['1 Tag', '1 day'],
    ['2 Wochen', '2 weeks'],
    ['4 Wochen zum Monatsende', '4 weeks to the end of the month'],
    ['1 Monat', '1 month'],
    ['3 Monate zum Quartalsende', '3 months to the end of the quarter'],
    ['14 Tage netto', '14 days net'],
    ['30 days', '30 days'],
    ['sofort', 'sofort'],
  ])('%s → %s', (input, expected) => {
    expect(formatPaymentTermEnglish(input)).toBe(expected);
  });

  it('keeps words that merely contain a unit', () => {
    expect(formatPaymentTermEnglish('Montag')).toBe('Montag');
    expect(formatPaymentTermEnglish('Tagessatz')).toBe('Tagessatz');
  });
});

describe('formatDateTime', () => {
  it('shows the time in Berlin, summer and winter alike', () => {
    expect(formatDateTime(new Date('2026-07-01T08:05:00Z'))).toBe('01.07.2026 10:05');
    expect(formatDateTime(new Date('2026-11-21T23:30:00Z'))).toBe('22.11.2026 00:30');
  });

  it('shows the seconds when asked, and midnight as 00, not 24', () => {
    expect(formatDateTime(new Date('2026-07-01T08:05:09Z'), { seconds: true })).toBe('01.07.2026 10:05:09');
    expect(formatDateTime(new Date('2026-11-21T23:00:00Z'), { seconds: true })).toBe('22.11.2026 00:00:00');
  });
});

describe('berlinCalendarDateOf', () => {
  it('is the day in Germany, whatever zone the process runs in', () => {
    expect(berlinCalendarDateOf(new Date('2026-12-07T23:30:00Z'))).toEqual({ year: 2026, month: 12, day: 8 });
    expect(berlinCalendarDateOf(new Date('2026-12-07T22:59:00Z'))).toEqual({ year: 2026, month: 12, day: 7 });
    // Summer time: midnight in Germany is 22:00 UTC.
    expect(berlinCalendarDateOf(new Date('2026-06-30T22:00:00Z'))).toEqual({ year: 2026, month: 7, day: 1 });
    expect(berlinCalendarDateOf(new Date('2026-12-31T23:00:00Z'))).toEqual({ year: 2027, month: 1, day: 1 });
  });
});
