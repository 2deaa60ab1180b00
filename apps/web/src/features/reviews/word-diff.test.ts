import { describe, expect, it } from 'vitest';
import { diffWords } from './word-diff';

describe('diffWords', () => {
  it('marks the changed words between kept ones, the struck before the inserted', () => {
    expect(diffWords('Die Frist beträgt 30 Tage.', 'Die Frist beträgt 60 Tage.')).toEqual([
      { text: 'Die Frist beträgt ', change: 'kept' },
      { text: '30 ', change: 'removed' },
      { text: '60 ', change: 'added' },
      { text: 'Tage.', change: 'kept' },
    ]);
  });

  it('finds words kept between changes', () => {
    expect(diffWords('a b c d e', 'a x c y e')).toEqual([
      { text: 'a ', change: 'kept' },
      { text: 'b ', change: 'removed' },
      { text: 'x ', change: 'added' },
      { text: 'c ', change: 'kept' },
      { text: 'd ', change: 'removed' },
      { text: 'y ', change: 'added' },
      { text: 'e', change: 'kept' },
    ]);
  });

  it('gives both texts back unchanged: the kept and struck runs make the old, the kept and inserted the new', () => {
    const before = 'Der Auftragnehmer haftet unbeschränkt für alle Schäden, auch mittelbare.';
    const after = 'Der Auftragnehmer haftet bis 100.000 € für unmittelbare Schäden.';
    const runs = diffWords(before, after);
    expect(
      runs
        .filter((run) => run.change !== 'added')
        .map((run) => run.text)
        .join(''),
    ).toBe(before);
    expect(
      runs
        .filter((run) => run.change !== 'removed')
        .map((run) => run.text)
        .join(''),
    ).toBe(after);
  });

  it('answers equal texts as kept and an empty one as wholly inserted', () => {
    expect(diffWords('gleich', 'gleich')).toEqual([{ text: 'gleich', change: 'kept' }]);
    expect(diffWords('', 'neu')).toEqual([{ text: 'neu', change: 'added' }]);
  });

  it('replaces a very long paragraph whole instead of comparing it word by word', () => {
    const before = Array.from({ length: 600 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 600 }, (_, i) => `b${i}`).join(' ');
    expect(diffWords(before, after).map((run) => run.change)).toEqual(['removed', 'added']);
  });
});
