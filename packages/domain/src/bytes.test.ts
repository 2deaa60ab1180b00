import { describe, expect, it } from 'vitest';
import { formatByteSize } from './bytes.js';

describe('formatByteSize', () => {
  it.each([
    [0, '0 Bytes'],
    [1, '1 Byte'],
    [1023, '1.023 Bytes'],
    [1024, '1 kB'],
    [24_883, '24,3 kB'],
    [2 * 1024, '2 kB'],
    [1023.9 * 1024, '1.023,9 kB'],
    [1024 * 1024 - 1, '1 MB'],
    [1024 * 1024, '1 MB'],
    [20 * 1024 * 1024, '20 MB'],
    [Math.round(3.25 * 1024 * 1024), '3,3 MB'],
  ])('shows %d bytes as %s', (bytes, shown) => {
    expect(formatByteSize(bytes)).toBe(shown);
  });
});
