import PizZip from 'pizzip';
import { MAX_PART_BYTES } from './docx-template.js';

/**
 * What makes an uploaded file unfit to be a template before its text is even read: not a
 * DOCX at all, encrypted, macro-enabled, or built to exhaust the server. Word never writes any of
 * these into a .docx it saves; the answer tells legal staff how to save the file so that it is one.
 */
export function containerProblem(content: Uint8Array): string | undefined {
  if (startsWith(content, OLE_SIGNATURE)) {
    // An encrypted OOXML file is wrapped in an OLE compound file, like the old binary .doc.
    return 'Die Datei ist mit einem Kennwort verschlüsselt oder im alten Word-Format (.doc) gespeichert. Bitte in Word ohne Kennwort als „Word-Dokument (*.docx)“ speichern.';
  }
  if (!startsWith(content, ZIP_SIGNATURE)) return NOT_A_DOCX;
  let zip: PizZip;
  try {
    zip = new PizZip(content);
  } catch {
    return NOT_A_DOCX;
  }
  const entries = Object.values(zip.files).filter((entry) => !entry.dir);
  if (!zip.file('word/document.xml') || !zip.file('[Content_Types].xml')) return NOT_A_DOCX;
  if (entries.some((entry) => /vbaProject\.bin$|vbaData\.xml$/i.test(entry.name))) return MACROS;
  // The declared sizes, read from the archive's directory without inflating anything.
  const declared = entries.reduce((sum, entry) => sum + uncompressedSize(entry), 0);
  if (declared > MAX_UNPACKED_BYTES || entries.some((entry) => uncompressedSize(entry) > MAX_PART_BYTES)) {
    return TOO_LARGE_UNPACKED;
  }
  try {
    if (/macroEnabled/i.test(zip.file('[Content_Types].xml')?.asText() ?? '')) return MACROS;
    for (const entry of entries) {
      if (!/\.(xml|rels)$/i.test(entry.name)) continue;
      // A DTD can declare entities that expand a few bytes into gigabytes („billion laughs“) or
      // read files of the server: Word never writes one, so none is let through to any parser.
      if (/<!DOCTYPE|<!ENTITY/i.test(entry.asText())) return DOCUMENT_TYPE_DEFINITION;
    }
  } catch {
    // A part that inflates beyond MAX_PART_BYTES although its declared size was small, or broken data.
    return NOT_A_DOCX;
  }
  return undefined;
}

const NOT_A_DOCX =
  'Die Datei ist keine gültige DOCX-Datei (beschädigt oder ein anderes Format). Bitte in Word als „Word-Dokument (*.docx)“ speichern.';
const MACROS =
  'Die Datei enthält Makros (.docm). Vorlagen dürfen keine Makros enthalten: bitte in Word als „Word-Dokument (*.docx)“ speichern.';
const TOO_LARGE_UNPACKED =
  'Die Datei wird entpackt viel größer, als ein Vertragstext je ist. Bitte die Vorlage prüfen und in Word neu speichern.';
const DOCUMENT_TYPE_DEFINITION =
  'Die Datei enthält eine Dokumenttyp-Definition (DOCTYPE/ENTITY), die Word nie schreibt und die beim Lesen Speicher ohne Ende verbrauchen kann. Bitte in Word öffnen und neu speichern.';

/** All parts together, unpacked: a contract with its letterhead images is a few megabytes. */
const MAX_UNPACKED_BYTES = 100 * 1024 * 1024;

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (content: Uint8Array, signature: number[]) =>
  content.length >= signature.length && signature.every((byte, i) => content[i] === byte);

/** PizZip keeps each entry's size from the archive's directory; inflating happens only on access. */
const uncompressedSize = (entry: PizZip.ZipObject): number =>
  (entry as unknown as { _data?: { uncompressedSize?: number } })._data?.uncompressedSize ?? 0;
