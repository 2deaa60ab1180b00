/** Order statistics of timing samples (milliseconds). Medians, not means: a GC pause is not the render. */
export function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => {
    if (sorted.length === 0) return Number.NaN;
    const position = (sorted.length - 1) * q;
    const lower = Math.floor(position);
    const upper = Math.ceil(position);
    return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
  };
  return { n: sorted.length, median: at(0.5), p10: at(0.1), p90: at(0.9) };
}

export const ms = (value) => (Number.isFinite(value) ? value.toFixed(2) : '–');

/** `a / b` as a factor with two decimals, e.g. "1.84×". */
export const factor = (a, b) => (Number.isFinite(a / b) ? `${(a / b).toFixed(2)}×` : '–');

export const mb = (bytes) => `${bytes >= 0 ? '+' : '−'}${(Math.abs(bytes) / 1024 ** 2).toFixed(1)} MB`;
