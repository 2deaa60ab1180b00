import { describe, expect, it } from 'vitest';
import { parseVersionNumber } from './version-number.js';

describe('parseVersionNumber', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['007', 7],
    ['2147483647', 2_147_483_647],
  ])('reads %s as %d', (text, version) => {
    expect(parseVersionNumber(text)).toBe(version);
  });

  it.each([
    '0',
    '-1',
    '+1',
    '1.0',
    '1e3',
    ' 1',
    '',
    'eins',
    '2147483648',
    '99999999999999999999',
    null,
    undefined,
  ])('names no version for %j', (text) => {
    expect(parseVersionNumber(text)).toBeUndefined();
  });
});
