/** A run of a compared paragraph: in both texts, only in the newer one, or only in the older one. */
export interface WordRun {
  text: string;
  change: 'kept' | 'added' | 'removed';
}

/** Past this many cells of the comparison table a paragraph is shown as replaced whole, not word by word. */
const MAX_CELLS = 250_000;

/** Words with the spaces after them, so that joining the tokens gives the text back unchanged. */
function tokens(text: string): string[] {
  return text.match(/\S+\s*|\s+/g) ?? [];
}

function push(runs: WordRun[], text: string, change: WordRun['change']) {
  if (text === '') return;
  const last = runs.at(-1);
  if (last?.change === change) last.text += text;
  else runs.push({ text, change });
}

/**
 * The words of `before` and `after` compared (longest common subsequence): what stayed, what was struck
 * and what was inserted, in reading order with the struck run before the inserted one. The common start
 * and end are cut off first, so a paragraph with one changed word costs little.
 */
export function diffWords(before: string, after: string): WordRun[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const runs: WordRun[] = [];
  push(runs, a.slice(0, start).join(''), 'kept');
  const midA = a.slice(start, endA);
  const midB = b.slice(start, endB);
  if ((midA.length + 1) * (midB.length + 1) > MAX_CELLS) {
    push(runs, midA.join(''), 'removed');
    push(runs, midB.join(''), 'added');
  } else {
    for (const run of middle(midA, midB)) push(runs, run.text, run.change);
  }
  push(runs, a.slice(endA).join(''), 'kept');
  return runs;
}

function middle(a: string[], b: string[]): WordRun[] {
  const width = b.length + 1;
  // lengths[i * width + j]: the longest common subsequence of a[i..] and b[j..].
  const lengths = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lengths[i * width + j] =
        a[i] === b[j]
          ? (lengths[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(lengths[(i + 1) * width + j] ?? 0, lengths[i * width + j + 1] ?? 0);
    }
  }
  const runs: WordRun[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    push(runs, removed, 'removed');
    push(runs, added, 'added');
    removed = '';
    added = '';
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      flush();
      push(runs, a[i] ?? '', 'kept');
      i++;
      j++;
    } else if (
      j >= b.length ||
      (i < a.length && (lengths[(i + 1) * width + j] ?? 0) >= (lengths[i * width + j + 1] ?? 0))
    ) {
      removed += a[i] ?? '';
      i++;
    } else {
      added += b[j] ?? '';
      j++;
    }
  }
  flush();
  return runs;
}
