import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type CalendarDate, formatCalendarDate, parseDate } from '../format.js';
import {
  describeNoticeRule,
  lastNoticeDay,
  MAX_NOTICE_AMOUNT,
  noticeEffectiveDate,
  noticeRuleSchema,
  readNoticeText,
} from './notice-rule.js';
import { NOTICE_END_POINTS, NOTICE_UNITS, type NoticeRule } from './notice-terms.js';

// Worked out by hand: R is the last notice day and E the date the notice takes effect; "R + period = E"
// is the counting of §§ 187(1), 188(2), 188(3) BGB, and "R+1 + period" shows that a day later is too late.
// Columns: notice text | end date | last notice day | where the expected day comes from.
const DEADLINES = `
# The demo matches (config/demo-matches.json) with their end dates.
4 Wochen zum Monatsende                                        | 2027-06-30               | 02.06.2027 | PL-10001: 30.06. ist Monatsende; 02.06. + 4 Wochen = 30.06. (Mi → Mi); 03.06. + 4 Wochen = 01.07.
6 Wochen zum Quartalsende                                      | 2027-12-31               | 19.11.2027 | PL-10002: 31.12. ist Quartalsende; 19.11. + 42 Tage: 11 bis 30.11., 31 bis 31.12.
1 Monat                                                        | 2028-02-29               | 31.01.2028 | PL-10003, Schaltjahr: §188(3): 31.01. + 1 Monat → 31.02. gibt es nicht → 29.02.; 01.02. + 1 Monat = 01.03.
14 Tage zum Monatsende                                         | 2027-07-09               | 16.06.2027 | PL-10004: 09.07. ist kein Monatsende → E = 30.06.; §187(1): die Frist läuft 17.06.–30.06. = 14 Tage
4 Wochen                                                       | 31.03.2028               | 03.03.2028 | PL-10005: 03.03. + 28 Tage = 31.03.
2 Wochen                                                       | 2027-08-14               | 31.07.2027 | PL-10006: 31.07. + 14 Tage = 14.08.
4 Wochen                                                       | 2027-03-31               | 03.03.2027 | PL-10007 (Ende vor dem Beginn, gezählt wird trotzdem): 03.03. + 28 Tage = 31.03.
2 Wochen                                                       | 2027-04-30               | 16.04.2027 | PL-10008: 16.04. + 14 Tage = 30.04.
1 Woche                                                        | 2027-05-31               | 24.05.2027 | PL-10009: 24.05. + 7 Tage = 31.05.
1 month                                                        | 2027-10-29               | 29.09.2027 | PL-10012: 29.10. ist kein Monatsletzter; 29.09. + 1 Monat = 29.10.; 30.09. + 1 Monat = 30.10.
3 Monate zum Quartalsende                                      | 29.02.2028               | 30.09.2027 | PL-10013: 29.02.2028 ist kein Quartalsende → E = 31.12.2027; 30.09. + 3 Monate = 30.12.; 01.10. + 3 Monate = 01.01.
4 Wochen                                                       | 2027-12-17               | 19.11.2027 | PL-10014: 19.11. + 28 Tage: 11 bis 30.11., 17 bis 17.12.
4 Wochen zum Monatsende                                        | 2027-09-30               | 02.09.2027 | PL-10015: 02.09. + 28 Tage = 30.09.
6 Wochen                                                       | 2027-12-31               | 19.11.2027 | PL-10016: ohne Termin ist E = 31.12.; 19.11. + 42 Tage = 31.12. (wie PL-10002)
4 Wochen zum Monatsende                                        | 2027-12-22               | 02.11.2027 | PL-10017: 22.12. ist kein Monatsende → E = 30.11.; 02.11. + 28 Tage = 30.11.
2 Wochen                                                       | 2027-08-06               | 23.07.2027 | PL-10018: 23.07. + 14 Tage: 8 bis 31.07., 6 bis 06.08.
4 Wochen                                                       | 2027-12-31               | 03.12.2027 | PL-10019: 03.12. + 28 Tage = 31.12.
4 Wochen                                                       | 2027-06-30               | 02.06.2027 | PL-10020 (Frist des Projektpartners): 02.06. + 28 Tage = 30.06.
4 Wochen                                                       | 2027-08-31               | 03.08.2027 | PL-10021: 03.08. + 28 Tage = 31.08.
4 Wochen zum Monatsende                                        | 2027-11-30               | 02.11.2027 | PL-10022: 02.11. + 28 Tage = 30.11.
2 Wochen                                                       | 2027-06-30               | 16.06.2027 | PL-10023: 16.06. + 14 Tage = 30.06.
4 Wochen                                                       | 2026-12-31               | 03.12.2026 | PL-10024: 03.12. + 28 Tage = 31.12.
4 Wochen                                                       | 2027-07-31               | 03.07.2027 | PL-10025: 03.07. + 28 Tage = 31.07.
4 Wochen zum Monatsende                                        | 2027-12-31               | 03.12.2027 | PL-10026: 03.12. + 28 Tage = 31.12.
4 Wochen                                                       | 2027-07-30T00:00:00.000Z | 02.07.2027 | PL-10027 (Ende als ISO-Zeitpunkt, gilt der Tag 30.07.): 02.07. + 28 Tage = 30.07.
2 weeks                                                        | 2027-09-30               | 16.09.2027 | PL-10028: 16.09. + 14 Tage = 30.09.
# Months: §188(3) at the end of a shorter month, and the last day of the month before.
1 Monat                                                        | 28.02.2027               | 31.01.2027 | §188(3): 31.01. + 1 Monat → 31.02. gibt es nicht → 28.02. = Ende; 01.02. + 1 Monat = 01.03.
1 Monat                                                        | 30.04.2027               | 31.03.2027 | §188(3): 31.03. + 1 Monat → 31.04. gibt es nicht → 30.04.; 01.04. + 1 Monat = 01.05.
1 Monat                                                        | 15.05.2027               | 15.04.2027 | §188(2): 15.04. + 1 Monat = 15.05.; 16.04. + 1 Monat = 16.05.
1 Monat                                                        | 28.02.2028               | 28.01.2028 | Schaltjahr, 28.02. ist nicht Monatsletzter: 28.01. + 1 Monat = 28.02.; 29.01. + 1 Monat = 29.02.
1 Monat                                                        | 30.03.2027               | 28.02.2027 | 28.02. + 1 Monat = 28.03.; einen 29. und 30.02.2027 gibt es nicht; 01.03. + 1 Monat = 01.04.
1 Monat                                                        | 30.03.2028               | 29.02.2028 | Schaltjahr: 29.02. + 1 Monat = 29.03.; 01.03. + 1 Monat = 01.04.
1 Monat                                                        | 31.03.2027               | 28.02.2027 | 28.02. + 1 Monat = 28.03.; 01.03. + 1 Monat = 01.04.
1 Monat zum Monatsende                                         | 31.03.2028               | 29.02.2028 | Schaltjahr: 29.02. + 1 Monat = 29.03.; 01.03. + 1 Monat = 01.04.
1 month to the end of the month                                | 30.04.2027               | 31.03.2027 | §188(3): 31.03. + 1 Monat → 31.04. gibt es nicht → 30.04.
1 month to the end of the month                                | 15.07.2027               | 31.05.2027 | 15.07. → E = 30.06.; §188(3): 31.05. + 1 Monat → 31.06. gibt es nicht → 30.06.
3 months' notice                                               | 31.05.2027               | 28.02.2027 | 28.02. + 3 Monate = 28.05.; 01.03. + 3 Monate = 01.06.
3 Monate                                                       | 30.11.2027               | 31.08.2027 | §188(3): 31.08. + 3 Monate → 31.11. gibt es nicht → 30.11.; 01.09. + 3 Monate = 01.12.
2 Monate                                                       | 29.04.2027               | 28.02.2027 | 29.04. ist kein Monatsletzter; 28.02. + 2 Monate = 28.04.; 01.03. + 2 Monate = 01.05.
1 Monat                                                        | 31.01.2028               | 31.12.2027 | Jahreswechsel: 31.12.2027 + 1 Monat = 31.01.2028
1 month                                                        | 31.12.2027               | 30.11.2027 | 30.11. + 1 Monat = 30.12.; 01.12. + 1 Monat = 01.01.
1 Monat                                                        | 28.02.2100               | 31.01.2100 | 2100 ist kein Schaltjahr (durch 100, nicht durch 400): 31.01. + 1 Monat → 28.02.
1 Monat                                                        | 29.02.2000               | 31.01.2000 | 2000 ist ein Schaltjahr (durch 400): 31.01. + 1 Monat → 29.02.
6 Monate                                                       | 30.09.2027               | 31.03.2027 | §188(3): 31.03. + 6 Monate → 31.09. gibt es nicht → 30.09.; 01.04. + 6 Monate = 01.10.
# Quarter and year ends.
3 Monate zum Quartalsende                                      | 30.06.2027               | 31.03.2027 | §188(3): 31.03. + 3 Monate → 31.06. gibt es nicht → 30.06.; 01.04. + 3 Monate = 01.07.
3 Monate zum Quartalsende                                      | 31.03.2028               | 31.12.2027 | Jahreswechsel: 31.12.2027 + 3 Monate = 31.03.2028
3 Monate zum Ende eines Kalendervierteljahres                  | 30.09.2027               | 30.06.2027 | 30.06. + 3 Monate = 30.09.; 01.07. + 3 Monate = 01.10.
three months to the end of a quarter                           | 31.05.2028               | 31.12.2027 | 31.05. ist kein Quartalsende → E = 31.03.2028; 31.12.2027 + 3 Monate = 31.03.2028
6 Wochen zum Quartalsende                                      | 30.06.2027               | 19.05.2027 | 19.05. + 42 Tage: 12 bis 31.05., 30 bis 30.06.
six weeks to the end of a quarter                              | 15.08.2027               | 19.05.2027 | 15.08. ist kein Quartalsende → E = 30.06.; 19.05. + 42 Tage = 30.06.
6 Wochen zum Quartalsende                                      | 31.03.2027               | 17.02.2027 | 17.02. + 42 Tage: 11 bis 28.02., 31 bis 31.03.
6 Wochen zum Quartalsende                                      | 31.03.2028               | 18.02.2028 | Schaltjahr: 18.02. + 42 Tage: 11 bis 29.02., 31 bis 31.03.
3 Monate zum Jahresende                                        | 31.12.2027               | 30.09.2027 | 30.09. + 3 Monate = 30.12.; 01.10. + 3 Monate = 01.01.
3 Monate zum Jahresende                                        | 30.06.2028               | 30.09.2027 | 30.06.2028 ist kein Jahresende → E = 31.12.2027; 30.09. + 3 Monate = 30.12.
1 Jahr zum Jahresende                                          | 31.12.2028               | 31.12.2027 | 1 Jahr = 12 Monate (§188(2)); 31.12.2027 + 12 Monate = 31.12.2028; 01.01.2028 + 12 Monate = 01.01.2029
# § 622 Abs. 1 BGB: to the 15th or the end of a calendar month.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 20.06.2027               | 18.05.2027 | rechtsdokumente.de (Arbeitnehmerkündigung): zum 15. nach einem Monat mit 31 Tagen spätestens am 18.; 20.06. → E = 15.06.; 18.05. + 28 Tage: 13 bis 31.05., 15 bis 15.06.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 10.06.2027               | 03.05.2027 | rechtsdokumente.de (Arbeitnehmerkündigung): zum Ende eines Monats mit 31 Tagen am 03.; 10.06. → E = 31.05.; 03.05. + 28 Tage = 31.05.
vier Wochen zum Fünfzehnten oder zum Ende eines Kalendermonats | 15.03.2028               | 16.02.2028 | rechtsdokumente.de (Arbeitnehmerkündigung): zum 15.03. im Schaltjahr am 16.02.; 16.02. + 28 Tage: 13 bis 29.02., 15 bis 15.03.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 15.03.2027               | 15.02.2027 | rechtsdokumente.de (Arbeitnehmerkündigung): zum 15.03. am 15.02.; 15.02. + 28 Tage: 13 bis 28.02., 15 bis 15.03.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 28.02.2027               | 31.01.2027 | rechtsdokumente.de (Arbeitnehmerkündigung): zum 28.02. am 31.01.; 31.01. + 28 Tage = 28.02.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 29.02.2028               | 01.02.2028 | rechtsdokumente.de (Arbeitnehmerkündigung): zum 29.02. (Schaltjahr) am 01.02.; 01.02. + 28 Tage = 29.02.
4 Wochen zum 15. oder zum Ende eines Kalendermonats            | 30.06.2027               | 02.06.2027 | rechtsdokumente.de (Arbeitnehmerkündigung): zum Ende eines Monats mit 30 Tagen am 02.; 02.06. + 28 Tage = 30.06.
# Days and weeks across February and the turn of the year.
30 days                                                        | 31.12.2027               | 01.12.2027 | §187(1): die Frist läuft 02.12.–31.12. = 30 Tage
30 Tage                                                        | 01.03.2028               | 31.01.2028 | Schaltjahr: 31.01. + 30 Tage: 29 bis 29.02., 1 bis 01.03.
30 Tage                                                        | 01.03.2027               | 30.01.2027 | 30.01. + 30 Tage: 1 bis 31.01., 28 bis 28.02., 1 bis 01.03.
14 Tage zum Monatsende                                         | 28.02.2027               | 14.02.2027 | 14.02. + 14 Tage = 28.02.
2 Wochen zum Monatsende                                        | 29.02.2028               | 15.02.2028 | Schaltjahr: 15.02. + 14 Tage = 29.02.
4 Wochen                                                       | 25.01.2028               | 28.12.2027 | Jahreswechsel: 28.12. + 28 Tage: 3 bis 31.12., 25 bis 25.01.
4 Wo.                                                          | 31.10.2027               | 03.10.2027 | 03.10. + 28 Tage = 31.10.; der 03.10.2027 ist Sonntag und Feiertag, § 193 BGB verschiebt den Zugang nicht
`
  .split('\n')
  .filter((line) => line.trim() !== '' && !line.startsWith('#'))
  .map((line) => {
    const [text = '', end = '', lastDay = '', source = ''] = line.split(' | ').map((cell) => cell.trim());
    return { text, end, lastDay, source };
  });

function date(text: string): CalendarDate {
  const parsed = parseDate(text);
  if (!parsed) throw new Error(`Kein Datum: ${text}`);
  return parsed;
}

function rule(text: string): NoticeRule {
  const reading = readNoticeText(text);
  if (!reading.readable) throw new Error(reading.reason);
  return reading.rule;
}

describe('lastNoticeDay', () => {
  it.each(DEADLINES)('$text, Ende $end → $lastDay', ({ text, end, lastDay }) => {
    expect(formatCalendarDate(lastNoticeDay(rule(text), date(end)))).toBe(lastDay);
  });
});

describe('noticeEffectiveDate', () => {
  it.each([
    ['4 Wochen', '17.12.2027', '17.12.2027'],
    ['4 Wochen zum Monatsende', '30.06.2027', '30.06.2027'],
    ['4 Wochen zum Monatsende', '01.03.2028', '29.02.2028'],
    ['4 Wochen zum Monatsende', '15.01.2028', '31.12.2027'],
    ['3 Monate zum Quartalsende', '30.09.2027', '30.09.2027'],
    ['3 Monate zum Quartalsende', '29.09.2027', '30.06.2027'],
    ['3 Monate zum Quartalsende', '01.04.2027', '31.03.2027'],
    ['3 Monate zum Quartalsende', '28.02.2027', '31.12.2026'],
    ['3 Monate zum Jahresende', '31.12.2027', '31.12.2027'],
    ['3 Monate zum Jahresende', '30.12.2027', '31.12.2026'],
    ['4 Wochen zum 15. oder zum Ende eines Kalendermonats', '15.02.2028', '15.02.2028'],
    ['4 Wochen zum 15. oder zum Ende eines Kalendermonats', '28.02.2028', '15.02.2028'],
    ['4 Wochen zum 15. oder zum Ende eines Kalendermonats', '29.02.2028', '29.02.2028'],
    ['4 Wochen zum 15. oder zum Ende eines Kalendermonats', '14.03.2028', '29.02.2028'],
  ])('%s, Ende %s → wirksam %s', (text, end, effective) => {
    expect(formatCalendarDate(noticeEffectiveDate(rule(text), date(end)))).toBe(effective);
  });
});

const weeks = (amount: number, endPoint?: NoticeRule['endPoint']): NoticeRule =>
  endPoint ? { amount, unit: 'weeks', endPoint } : { amount, unit: 'weeks' };

describe('readNoticeText', () => {
  it.each<[string, NoticeRule]>([
    ['4 Wochen zum Monatsende', weeks(4, 'month')],
    ['3 Monate zum Quartalsende', { amount: 3, unit: 'months', endPoint: 'quarter' }],
    ['6 Wochen zum Quartalsende', weeks(6, 'quarter')],
    ['14 Tage zum Monatsende', { amount: 14, unit: 'days', endPoint: 'month' }],
    ['1 Monat', { amount: 1, unit: 'months' }],
    ['4 Wochen', weeks(4)],
    ['6 Wochen', weeks(6)],
    ['2 Wochen', weeks(2)],
    ['1 Woche', weeks(1)],
    ['1 month', { amount: 1, unit: 'months' }],
    ['2 weeks', weeks(2)],
    ['vier Wochen', weeks(4)],
    ['4 Wo.', weeks(4)],
    ['3 Monate zum Ende eines Kalendervierteljahres', { amount: 3, unit: 'months', endPoint: 'quarter' }],
    ['4 Wochen zum Ende des Kalendermonats', weeks(4, 'month')],
    ['4 Wochen zum 15. oder zum Ende eines Kalendermonats', weeks(4, 'mid-or-end-of-month')],
    ['vier Wochen zum Fünfzehnten oder zum Ende eines Kalendermonats', weeks(4, 'mid-or-end-of-month')],
    ['six weeks to the end of a quarter', weeks(6, 'quarter')],
    ['1 month to the end of the month', { amount: 1, unit: 'months', endPoint: 'month' }],
    ["3 months' notice", { amount: 3, unit: 'months' }],
    ['3 months’ notice', { amount: 3, unit: 'months' }],
    ["1 month's notice to the end of a calendar month", { amount: 1, unit: 'months', endPoint: 'month' }],
    ['30 days', { amount: 30, unit: 'days' }],
    ['30 Kalendertage', { amount: 30, unit: 'days' }],
    ['  4   WOCHEN zum   MONATSENDE ', weeks(4, 'month')],
    ['4Wochen zum Monatsende.', weeks(4, 'month')],
    ['4 Wochen zum Monatsende (beidseitig)', weeks(4, 'month')],
    ['4 Wochen, beiderseits, zum Monatsende', weeks(4, 'month')],
    ['Kündigungsfrist: 4 Wochen zum Monatsende', weeks(4, 'month')],
    ['4 Wochen Kündigungsfrist zum Quartalsende', weeks(4, 'quarter')],
    ['Kuendigungsfrist 6 Wochen zum Quartalsende', weeks(6, 'quarter')],
    ['mit einer Frist von zwei (2) Wochen', weeks(2)],
    ['einen Monat zum Monatsende', { amount: 1, unit: 'months', endPoint: 'month' }],
    ['3 Monate zum Jahresende', { amount: 3, unit: 'months', endPoint: 'year' }],
    ['three months to the end of the calendar year', { amount: 3, unit: 'months', endPoint: 'year' }],
    ['1 Jahr zum Jahresende', { amount: 12, unit: 'months', endPoint: 'year' }],
    ['2 weeks to the 15th or the end of a calendar month', weeks(2, 'mid-or-end-of-month')],
  ])('reads %j', (text, expected) => {
    expect(readNoticeText(text)).toEqual({ readable: true, rule: expected });
  });

  it.each<[string | null | undefined, string]>([
    [undefined, 'Es ist keine Kündigungsfrist eingetragen.'],
    [null, 'Es ist keine Kündigungsfrist eingetragen.'],
    ['', 'Es ist keine Kündigungsfrist eingetragen.'],
    ['  ', 'Es ist keine Kündigungsfrist eingetragen.'],
    ['-', 'Es ist keine Kündigungsfrist eingetragen.'],
    [
      'nach Vereinbarung',
      'Die Kündigungsfrist „nach Vereinbarung“ ist nicht lesbar: Sie nennt keine Dauer in Tagen, Wochen oder Monaten.',
    ],
    [
      'siehe Rahmenvertrag',
      'Die Kündigungsfrist „siehe Rahmenvertrag“ ist nicht lesbar: Sie nennt keine Dauer in Tagen, Wochen oder Monaten.',
    ],
    [
      'zum Ende des Kalendermonats',
      'Sie nennt nur den Termin, zu dem gekündigt werden kann, aber keine Dauer.',
    ],
    [
      'zum 15. oder zum Ende eines Kalendermonats',
      'Sie nennt nur den Termin, zu dem gekündigt werden kann, aber keine Dauer.',
    ],
    ['4', 'Die Kündigungsfrist „4“ ist nicht lesbar: Sie nennt keine Einheit (Tage, Wochen oder Monate).'],
    [
      '4 Jahre?',
      'Die Kündigungsfrist „4 Jahre?“ ist nicht lesbar: Das Fragezeichen weist sie als unsicher aus.',
    ],
    ['4 Wochen?', 'Das Fragezeichen weist sie als unsicher aus.'],
    ['4 Jahre', '48 Monate sind länger als die höchstens vorgesehenen 36 Monate.'],
    ['53 Wochen', '53 Wochen sind länger als die höchstens vorgesehenen 52 Wochen.'],
    ['0 Tage', 'Eine Frist von null ist keine Kündigungsfrist.'],
    ['1,5 Monate', 'Sie nennt eine Dauer mit Nachkommastellen'],
    ['2-4 Wochen', 'Sie nennt eine Spanne statt einer Frist.'],
    ['4 bis 6 Wochen', 'Sie nennt eine Spanne statt einer Frist.'],
    ['5 Werktage', 'Werk- und Arbeitstage werden anders gezählt als Kalendertage'],
    ['10 business days', 'Werk- und Arbeitstage werden anders gezählt als Kalendertage'],
    [
      'gesetzliche Kündigungsfrist',
      'Die gesetzliche Frist hängt von der Art des Vertrags ab (§§ 621, 622 BGB)',
    ],
    ['vier (5) Wochen', 'Die Zahl in Worten und die Zahl in Klammern (5) sind verschieden.'],
    ['4 Wochen ab Zugang', 'Nach der Dauer folgt ein Zusatz, der keinen bekannten Termin nennt'],
    ['4 Wochen zum 15.', 'Nach der Dauer folgt ein Zusatz, der keinen bekannten Termin nennt'],
    [
      '4 Wochen zum Ende des Geschäftsjahres',
      'Nach der Dauer folgt ein Zusatz, der keinen bekannten Termin nennt',
    ],
    ['4 Wochen oder 1 Monat', 'Nach der Dauer folgt ein Zusatz, der keinen bekannten Termin nennt'],
    ['4 Wochen zum Monatsende (erstmals zum 31.12.2027)', 'Nach der Dauer folgt ein Zusatz'],
  ])('does not guess %j', (text, reason) => {
    const reading = readNoticeText(text);
    expect(reading.readable).toBe(false);
    expect(reading.readable ? '' : reading.reason).toContain(reason);
  });
});

describe('describeNoticeRule', () => {
  it.each<[NoticeRule, string, string]>([
    [weeks(4, 'month'), '4 Wochen zum Monatsende', '4 weeks to the end of a month'],
    [{ amount: 1, unit: 'months' }, '1 Monat', '1 month'],
    [
      { amount: 3, unit: 'months', endPoint: 'quarter' },
      '3 Monate zum Quartalsende',
      '3 months to the end of a quarter',
    ],
    [{ amount: 1, unit: 'days', endPoint: 'year' }, '1 Tag zum Jahresende', '1 day to the end of a year'],
    [weeks(1), '1 Woche', '1 week'],
    [
      weeks(4, 'mid-or-end-of-month'),
      '4 Wochen zum 15. oder zum Ende eines Kalendermonats',
      '4 weeks to the 15th or the end of a calendar month',
    ],
  ])('writes %j as %j and %j', (noticeRule, german, english) => {
    expect(describeNoticeRule(noticeRule)).toBe(german);
    expect(describeNoticeRule(noticeRule, 'de')).toBe(german);
    expect(describeNoticeRule(noticeRule, 'en')).toBe(english);
  });
});

describe('noticeRuleSchema', () => {
  it.each([
    { amount: 36, unit: 'months' },
    { amount: 52, unit: 'weeks', endPoint: 'quarter' },
    { amount: 365, unit: 'days', endPoint: 'mid-or-end-of-month' },
  ])('accepts %j', (noticeRule) => {
    expect(noticeRuleSchema.parse(noticeRule)).toEqual(noticeRule);
  });

  it.each<[unknown, string]>([
    [{ amount: 37, unit: 'months' }, 'Diese Kündigungsfrist ist unplausibel lang (höchstens 36 Monate).'],
    [{ amount: 53, unit: 'weeks' }, 'Diese Kündigungsfrist ist unplausibel lang (höchstens 52 Wochen).'],
    [{ amount: 366, unit: 'days' }, 'Diese Kündigungsfrist ist unplausibel lang (höchstens 365 Tage).'],
    [{ amount: 0, unit: 'days' }, 'Die Kündigungsfrist muss mindestens 1 sein.'],
    [{ amount: 1.5, unit: 'months' }, 'Bitte gib die Kündigungsfrist als ganze Zahl an.'],
    [{ amount: 1, unit: 'years' }, 'Bitte wähle Tage, Wochen oder Monate.'],
    [{ amount: 1, unit: 'months', endPoint: 'week' }, 'Bitte wähle Monatsende, Quartalsende, Jahresende'],
  ])('refuses %j', (noticeRule, message) => {
    const result = noticeRuleSchema.safeParse(noticeRule);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain(message);
  });
});

// The reference counting for the properties, on `Date` in UTC rather than the module's day numbers.
const utc = ({ year, month, day }: CalendarDate) => new Date(Date.UTC(year, month - 1, day));
const calendarDay = (d: Date): CalendarDate => ({
  year: d.getUTCFullYear(),
  month: d.getUTCMonth() + 1,
  day: d.getUTCDate(),
});
const nextDay = (d: CalendarDate) => calendarDay(new Date(utc(d).getTime() + 86_400_000));

function periodEnd({ amount, unit }: NoticeRule, received: CalendarDate): Date {
  if (unit !== 'months')
    return new Date(utc(received).getTime() + amount * (unit === 'weeks' ? 7 : 1) * 86_400_000);
  const lastOfMonth = new Date(Date.UTC(received.year, received.month - 1 + amount + 1, 0)).getUTCDate();
  return new Date(Date.UTC(received.year, received.month - 1 + amount, Math.min(received.day, lastOfMonth)));
}

function isEndPoint(endPoint: NoticeRule['endPoint'], d: CalendarDate): boolean {
  const lastOfMonth = nextDay(d).day === 1;
  switch (endPoint) {
    case undefined:
      return true;
    case 'month':
      return lastOfMonth;
    case 'quarter':
      return lastOfMonth && d.month % 3 === 0;
    case 'year':
      return d.month === 12 && d.day === 31;
    case 'mid-or-end-of-month':
      return lastOfMonth || d.day === 15;
  }
}

const anyRule: fc.Arbitrary<NoticeRule> = fc
  .record({
    unit: fc.constantFrom(...NOTICE_UNITS),
    endPoint: fc.option(fc.constantFrom(...NOTICE_END_POINTS), { nil: undefined }),
    share: fc.double({ min: 0, max: 1, noNaN: true }),
  })
  .map(({ unit, endPoint, share }) => {
    const amount = 1 + Math.floor(share * (MAX_NOTICE_AMOUNT[unit] - 1));
    return endPoint ? { amount, unit, endPoint } : { amount, unit };
  });
const anyEnd = fc
  .date({ min: new Date(Date.UTC(1950, 0, 1)), max: new Date(Date.UTC(2150, 11, 31)), noInvalidDate: true })
  .map(calendarDay);

describe('notice deadlines for any rule and end date', () => {
  it('take effect on the last end point on or before the end', () => {
    fc.assert(
      fc.property(anyRule, anyEnd, (noticeRule, end) => {
        const effective = noticeEffectiveDate(noticeRule, end);
        expect(isEndPoint(noticeRule.endPoint, effective)).toBe(true);
        expect(utc(effective).getTime()).toBeLessThanOrEqual(utc(end).getTime());
        for (let d = nextDay(effective); utc(d) <= utc(end); d = nextDay(d)) {
          expect(isEndPoint(noticeRule.endPoint, d), formatCalendarDate(d)).toBe(false);
        }
      }),
    );
  });

  it('end the period counted from the last notice day on or before the effective date, and a day later after it', () => {
    fc.assert(
      fc.property(anyRule, anyEnd, (noticeRule, end) => {
        const effective = utc(noticeEffectiveDate(noticeRule, end)).getTime();
        const last = lastNoticeDay(noticeRule, end);
        expect(periodEnd(noticeRule, last).getTime()).toBeLessThanOrEqual(effective);
        expect(periodEnd(noticeRule, nextDay(last)).getTime()).toBeGreaterThan(effective);
      }),
      { numRuns: 2000 },
    );
  });

  it('read back from their own description as the same rule, in German and in English', () => {
    fc.assert(
      fc.property(anyRule, fc.constantFrom('de' as const, 'en' as const), (noticeRule, language) => {
        expect(noticeRuleSchema.parse(noticeRule)).toEqual(noticeRule);
        expect(readNoticeText(describeNoticeRule(noticeRule, language))).toEqual({
          readable: true,
          rule: noticeRule,
        });
      }),
    );
  });
});
