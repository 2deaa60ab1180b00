import type { NoticeEndPoint, NoticeUnit } from './notice-terms.js';

/**
 * The wording of notice periods in German and English contracts and CRMs, matched against text that
 * `foldNoticeText` has brought to lower case with ä, ö, ü and ß spelled out. Only wording whose meaning is
 * certain is listed: anything else makes the text unreadable rather than guessed.
 */

export function foldNoticeText(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replaceAll('ä', 'ae')
    .replaceAll('ö', 'oe')
    .replaceAll('ü', 'ue')
    .replaceAll('ß', 'ss')
    .replace(/[’‘´`]/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

const NUMBER_WORDS: Record<string, number> = {
  ein: 1,
  eins: 1,
  eine: 1,
  einen: 1,
  einem: 1,
  einer: 1,
  zwei: 2,
  drei: 3,
  vier: 4,
  fuenf: 5,
  sechs: 6,
  sieben: 7,
  acht: 8,
  neun: 9,
  zehn: 10,
  elf: 11,
  zwoelf: 12,
  vierzehn: 14,
  dreissig: 30,
  a: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  thirty: 30,
};

/** A number in digits or words, or undefined. */
export function noticeAmount(word: string): number | undefined {
  return /^\d+$/.test(word) ? Number(word) : NUMBER_WORDS[word];
}

// A year is counted as twelve months (§ 188 Abs. 2 BGB names it among the periods of several months).
export type NoticeUnitWord = NoticeUnit | 'years';
const UNIT_WORDS: [NoticeUnitWord, string][] = [
  ['days', String.raw`kalendertag(?:en|e)?|tag(?:en|e)?|tge?\.?|calendar days?|days?`],
  ['weeks', String.raw`wochen?|wo\.?|weeks?|wks?\.?`],
  ['months', String.raw`monat(?:en|e|s)?|mon\.?|mte\.?|mo\.?|months?`],
  ['years', String.raw`jahr(?:en|es|e)?|years?|yrs?\.?`],
];

export function noticeUnitOf(word: string): NoticeUnitWord | undefined {
  return UNIT_WORDS.find(([, pattern]) => new RegExp(`^(?:${pattern})$`).test(word))?.[0];
}

const AMOUNT = `\\d+|(?:${Object.keys(NUMBER_WORDS)
  .sort((a, b) => b.length - a.length)
  .join('|')})(?![a-z])`;
const UNIT = UNIT_WORDS.map(([, pattern]) => pattern).join('|');
const PREFIX = String.raw`(?:(?:kuendigungsfrist|frist|notice period|period of notice|notice)(?: betraegt| is| of)?\s*:?\s*|mit einer (?:kuendigungs)?frist von |with (?:a )?notice (?:period )?of )`;
const SUFFIX = String.raw`(?:'s|s'|')?\s*(?:kuendigungsfrist|frist|notice period|notice)`;

/**
 * The period at the start of a text — an optional lead-in such as „Kündigungsfrist:“, the amount (a
 * written number may repeat itself in digits: „vier (4) Wochen“), the unit and an optional „Kündigungsfrist“
 * or "notice" — and what follows it.
 */
export const NOTICE_PERIOD = new RegExp(
  `^(?:${PREFIX})?(${AMOUNT})(?:\\s*\\((\\d+)\\))?\\s*(${UNIT})(?![a-z])(?:\\s*${SUFFIX}(?![a-z]))?[\\s,;–-]*(.*)$`,
);

const DE_TO = '(?:zum|zu dem|per|auf den|auf das|fuer den)';
const DE_OF = '(?:des|eines|jedes)';
const DE_MONTH_END = `(?:monatsende|monatsschluss|monatsletzten|ultimo|(?:ende|schluss|letzten) ${DE_OF} (?:kalender)?monats)`;
const EN_TO = '(?:(?:to|at|as of|effective) )?(?:the )?';
const EN_OF = '(?:(?:the|a|an|each|any) )?(?:calendar )?';
const EN_END = (period: string) => `(?:end of ${EN_OF}${period}|${period}(?:'s)?[- ]end)`;

const END_POINT_PHRASES: [NoticeEndPoint, string][] = [
  ['month', `${DE_TO} ${DE_MONTH_END}|${EN_TO}${EN_END('month')}`],
  [
    'quarter',
    `${DE_TO} (?:quartalsende|quartalsschluss|(?:ende|schluss) ${DE_OF} (?:kalender)?(?:quartals|vierteljahres|vierteljahrs))|${EN_TO}${EN_END('quarter')}`,
  ],
  [
    'year',
    `${DE_TO} (?:jahresende|jahresschluss|(?:ende|schluss) ${DE_OF} (?:kalender)?jahr(?:e)?s)|${EN_TO}${EN_END('year')}`,
  ],
  [
    'mid-or-end-of-month',
    `(?:${DE_TO} (?:15\\.?|fuenfzehnten)(?: ${DE_OF} (?:kalender)?monats)?|zur monatsmitte)\\s*(?:oder|bzw\\.?|/)\\s*(?:${DE_TO} )?${DE_MONTH_END}` +
      `|${EN_TO}(?:15th|fifteenth|middle|mid[- ]month)(?: of ${EN_OF}month)?\\s*(?:or|/)\\s*${EN_TO}${EN_END('month')}`,
  ],
];

/** The end point a text names after its period; undefined when it names none of the known ones. */
export function noticeEndPointOf(phrase: string): NoticeEndPoint | undefined {
  return END_POINT_PHRASES.find(([, pattern]) => new RegExp(`^(?:${pattern})$`).test(phrase))?.[0];
}

/** Remarks that change nothing about the period: it applies to both parties. */
export const BOTH_PARTIES =
  /\(?\s*(?<![a-z])(?:beidseitig|beiderseitig|beiderseits|beidseits|fuer beide seiten|fuer beide parteien|mutual|mutually|for both parties|for both sides)(?![a-z])\s*\)?/g;
