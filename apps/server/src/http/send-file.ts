import { create as contentDisposition } from 'content-disposition';
import type { FastifyBaseLogger, FastifyReply } from 'fastify';
import type { PdfRenditions } from '../documents/pdf-rendition.js';
import { notFound } from '../shared/http-error.js';

export const PDF_MIME = 'application/pdf';

/**
 * Every file the API answers: its type, its name for the download (or the browser's own viewer when
 * `inline`), and never a copy in a shared cache, since contracts and certificates name people.
 */
export function sendFile(
  reply: FastifyReply,
  content: Uint8Array,
  fileName: string,
  type: string,
  disposition: 'attachment' | 'inline' = 'attachment',
) {
  return reply
    .header('content-type', type)
    .header('content-disposition', contentDispositionHeader(fileName, disposition))
    .header('cache-control', 'private, no-store')
    .send(Buffer.from(content.buffer, content.byteOffset, content.byteLength));
}

/** A PDF rendition where LibreOffice is installed, shown inline; 404 otherwise, and the browser shows the DOCX. */
export async function sendPdf(
  reply: FastifyReply,
  log: FastifyBaseLogger,
  pdf: PdfRenditions,
  docx: Uint8Array,
  fileName: string,
) {
  let rendition: Uint8Array | null;
  try {
    rendition = await pdf.render(docx);
  } catch (error) {
    log.warn({ err: error }, 'pdf rendition failed');
    rendition = null;
  }
  if (!rendition) throw notFound('Für dieses Dokument gibt es keine PDF-Ansicht.');
  return sendFile(reply, rendition, fileName.replace(/\.docx$/i, '.pdf'), PDF_MIME, 'inline');
}

const TRANSLITERATION: Record<string, string> = {
  ä: 'ae',
  ö: 'oe',
  ü: 'ue',
  Ä: 'Ae',
  Ö: 'Oe',
  Ü: 'Ue',
  ß: 'ss',
};

/**
 * `Content-Disposition` (a download, or `inline` for the browser's own viewer) with the name twice
 * (RFC 6266): `filename*` in UTF-8 for every current browser, and an ASCII `filename`
 * (`Brückner` → `Brueckner`) for any client that ignores it.
 */
export function contentDispositionHeader(
  fileName: string,
  type: 'attachment' | 'inline' = 'attachment',
): string {
  const ascii = fileName
    .replace(/[äöüÄÖÜß]/g, (letter) => TRANSLITERATION[letter] ?? letter)
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/g, '_');
  return contentDisposition(fileName, { type, fallback: ascii });
}
