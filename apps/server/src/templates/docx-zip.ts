import { constants, crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Writes a rendered DOCX as a zip in which every part the rendering left unchanged keeps the
 * template's compressed bytes as they are; only the changed parts (word/document.xml and the few
 * others with placeholders) are deflated again. pizzip inflates every part docxtemplater reads and
 * deflates it again, which was half of a contract's render time (bench/rendering, docs/performance.md).
 * Of the zip libraries on npm, fflate and yazl compress whatever they are given, and @zip.js/zip.js
 * copies compressed data (`passThrough`) only through asynchronous streams, entry by entry, for a
 * document that takes a few milliseconds in all. So the directory is read and written here (CRCs and
 * deflate from node:zlib); zip64, encryption and other compression methods are left to pizzip
 * (`readTemplateZip` answers `undefined` for them).
 */

/** One part of the template as its central directory describes it. */
export interface TemplateEntry {
  flags: number;
  method: number;
  /** MS-DOS time and date, two 16-bit words. */
  time: number;
  date: number;
  crc: number;
  size: number;
  /** The compressed bytes as stored in the template: a view into its bytes, never copied. */
  compressed: Uint8Array;
  /** The uncompressed bytes, inflated the first time a rendered part is compared with them. */
  content?: Uint8Array;
}

/** A part of the rendered document: its bytes, or `null` for a folder entry. */
export interface RenderedPart {
  name: string;
  content: Uint8Array | null;
  /** When the part was written (the modification time of a changed or new entry). */
  date: Date;
  /** The template's part of the same name, when the rendering did not replace it. */
  unchanged?: TemplateEntry;
}

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;
/** General purpose flag bits: 0 encrypted, 3 sizes in a data descriptor after the data, 11 UTF-8 name. */
const ENCRYPTED = 0x1;
const DATA_DESCRIPTOR = 0x8;
const UTF8_NAME = 0x800;
/** "Version needed to extract" 2.0 (deflate, folders); "made by" 2.0 on MS-DOS, as pizzip writes. */
const VERSION = 20;
const MSDOS_DIRECTORY = 0x10;

/**
 * The template's parts by name, read from its central directory; `undefined` when the archive uses
 * something this writer does not (zip64, encryption, another compression than store or deflate).
 */
export function readTemplateZip(bytes: Uint8Array): Map<string, TemplateEntry> | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = findEndOfCentralDirectory(view);
  if (end < 0) return undefined;
  const count = view.getUint16(end + 10, true);
  const directoryOffset = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || count === 0xffff || directoryOffset === 0xffffffff) {
    return undefined;
  }
  const entries = new Map<string, TemplateEntry>();
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL_HEADER) return undefined;
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const compressedSize = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const headerOffset = view.getUint32(at + 42, true);
    if (
      flags & ENCRYPTED ||
      (method !== STORED && method !== DEFLATED) ||
      compressedSize === 0xffffffff ||
      size === 0xffffffff ||
      headerOffset === 0xffffffff ||
      headerOffset + 30 > bytes.length ||
      view.getUint32(headerOffset, true) !== LOCAL_HEADER
    ) {
      return undefined;
    }
    // The data starts after the local header, whose extra field may differ from the central one.
    const dataStart =
      headerOffset + 30 + view.getUint16(headerOffset + 26, true) + view.getUint16(headerOffset + 28, true);
    if (dataStart + compressedSize > bytes.length) return undefined;
    const name = new TextDecoder(flags & UTF8_NAME ? 'utf-8' : 'latin1').decode(
      bytes.subarray(at + 46, at + 46 + nameLength),
    );
    entries.set(name, {
      flags,
      method,
      time: view.getUint16(at + 12, true),
      date: view.getUint16(at + 14, true),
      crc: view.getUint32(at + 16, true),
      size,
      compressed: bytes.subarray(dataStart, dataStart + compressedSize),
    });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

/** The template part's uncompressed bytes, kept with it for the next document. */
export function templateContent(entry: TemplateEntry): Uint8Array {
  entry.content ??=
    entry.method === DEFLATED
      ? inflateRawSync(entry.compressed, { maxOutputLength: entry.size })
      : entry.compressed;
  return entry.content;
}

/** Whether a rendered part has exactly the template part's bytes. */
export function sameContent(content: Uint8Array, entry: TemplateEntry): boolean {
  return content.length === entry.size && Buffer.compare(content, templateContent(entry)) === 0;
}

/**
 * The zip of the rendered parts, in their order. An unchanged part keeps its compressed bytes,
 * checksum and time from the template; a changed one is deflated at zlib's default level, as pizzip
 * did, and dated when it was written.
 */
export function writeDocx(parts: RenderedPart[]): Uint8Array {
  const records = parts.map(record);
  const dataLength = records.reduce((sum, r) => sum + 30 + r.name.length + r.compressed.length, 0);
  const directoryLength = records.reduce((sum, r) => sum + 46 + r.name.length, 0);
  // A buffer of its own, never a slice of Node's shared pool: the render thread transfers it to the caller.
  const output = Buffer.allocUnsafeSlow(dataLength + directoryLength + 22);
  const offsets: number[] = [];
  let at = 0;
  for (const r of records) {
    offsets.push(at);
    output.writeUInt32LE(LOCAL_HEADER, at);
    output.writeUInt16LE(VERSION, at + 4);
    at = writeCommonFields(output, at + 6, r);
    output.writeUInt16LE(0, at); // no extra field
    output.set(r.name, at + 2);
    output.set(r.compressed, at + 2 + r.name.length);
    at += 2 + r.name.length + r.compressed.length;
  }
  records.forEach((r, i) => {
    output.writeUInt32LE(CENTRAL_HEADER, at);
    output.writeUInt16LE(VERSION, at + 4); // made by
    output.writeUInt16LE(VERSION, at + 6); // needed to extract
    at = writeCommonFields(output, at + 8, r);
    output.writeUInt16LE(0, at); // extra field
    output.writeUInt16LE(0, at + 2); // comment
    output.writeUInt16LE(0, at + 4); // disk
    output.writeUInt16LE(0, at + 6); // internal attributes
    output.writeUInt32LE(r.externalAttributes, at + 8);
    output.writeUInt32LE(offsets[i] as number, at + 12);
    output.set(r.name, at + 16);
    at += 16 + r.name.length;
  });
  output.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, at);
  output.writeUInt16LE(0, at + 4); // this disk
  output.writeUInt16LE(0, at + 6); // the directory's disk
  output.writeUInt16LE(records.length, at + 8);
  output.writeUInt16LE(records.length, at + 10);
  output.writeUInt32LE(directoryLength, at + 12);
  output.writeUInt32LE(dataLength, at + 16);
  output.writeUInt16LE(0, at + 20); // comment
  return new Uint8Array(output.buffer, output.byteOffset, output.byteLength);
}

/** A part as the archive's local header and central directory record it. */
interface EntryRecord extends Omit<TemplateEntry, 'content'> {
  name: Buffer;
  externalAttributes: number;
}

function record({ name, content, date, unchanged }: RenderedPart): EntryRecord {
  const encodedName = Buffer.from(name, 'utf8');
  // Bit 11 only when the name needs it; bits 1–2 (deflate's speed) stay as the template had them.
  const nameFlag = encodedName.length === name.length ? 0 : UTF8_NAME;
  if (unchanged) {
    const flags = (unchanged.flags & ~(DATA_DESCRIPTOR | UTF8_NAME)) | nameFlag;
    return { ...unchanged, name: encodedName, flags, externalAttributes: 0 };
  }
  const { time, date: day } = dosDateTime(date);
  if (content === null) {
    const folder = { name: encodedName, flags: nameFlag, method: STORED, crc: 0, size: 0 };
    return { ...folder, time, date: day, compressed: new Uint8Array(0), externalAttributes: MSDOS_DIRECTORY };
  }
  return {
    name: encodedName,
    flags: nameFlag,
    method: DEFLATED,
    time,
    date: day,
    crc: crc32(content),
    size: content.length,
    compressed: deflateRawSync(content, { level: constants.Z_DEFAULT_COMPRESSION }),
    externalAttributes: 0,
  };
}

/** The fields local and central headers share, from "general purpose flags" to "extra field length". */
function writeCommonFields(output: Buffer, at: number, r: EntryRecord): number {
  output.writeUInt16LE(r.flags, at);
  output.writeUInt16LE(r.method, at + 2);
  output.writeUInt16LE(r.time, at + 4);
  output.writeUInt16LE(r.date, at + 6);
  output.writeUInt32LE(r.crc, at + 8);
  output.writeUInt32LE(r.compressed.length, at + 12);
  output.writeUInt32LE(r.size, at + 16);
  output.writeUInt16LE(r.name.length, at + 20);
  return at + 22;
}

/** Local time in MS-DOS format (2-second steps, years from 1980), as pizzip writes it. */
function dosDateTime(date: Date): { time: number; date: number } {
  return {
    time: (date.getHours() << 11) | (date.getMinutes() << 5) | (date.getSeconds() >> 1),
    date: ((Math.max(date.getFullYear(), 1980) - 1980) << 9) | ((date.getMonth() + 1) << 5) | date.getDate(),
  };
}

/** The end record is the last 22 bytes unless the archive has a comment (up to 64 KB) after it. */
function findEndOfCentralDirectory(view: DataView): number {
  const earliest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= earliest; at--) {
    if (view.getUint32(at, true) === END_OF_CENTRAL_DIRECTORY) return at;
  }
  return -1;
}
