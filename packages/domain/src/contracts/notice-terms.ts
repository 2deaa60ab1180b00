/**
 * The words of a notice rule — its units and end points — on their own, so that reading a notice text
 * (notice-rule.ts), its phrases and the deadline's count can all use them without importing each other.
 */

export const NOTICE_UNITS = ['days', 'weeks', 'months'] as const;
export type NoticeUnit = (typeof NOTICE_UNITS)[number];

/** `mid-or-end-of-month`: „zum 15. oder zum Ende eines Kalendermonats“ (§ 622 Abs. 1 BGB). */
export const NOTICE_END_POINTS = ['month', 'quarter', 'year', 'mid-or-end-of-month'] as const;
export type NoticeEndPoint = (typeof NOTICE_END_POINTS)[number];

/** A contract's notice period: how long it is and the end point it runs to. */
export interface NoticeRule {
  amount: number;
  unit: NoticeUnit;
  endPoint?: NoticeEndPoint;
}
