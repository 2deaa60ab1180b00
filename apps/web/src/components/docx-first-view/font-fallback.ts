/**
 * A DOCX names its fonts without a fallback („Calibri“); a browser without that font draws the text in
 * its default font, a serif, while superdoc falls back to a font of the same kind — and the first view
 * would change its typeface when superdoc takes over. So each font stack gets superdoc's fallback:
 * serif faces a serif, all others (Word's usual sans faces) a sans-serif.
 */

/** The serif faces superdoc itself recognises by name (its `SERIF_LIKE_FONTS`). */
const SERIF_FONTS = new Set([
  'cambria',
  'cambria math',
  'times',
  'times new roman',
  'georgia',
  'garamond',
  'palatino',
  'palatino linotype',
  'book antiqua',
  'baskerville',
  'cochin',
  'hoefler text',
  'minion pro',
  'didot',
  'bodoni mt',
  'constantia',
]);

const GENERIC_FAMILIES = /(^|,)\s*(serif|sans-serif|monospace|cursive|fantasy|system-ui)\s*(,|$)/i;

/** The font stack with a fallback of the kind of its first font, unless it already ends in one. */
export function withFallbackFont(stack: string): string {
  const trimmed = stack.trim();
  if (trimmed === '' || GENERIC_FAMILIES.test(trimmed)) return trimmed;
  const first = (trimmed.split(',')[0] ?? '')
    .trim()
    .replace(/^["']|["']$/g, '')
    .toLowerCase();
  return `${trimmed}, ${SERIF_FONTS.has(first) ? "'Times New Roman', serif" : 'Arial, sans-serif'}`;
}

/** Every `font-family` declaration of a style sheet's text, each with its fallback. */
export function withFallbackFonts(css: string): string {
  return css.replace(
    /font-family:([^;}]*)/g,
    (_declaration, stack: string) => `font-family: ${withFallbackFont(stack)}`,
  );
}
