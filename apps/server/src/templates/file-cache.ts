import { readFile, stat } from 'node:fs/promises';

/**
 * What `derive` makes of a file, per path, as of the file's modification time and size: derived
 * once, and again when the file is saved anew (a template edited while `templates:preview` runs).
 */
export function cachedPerFile<T>(derive: (bytes: Buffer) => T): (path: string) => Promise<T> {
  const cache = new Map<string, { mtimeMs: number; size: number; value: T }>();
  return async (path) => {
    const { mtimeMs, size } = await stat(path);
    const cached = cache.get(path);
    if (cached && cached.mtimeMs === mtimeMs && cached.size === size) return cached.value;
    const value = derive(await readFile(path));
    cache.set(path, { mtimeMs, size, value });
    return value;
  };
}
