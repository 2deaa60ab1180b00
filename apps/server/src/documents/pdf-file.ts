const PDF_HEADER = '%PDF-';
/** PDF readers look for the header within the first 1024 bytes and skip what comes before it. */
const HEADER_WITHIN = 1024;

/** Whether bytes are a PDF as readers see it: the header near the start, whatever follows. */
export function looksLikePdf(bytes: Uint8Array): boolean {
  const head = Buffer.from(
    bytes.buffer,
    bytes.byteOffset,
    Math.min(bytes.byteLength, HEADER_WITHIN + PDF_HEADER.length),
  );
  return head.includes(PDF_HEADER);
}
