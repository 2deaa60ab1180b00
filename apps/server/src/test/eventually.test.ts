import { describe, expect, it } from 'vitest';
import { eventually } from './eventually.js';

describe('eventually', () => {
  it('answers what read finds once it finds it, asking again meanwhile', async () => {
    let asked = 0;
    const found = await eventually('the third answer', () => (++asked === 3 ? 'da' : undefined), {
      intervalMs: 1,
    });
    expect(found).toBe('da');
    expect(asked).toBe(3);
  });

  it('fails naming what it waited for once the time is up', async () => {
    let asked = 0;
    await expect(
      eventually(
        'a mail that never comes',
        () => {
          asked++;
          return undefined;
        },
        { withinMs: 50, intervalMs: 5 },
      ),
    ).rejects.toThrow('waited 50 ms in vain for a mail that never comes');
    expect(asked).toBeGreaterThan(1);
  });

  it('fails at once with the error read throws', async () => {
    let asked = 0;
    await expect(
      eventually('a status', () => {
        asked++;
        throw new Error('500 statt 409');
      }),
    ).rejects.toThrow('500 statt 409');
    expect(asked).toBe(1);
  });
});
