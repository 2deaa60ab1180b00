import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { PageSizes, type PDFDocument, type PDFFont, type PDFImage, type PDFPage, rgb } from 'pdf-lib';

/**
 * The page layout of the completion certificate: A4 pages with margins, fonts, wrapped text, labelled
 * rows and headings, drawn from the top down by a cursor that starts a new page when content would
 * not fit.
 */

export const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
export const MARGIN = 56;
export const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
export const CONTENT_TOP = PAGE_HEIGHT - MARGIN;
/** Below this line only the footer is drawn. */
export const CONTENT_BOTTOM = 78;
export const LABEL_WIDTH = 130;
export const LINE_HEIGHT = 1.35;

export const TEXT = rgb(0.13, 0.13, 0.15);
export const MUTED = rgb(0.42, 0.42, 0.46);
export const RULE = rgb(0.78, 0.79, 0.82);
export const SHADE = rgb(0.94, 0.95, 0.96);
export const ACCENT = rgb(0.11, 0.3, 0.55);

export const SIGNATURE_BOX = { width: 180, height: 60 };

export interface Fonts {
  regular: PDFFont;
  bold: PDFFont;
  mono: PDFFont;
}

export interface TextStyle {
  font: PDFFont;
  size: number;
  color?: ReturnType<typeof rgb>;
}

/** A labelled value, wrapped to its column before drawing so that its height is known in advance. */
export interface Row {
  label: string;
  lines: string[];
  style: TextStyle;
}

// pdf-lib's standard fonts only encode WinAnsi, which cannot print names such as "Łukasz Żółć";
// DejaVu covers Latin, Greek and Cyrillic and is embedded as a subset of the glyphs used.
const require = createRequire(import.meta.url);
let fontFiles: Promise<Record<keyof Fonts, Uint8Array>> | undefined;
function loadFontFiles(): Promise<Record<keyof Fonts, Uint8Array>> {
  const read = (file: string) => readFile(require.resolve(`dejavu-fonts-ttf/ttf/${file}`));
  fontFiles ??= Promise.all([
    read('DejaVuSans.ttf'),
    read('DejaVuSans-Bold.ttf'),
    read('DejaVuSansMono.ttf'),
  ]).then(([regular, bold, mono]) => ({ regular, bold, mono }));
  return fontFiles;
}

/** Embeds the three fonts the certificate uses, as subsets of the glyphs it draws. */
export async function embedFonts(pdf: PDFDocument): Promise<Fonts> {
  // Loaded with the first certificate, not at the server's start: fontkit is 1.4 MB of JavaScript that
  // took a tenth of the start's compile time and stays in the main thread's heap once loaded.
  const { default: fontkit } = await import('@pdf-lib/fontkit');
  pdf.registerFontkit(fontkit);
  const files = await loadFontFiles();
  return {
    regular: await pdf.embedFont(files.regular, { subset: true }),
    bold: await pdf.embedFont(files.bold, { subset: true }),
    mono: await pdf.embedFont(files.mono, { subset: true }),
  };
}

/**
 * Splits `text` into lines no wider than `width`. Words longer than a line (hashes, user agents,
 * e-mail addresses) are broken between characters; control characters become spaces so that no
 * input can draw a glyph the font lacks or start a line of its own.
 */
export function wrap(
  text: string,
  style: TextStyle,
  width: number,
  maxLines = Number.POSITIVE_INFINITY,
): string[] {
  const fits = (line: string) => style.font.widthOfTextAtSize(line, style.size) <= width;
  const lines: string[] = [];
  let line = '';
  for (const word of text
    .replace(/\p{Cc}/gu, ' ')
    .split(/\s+/)
    .filter(Boolean)) {
    const candidate = line ? `${line} ${word}` : word;
    if (fits(candidate)) {
      line = candidate;
      continue;
    }
    if (line) lines.push(line);
    line = '';
    for (const char of word) {
      if (line && !fits(line + char)) {
        lines.push(line);
        line = '';
      }
      line += char;
    }
  }
  if (line || lines.length === 0) lines.push(line);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  let last = kept[maxLines - 1] ?? '';
  while (last && !fits(`${last}…`)) last = Array.from(last).slice(0, -1).join('');
  kept[maxLines - 1] = `${last}…`;
  return kept;
}

export const lineHeight = (style: TextStyle) => style.size * LINE_HEIGHT;

/** A cursor running down the pages; content that does not fit on the page starts a new one. */
export class Layout {
  private page!: PDFPage;
  /** The top of the next line on the current page. */
  y = 0;

  constructor(
    private readonly pdf: PDFDocument,
    readonly fonts: Fonts,
  ) {
    this.newPage();
  }

  newPage(): void {
    this.page = this.pdf.addPage(PageSizes.A4);
    this.y = CONTENT_TOP;
  }

  /** Starts a new page unless `height` still fits on this one: keeps a block together. */
  reserve(height: number): void {
    if (this.y - height < CONTENT_BOTTOM) this.newPage();
  }

  /** Draws one line with its top at `top`, baseline placed so that ascenders stay below `top`. */
  line(text: string, x: number, top: number, style: TextStyle): void {
    this.page.drawText(text, {
      x,
      y: top - style.size,
      font: style.font,
      size: style.size,
      color: style.color ?? TEXT,
    });
  }

  /** Draws lines at the cursor and moves it below them. */
  lines(lines: string[], x: number, style: TextStyle): void {
    for (const text of lines) {
      this.line(text, x, this.y, style);
      this.y -= lineHeight(style);
    }
  }

  rule(x: number, width: number, color = RULE): void {
    this.page.drawLine({
      start: { x, y: this.y },
      end: { x: x + width, y: this.y },
      thickness: 0.6,
      color,
    });
  }

  rectangle(x: number, top: number, width: number, height: number, style: 'shade' | 'frame'): void {
    this.page.drawRectangle({
      x,
      y: top - height,
      width,
      height,
      ...(style === 'shade' ? { color: SHADE } : { borderColor: RULE, borderWidth: 0.6 }),
    });
  }

  image(image: PDFImage, x: number, top: number): void {
    // Fit the box whatever the resolution of the signature pad's canvas, keeping the aspect ratio.
    const scale = Math.min(SIGNATURE_BOX.width / image.width, SIGNATURE_BOX.height / image.height);
    const width = image.width * scale;
    const height = image.height * scale;
    this.page.drawImage(image, {
      x,
      y: top - SIGNATURE_BOX.height + (SIGNATURE_BOX.height - height) / 2,
      width,
      height,
    });
  }
}

export function row(
  fonts: Fonts,
  label: string,
  value: string,
  { style, width, maxLines }: { style?: TextStyle; width?: number; maxLines?: number } = {},
): Row {
  const valueStyle = style ?? { font: fonts.regular, size: 9.5 };
  return {
    label,
    lines: wrap(value, valueStyle, width ?? CONTENT_WIDTH - LABEL_WIDTH, maxLines),
    style: valueStyle,
  };
}

export const ROW_GAP = 3;
export const rowHeight = (row: Row) => row.lines.length * lineHeight(row.style) + ROW_GAP;

export function drawRows(layout: Layout, rows: Row[], x: number): void {
  const labelStyle = { font: layout.fonts.regular, size: 9, color: MUTED };
  for (const row of rows) {
    layout.reserve(rowHeight(row));
    layout.line(row.label, x, layout.y, labelStyle);
    layout.lines(row.lines, x + LABEL_WIDTH, row.style);
    layout.y -= ROW_GAP;
  }
}

export function heading(layout: Layout, title: string, following = 40): void {
  const style = { font: layout.fonts.bold, size: 12, color: ACCENT };
  layout.y -= 12;
  // A heading alone at the foot of a page reads as the end of the document.
  layout.reserve(lineHeight(style) + 6 + following);
  layout.lines([title], MARGIN, style);
  layout.y -= 2;
  layout.rule(MARGIN, CONTENT_WIDTH, ACCENT);
  layout.y -= 8;
}

export function section(layout: Layout, title: string, rows: Row[]): void {
  heading(layout, title);
  drawRows(layout, rows, MARGIN);
}
