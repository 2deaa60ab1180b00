import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What `read` finds once work that runs after an answer has happened: a mail the outbox sends soon, a
 * seal made after the last signature, a delivery recorded. `read` answers undefined while the work is not
 * done; an error it throws fails at once. It is asked every `intervalMs` until `withinMs` have passed,
 * which stays below the tests' 20 s: a loaded machine makes the work slower, not the test fail, and a
 * test whose work never happens fails naming what it waited for.
 */
export async function eventually<T>(
  what: string,
  read: () => T | undefined | Promise<T | undefined>,
  { withinMs = 15_000, intervalMs = 20 } = {},
): Promise<T> {
  const until = Date.now() + withinMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() >= until) throw new Error(`waited ${withinMs} ms in vain for ${what}`);
    await sleep(intervalMs);
  }
}
