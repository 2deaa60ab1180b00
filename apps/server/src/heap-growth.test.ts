import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from './heap-growth.js';

describe('heapGrowthFlag', () => {
  it('limits the heap growth by default', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--max-semi-space-size=4', '--import', 'x.mjs'])).toBe(
      `--heap-growing-percent=${HEAP_GROWING_PERCENT}`,
    );
  });

  it('leaves a growth given on the command line as it is', () => {
    expect(heapGrowthFlag(['--heap-growing-percent=80'])).toBeUndefined();
    expect(heapGrowthFlag(['--inspect', '--heap-growing-percent', '80'])).toBeUndefined();
  });
});
