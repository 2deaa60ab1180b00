import { readFile } from 'node:fs/promises';
import { parseMatchFile, placeName } from './import.js';
import type { MatchStore } from './match-store.js';

/**
 * Fills an empty match store with config/demo-matches.json. Runs only on an empty store, so
 * matches imported or corrected by operators survive restarts. False when the store had matches.
 */
export async function seedDemoMatches(file: string, store: MatchStore): Promise<boolean> {
  if (!(await store.isEmpty())) return false;
  const { valid, refused } = parseMatchFile(await readFile(file, 'utf8'));
  if (refused.length > 0) {
    const [first] = refused;
    throw new Error(
      `${file}: ${refused.length} demo matches refused, the first (${first && placeName(first)}): ${first?.reason}`,
    );
  }
  await store.upsertMany(valid);
  return true;
}
