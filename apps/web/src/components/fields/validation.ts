import { EMAIL_PATTERN } from '@vertragsgenerator/domain';

/**
 * The validation rules of the forms' fields, one per field kind. Each answers whether a value is acceptable;
 * the form decides when to show the answer (after a submit attempt).
 */

export function isSelectValid(value: string | null, required: boolean): boolean {
  return !required || (value !== null && value !== '');
}

export function isTextValid(value: string, required: boolean): boolean {
  return !required || value.trim() !== '';
}

export function isNumberValid(value: number | null, required: boolean): boolean {
  return !required || value !== null;
}

/** Keeps a typed number inside its bounds; an empty input stays empty (none). */
export function clampNumber(value: number | null, min?: number, max?: number): number | null {
  if (value === null || Number.isNaN(value)) return null;
  if (min !== undefined && value < min) return min;
  if (max !== undefined && value > max) return max;
  return value;
}

export interface EmailEntry {
  name: string;
  email: string;
}

export const EMPTY_EMAIL_ENTRY: EmailEntry = { name: '', email: '' };

/** Which half of a name/email pair is wrong: `true` marks the half to fix. */
export interface EmailEntryProblems {
  name: boolean;
  email: boolean;
}

/**
 * Required: a name and a valid email. Optional: may stay empty, but once filled it must be complete
 * and valid, because a half recipient (a name without address) cannot receive anything.
 */
export function emailEntryProblems(entry: EmailEntry, required: boolean): EmailEntryProblems {
  const name = entry.name.trim();
  const email = entry.email.trim();
  if (!required && name === '' && email === '') return { name: false, email: false };
  return { name: name === '', email: !EMAIL_PATTERN.test(email) };
}

export function isEmailEntryValid(entry: EmailEntry, required: boolean): boolean {
  const problems = emailEntryProblems(entry, required);
  return !problems.name && !problems.email;
}

export const REPEATED_EMAIL_MIN = 1;
export const REPEATED_EMAIL_MAX = 10;

export function areEmailEntriesValid(entries: readonly EmailEntry[], required: boolean): boolean {
  return entries.length > 0 && entries.every((entry) => isEmailEntryValid(entry, required));
}

/** Grows with empty entries or cuts from the end, keeping what was typed in the entries that stay. */
export function resizeEntries(entries: readonly EmailEntry[], count: number): EmailEntry[] {
  return Array.from({ length: count }, (_, index) => entries[index] ?? EMPTY_EMAIL_ENTRY);
}
