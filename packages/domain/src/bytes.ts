import { madeOnFirstUse } from './made-on-first-use.js';

const oneDecimal = madeOnFirstUse(() => new Intl.NumberFormat('de-DE', { maximumFractionDigits: 1 }));
const whole = madeOnFirstUse(() => new Intl.NumberFormat('de-DE'));

/**
 * A size as people read it, in German notation: `512 Bytes`, `24,3 kB`, `20 MB`. Units of 1024, as the
 * limits are set (20 × 1024 × 1024 bytes is the "20 MB" the pages and messages name).
 */
export function formatByteSize(bytes: number): string {
  // Decided on the rounded figure, so that just under a megabyte reads `1 MB`, not `1.024 kB`.
  if (Math.round(bytes / 102.4) >= 10240) return `${oneDecimal().format(bytes / 1024 / 1024)} MB`;
  if (bytes >= 1024) return `${oneDecimal().format(bytes / 1024)} kB`;
  return `${whole().format(bytes)} ${bytes === 1 ? 'Byte' : 'Bytes'}`;
}
