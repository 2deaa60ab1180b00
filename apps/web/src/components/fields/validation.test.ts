import { describe, expect, it } from 'vitest';
import {
  areEmailEntriesValid,
  clampNumber,
  emailEntryProblems,
  isEmailEntryValid,
  isNumberValid,
  isSelectValid,
  isTextValid,
  resizeEntries,
} from './validation';

describe('field rules', () => {
  it('select: required means a value is chosen', () => {
    expect(isSelectValid(null, true)).toBe(false);
    expect(isSelectValid('', true)).toBe(false);
    expect(isSelectValid('wm', true)).toBe(true);
    expect(isSelectValid(null, false)).toBe(true);
  });

  it('text: required means non-blank after trimming', () => {
    expect(isTextValid('', true)).toBe(false);
    expect(isTextValid('  \t ', true)).toBe(false);
    expect(isTextValid(' Entwickler ', true)).toBe(true);
    expect(isTextValid('   ', false)).toBe(true);
  });

  it('number: required means non-empty; zero counts as a value', () => {
    expect(isNumberValid(null, true)).toBe(false);
    expect(isNumberValid(0, true)).toBe(true);
    expect(isNumberValid(null, false)).toBe(true);
  });

  it('number: clamped to min and max, empty stays none', () => {
    expect(clampNumber(150, 0, 100)).toBe(100);
    expect(clampNumber(-3, 0, 100)).toBe(0);
    expect(clampNumber(42, 0, 100)).toBe(42);
    expect(clampNumber(null, 0, 100)).toBeNull();
    expect(clampNumber(Number.NaN, 0, 100)).toBeNull();
    expect(clampNumber(7)).toBe(7);
  });

  it('email: required needs a name and a valid email', () => {
    expect(emailEntryProblems({ name: '', email: '' }, true)).toEqual({ name: true, email: true });
    expect(emailEntryProblems({ name: 'Eva', email: 'eva@demo' }, true)).toEqual({
      name: false,
      email: true,
    });
    expect(emailEntryProblems({ name: ' ', email: 'eva@demo.de' }, true)).toEqual({
      name: true,
      email: false,
    });
    expect(isEmailEntryValid({ name: 'Eva', email: 'eva@demo.de' }, true)).toBe(true);
    for (const email of ['eva', 'eva@', '@demo.de', 'eva demo@x.de', 'eva@demo.']) {
      expect(isEmailEntryValid({ name: 'Eva', email }, true), email).toBe(false);
    }
  });

  it('email: optional may be empty but must be complete and valid when filled', () => {
    expect(isEmailEntryValid({ name: '', email: '' }, false)).toBe(true);
    expect(isEmailEntryValid({ name: '  ', email: ' ' }, false)).toBe(true);
    expect(isEmailEntryValid({ name: '', email: 'not-an-email' }, false)).toBe(false);
    expect(emailEntryProblems({ name: 'Eva', email: '' }, false)).toEqual({ name: false, email: true });
    expect(isEmailEntryValid({ name: 'Eva', email: 'eva@demo.de' }, false)).toBe(true);
  });

  it('repeated email: every entry needs a name and a valid email when required', () => {
    const good = { name: 'Eva', email: 'eva@demo.de' };
    expect(areEmailEntriesValid([good, good], true)).toBe(true);
    expect(areEmailEntriesValid([good, { name: 'Max', email: '' }], true)).toBe(false);
    expect(areEmailEntriesValid([good, { name: '', email: '' }], false)).toBe(true);
    expect(areEmailEntriesValid([], false)).toBe(false);
  });

  it('repeated email: resizing keeps the entries that stay and adds empty ones', () => {
    const good = { name: 'Eva', email: 'eva@demo.de' };
    expect(resizeEntries([good], 3)).toEqual([good, { name: '', email: '' }, { name: '', email: '' }]);
    expect(resizeEntries([good, { name: 'Max', email: 'max@demo.de' }], 1)).toEqual([good]);
  });
});
