import { z } from 'zod';
import {
  BOTH_PARTIES,
  foldNoticeText,
  NOTICE_PERIOD,
  noticeAmount,
  noticeEndPointOf,
  noticeUnitOf,
} from './notice-phrases.js';
import { NOTICE_END_POINTS, NOTICE_UNITS, type NoticeRule, type NoticeUnit } from './notice-terms.js';

/**
 * A contract's notice period as a rule the deadlines are computed from: how long it is and the end point
 * it runs to. The CRM holds it as free text (`kuendigungsfristKunde`, `kuendigungsfrist`); `readNoticeText`
 * turns that text into a rule or says why it cannot.
 */

export type NoticeReading = { readable: true; rule: NoticeRule } | { readable: false; reason: string };

/** Three years in each unit: a longer notice period in a placement is a typing error, not a contract. */
export const MAX_NOTICE_AMOUNT: Record<NoticeUnit, number> = { days: 365, weeks: 52, months: 36 };

const UNIT_NAMES = {
  de: {
    days: ['Tag', 'Tage'],
    weeks: ['Woche', 'Wochen'],
    months: ['Monat', 'Monate'],
  },
  en: {
    days: ['day', 'days'],
    weeks: ['week', 'weeks'],
    months: ['month', 'months'],
  },
} as const;

const END_POINT_NAMES = {
  de: {
    month: 'zum Monatsende',
    quarter: 'zum Quartalsende',
    year: 'zum Jahresende',
    'mid-or-end-of-month': 'zum 15. oder zum Ende eines Kalendermonats',
  },
  en: {
    month: 'to the end of a month',
    quarter: 'to the end of a quarter',
    year: 'to the end of a year',
    'mid-or-end-of-month': 'to the 15th or the end of a calendar month',
  },
} as const;

/** The maximum of each unit in German, for the schema's message and the reading's reason. */
function noticeLimitText(unit: NoticeUnit): string {
  return `${MAX_NOTICE_AMOUNT[unit]} ${UNIT_NAMES.de[unit][1]}`;
}

export const noticeRuleSchema = z
  .object({
    amount: z
      .number({ error: 'Bitte gib die Kündigungsfrist als ganze Zahl an.' })
      .int({ error: 'Bitte gib die Kündigungsfrist als ganze Zahl an.' })
      .min(1, { error: 'Die Kündigungsfrist muss mindestens 1 sein.' }),
    unit: z.enum(NOTICE_UNITS, { error: 'Bitte wähle Tage, Wochen oder Monate.' }),
    endPoint: z
      .enum(NOTICE_END_POINTS, {
        error: 'Bitte wähle Monatsende, Quartalsende, Jahresende oder den 15. oder das Ende eines Monats.',
      })
      .optional(),
  })
  .refine((rule) => rule.amount <= MAX_NOTICE_AMOUNT[rule.unit], {
    error: (issue) => {
      const unit = (issue.input as { unit: NoticeUnit }).unit;
      return `Diese Kündigungsfrist ist unplausibel lang (höchstens ${noticeLimitText(unit)}).`;
    },
    path: ['amount'],
  });

/** The rule as a contract would write it: „4 Wochen zum Monatsende“, "4 weeks to the end of a month". */
export function describeNoticeRule(rule: NoticeRule, language: 'de' | 'en' = 'de'): string {
  const [one, many] = UNIT_NAMES[language][rule.unit];
  const period = `${rule.amount} ${rule.amount === 1 ? one : many}`;
  return rule.endPoint ? `${period} ${END_POINT_NAMES[language][rule.endPoint]}` : period;
}

const KNOWN_END_POINTS =
  'bekannt sind Monatsende, Quartalsende, Jahresende und „zum 15. oder zum Ende eines Kalendermonats“';

/** Why a text that is not a period the rules can read is not one, in the order a reader would look. */
const DOUBTS: [RegExp, string][] = [
  [/\?/, 'Das Fragezeichen weist sie als unsicher aus.'],
  [
    /werktag|arbeitstag|business day|working day/,
    'Werk- und Arbeitstage werden anders gezählt als Kalendertage; bitte die Frist von Hand festlegen.',
  ],
  [
    /gesetzlich|statutory/,
    'Die gesetzliche Frist hängt von der Art des Vertrags ab (§§ 621, 622 BGB); bitte die Frist von Hand festlegen.',
  ],
  [
    /\d[.,]\d+\s*[a-z]/,
    'Sie nennt eine Dauer mit Nachkommastellen; gezählt werden ganze Tage, Wochen oder Monate.',
  ],
  [/\d\s*(?:-|–|bis|to|or|oder)\s*\d/, 'Sie nennt eine Spanne statt einer Frist.'],
  [/^\d+$/, 'Sie nennt keine Einheit (Tage, Wochen oder Monate).'],
];

/**
 * Reads the CRM's free text into a rule: „4 Wochen zum Monatsende“, „drei Monate zum Ende eines
 * Kalendervierteljahres“, "six weeks to the end of a quarter", "3 months' notice". A text whose meaning
 * is not certain is not guessed: it is unreadable, with the reason in German.
 */
export function readNoticeText(text: string | undefined | null): NoticeReading {
  const folded = foldNoticeText(text ?? '')
    .replace(BOTH_PARTIES, ' ')
    .replace(/^[\s,;:.-]+|[\s,;:.-]+$/g, '')
    .replace(/\s+/g, ' ');
  if (!/[\p{L}\d]/u.test(folded))
    return { readable: false, reason: 'Es ist keine Kündigungsfrist eingetragen.' };
  const unreadable = (why: string): NoticeReading => ({
    readable: false,
    reason: `Die Kündigungsfrist „${(text ?? '').trim()}“ ist nicht lesbar: ${why}`,
  });
  const doubt = DOUBTS.find(([pattern]) => pattern.test(folded));
  if (doubt) return unreadable(doubt[1]);

  const period = NOTICE_PERIOD.exec(folded);
  const amount = period?.[1] === undefined ? undefined : noticeAmount(period[1]);
  const unitWord = period?.[3] === undefined ? undefined : noticeUnitOf(period[3]);
  if (!period || amount === undefined || unitWord === undefined) {
    // „zum 15. oder zum Ende eines Kalendermonats“ alone is § 622 Abs. 1 BGB without its four weeks;
    // which statutory period applies depends on the contract, so it is not filled in.
    return unreadable(
      noticeEndPointOf(folded)
        ? 'Sie nennt nur den Termin, zu dem gekündigt werden kann, aber keine Dauer.'
        : 'Sie nennt keine Dauer in Tagen, Wochen oder Monaten.',
    );
  }
  if (period[2] !== undefined && Number(period[2]) !== amount) {
    return unreadable(`Die Zahl in Worten und die Zahl in Klammern (${period[2]}) sind verschieden.`);
  }
  const rest = period[4] ?? '';
  const endPoint = rest === '' ? undefined : noticeEndPointOf(rest);
  if (rest !== '' && endPoint === undefined) {
    return unreadable(
      `Nach der Dauer folgt ein Zusatz, der keinen bekannten Termin nennt (${KNOWN_END_POINTS}).`,
    );
  }
  const rule: NoticeRule =
    unitWord === 'years' ? { amount: amount * 12, unit: 'months' } : { amount, unit: unitWord };
  if (endPoint) rule.endPoint = endPoint;
  if (rule.amount < 1) return unreadable('Eine Frist von null ist keine Kündigungsfrist.');
  if (rule.amount > MAX_NOTICE_AMOUNT[rule.unit]) {
    return unreadable(
      `${describeNoticeRule({ amount: rule.amount, unit: rule.unit })} sind länger als die höchstens vorgesehenen ${noticeLimitText(rule.unit)}.`,
    );
  }
  return { readable: true, rule };
}

export { lastNoticeDay, noticeEffectiveDate } from './notice-deadline.js';
