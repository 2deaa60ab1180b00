import { crc32, deflateSync } from 'node:zlib';

/** A valid RGBA PNG of `width`×`height` pixels, as the signature pad uploads it. */
export function png(width: number, height: number): Uint8Array {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const checksum = Buffer.alloc(4);
    checksum.writeUInt32BE(crc32(Buffer.concat([Buffer.from(type), data])));
    return Buffer.concat([length, Buffer.from(type), data, checksum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 6], 8); // 8 bits per channel, RGBA
  // Each scanline: filter byte 0, then opaque dark blue pixels.
  const scanline = Buffer.concat([
    Buffer.from([0]),
    Buffer.from(Array(width).fill([20, 40, 120, 255]).flat()),
  ]);
  const pixels = Buffer.concat(Array(height).fill(scanline));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}
