import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEB_FILES_WITH_MOCKS } from '../../../../vitest.config';

const WEB_ROOT = join(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return /\.test\.tsx?$/.test(entry.name) ? [relative(WEB_ROOT, path)] : [];
  });
}

describe('the web test files that replace modules', () => {
  it('are exactly the ones vitest runs isolated: a mock in a shared worker would leak into later files', () => {
    const mocking = testFiles(join(WEB_ROOT, 'src'))
      .filter((file) => /\bvi\.(do)?[mM]ock\(/.test(readFileSync(join(WEB_ROOT, file), 'utf8')))
      .sort();
    expect(mocking).toEqual([...WEB_FILES_WITH_MOCKS].sort());
  });
});
