import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import {
  COMPANY_SEAL_STATEMENT,
  COUNTERSIGNER_ROLE,
  formatDateTime,
  SIGNER_ANCHORS,
  type SignerRole,
} from '@vertragsgenerator/domain';
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from 'pdf-lib';

/** What a signer left on the signing page, to be placed in their signature block. */
export interface SignatureMark {
  role: SignerRole;
  typedName: string;
  /** The drawn signature (PNG); null when the signer only typed their name. */
  drawnSignature: Uint8Array | null;
  signedAt: Date;
  /** The company's countersignatory's function, named beside their name; absent for the others. */
  signatoryFunction?: string | null;
}

/** Where an anchor's text sits on a page, in PDF points from the bottom left. */
interface AnchorPosition {
  page: number;
  x: number;
  y: number;
}

const STANDARD_FONTS = `${dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'))}/standard_fonts/`;

/** The drawn signature's box above the signature line. */
const SIGNATURE_BOX = { width: 150, height: 36 };
const INK = rgb(0.05, 0.1, 0.35);

/** The rendition with every signer's marks placed (see markSignatures); throws for what is no readable PDF. */
export async function signedContractPages(
  rendition: Uint8Array,
  marks: SignatureMark[],
): Promise<Uint8Array> {
  try {
    const pdf = await PDFDocument.load(rendition);
    await markSignatures(pdf, rendition, marks);
    return await pdf.save();
  } catch (error) {
    // pdf-lib or pdf.js could not read it.
    throw new Error(`LibreOffice made no readable PDF: ${(error as Error).message}`);
  }
}

/**
 * Places each signer's typed name, drawn signature and time in their signature block of the contract
 * rendered as PDF (LibreOffice): the blocks carry invisible anchors (`/sig_kunde1/` …, 1-pt white
 * text on the line), found here in the text pdf.js reads from the pages. The name anchor is left
 * alone: the block prints the name already, and the typed one goes beside the signature. Blocks without a signer
 * stay as they are, except the company's: without a countersignatory (role `Firma`) it says that the
 * seal stands for the company. A signer without a block on any page gets nothing placed (the
 * certificate pages list every signature anyway). Returns how many signatures were placed.
 */
export async function markSignatures(
  contract: PDFDocument,
  bytes: Uint8Array,
  marks: SignatureMark[],
): Promise<number> {
  const anchors = await anchorPositions(bytes);
  const pages = contract.getPages();
  const regular = await contract.embedFont(StandardFonts.Helvetica);
  const italic = await contract.embedFont(StandardFonts.HelveticaOblique);
  let placed = 0;
  for (const mark of marks) {
    const { ankerSignatur, ankerDatum } = SIGNER_ANCHORS[mark.role];
    const signature = mark.drawnSignature ? await contract.embedPng(mark.drawnSignature) : null;
    const who = mark.signatoryFunction ? `${mark.typedName}, ${mark.signatoryFunction}` : mark.typedName;
    const caption = `${who} · elektronisch unterschrieben am ${formatDateTime(mark.signedAt)} Uhr`;
    for (const at of anchors.get(ankerSignatur) ?? []) {
      const page = pages[at.page];
      if (!page) continue;
      // Above the signature line: the drawing (or the typed name), then the caption beside it.
      let width: number;
      if (signature) {
        const scale = Math.min(
          SIGNATURE_BOX.width / signature.width,
          SIGNATURE_BOX.height / signature.height,
        );
        width = signature.width * scale;
        page.drawImage(signature, { x: at.x, y: at.y + 2, width, height: signature.height * scale });
      } else {
        write(page, italic, mark.typedName, at, 14);
        width = italic.widthOfTextAtSize(mark.typedName, 14);
      }
      write(page, regular, caption, { ...at, x: at.x + width + 6 }, 6);
      placed++;
    }
    for (const at of anchors.get(ankerDatum) ?? []) {
      const page = pages[at.page];
      if (page) write(page, regular, formatDateTime(mark.signedAt), at, 10);
    }
  }
  if (!marks.some((mark) => mark.role === COUNTERSIGNER_ROLE)) {
    for (const at of anchors.get(SIGNER_ANCHORS[COUNTERSIGNER_ROLE].ankerSignatur) ?? []) {
      const page = pages[at.page];
      if (page) write(page, italic, COMPANY_SEAL_STATEMENT, at, 10);
    }
  }
  return placed;
}

function write(page: PDFPage, font: PDFFont, text: string, at: AnchorPosition, size: number) {
  page.drawText(text, { x: at.x, y: at.y + 1, size, font, color: INK });
}

/** Every anchor of a signer's block on every page, by its text. */
async function anchorPositions(bytes: Uint8Array): Promise<Map<string, AnchorPosition[]>> {
  const wanted = new Set(
    Object.values(SIGNER_ANCHORS).flatMap((a) => [a.ankerSignatur, a.ankerDatum, a.ankerName] as string[]),
  );
  // Loaded when a contract is marked, not at start: pdf.js is large and most servers never need it.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  // pdf.js takes the buffer over: it gets a copy.
  const document = await getDocument({
    data: new Uint8Array(bytes),
    // The 14 standard fonts' metrics, for pages that use them without embedding (as LibreOffice may).
    standardFontDataUrl: STANDARD_FONTS,
    useSystemFonts: false,
    isEvalSupported: false,
  }).promise;
  const found = new Map<string, AnchorPosition[]>();
  try {
    for (let number = 1; number <= document.numPages; number++) {
      const page = await document.getPage(number);
      const { items } = await page.getTextContent();
      for (const item of items) {
        if (!('str' in item)) continue;
        const text = item.str.trim();
        if (!wanted.has(text)) continue;
        const [, , , , x = 0, y = 0] = item.transform as number[];
        found.set(text, [...(found.get(text) ?? []), { page: number - 1, x, y }]);
      }
    }
  } finally {
    await document.destroy();
  }
  return found;
}
