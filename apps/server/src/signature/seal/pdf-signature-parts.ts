import { fromBER } from 'asn1js';

/** One signature of a PDF as written: its byte range, the bytes it signs and its CMS (DER, unpadded). */
export interface PdfSignatureParts {
  byteRange: [number, number, number, number];
  signedBytes: Buffer;
  cms: Buffer;
}

/**
 * Every signature and document timestamp of a PDF, in file order, cut out by their /ByteRange. The
 * /Contents between the two ranges is hex padded with zeros; the DER's own length says where it ends
 * (trimming zeros would cut off a DER whose last byte is 0).
 */
export function pdfSignatureParts(pdf: Uint8Array): PdfSignatureParts[] {
  const file = Buffer.from(pdf);
  const text = file.toString('latin1');
  return [...text.matchAll(/\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/g)].flatMap((match) => {
    const [a, b, c, d] = match.slice(1, 5).map(Number) as [number, number, number, number];
    if (a + b >= c || c + d > file.length) return [];
    const padded = Buffer.from(text.slice(a + b + 1, c - 1).replace(/[^0-9a-fA-F]/g, ''), 'hex');
    const decoded = fromBER(padded.buffer.slice(padded.byteOffset, padded.byteOffset + padded.byteLength));
    if (decoded.offset <= 0) return [];
    return [
      {
        byteRange: [a, b, c, d],
        signedBytes: Buffer.concat([file.subarray(a, a + b), file.subarray(c, c + d)]),
        cms: padded.subarray(0, decoded.offset),
      },
    ];
  });
}
