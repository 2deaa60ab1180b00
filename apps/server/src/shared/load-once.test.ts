import { describe, expect, it } from 'vitest';
import { loadOnce } from './load-once.js';

describe('loadOnce', () => {
  it('loads once for every caller, and again after a failed attempt', async () => {
    let calls = 0;
    const load = loadOnce(async () => {
      calls++;
      if (calls === 1) throw new Error('away');
      return calls === 2 ? 'loaded' : 'again';
    });
    await expect(Promise.all([load(), load()])).rejects.toThrow('away');
    expect(calls).toBe(1);
    expect(await Promise.all([load(), load()])).toEqual(['loaded', 'loaded']);
    expect(await load()).toBe('loaded');
    expect(calls).toBe(2);
  });
});
