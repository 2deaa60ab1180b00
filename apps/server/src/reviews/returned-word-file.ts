import yauzl from 'yauzl';

/**
 * A Word file a counterparty sends back from a review is a file from outside: it is read here before
 * anything of it is stored or parsed further, and refused with a German message for what would harm us
 * or a later reader — macros, content fetched from elsewhere, embedded programs, a zip that unpacks to far
 * more than it weighs, XML that expands entities — or for not being a Word document at all.
 */

/** The largest returned file taken: a 30-page contract with images weighs a few hundred kilobytes. */
export const RETURNED_FILE_MAX_BYTES = 10 * 1024 * 1024;
/** Parts of a file: a contract has a few dozen; thousands are a trick. */
const MAX_PARTS = 1_000;
/** Unpacked, all parts together. */
const MAX_UNPACKED_BYTES = 60 * 1024 * 1024;
/** One part unpacked may weigh at most this many times what it weighs packed (beyond its first MiB). */
const MAX_RATIO = 100;

const MAIN_DOCUMENT = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const MACRO_DOCUMENT = 'application/vnd.ms-word.document.macroEnabled.main+xml';
/** The one kind of external relationship Word never follows by itself: a link the reader clicks. */
const HYPERLINK = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink';

/**
 * Why a returned file is refused, for the person who uploaded it: in German (`message`) and in English,
 * the contract's language deciding which they read. `tooLarge` is 413, the rest 422.
 */
export class ReturnedFileProblem extends Error {
  override name = 'ReturnedFileProblem';
  constructor(
    readonly kind: 'tooLarge' | 'refused',
    readonly messages: { de: string; en: string },
  ) {
    super(messages.de);
  }
}

const refused = (de: string, en: string) => new ReturnedFileProblem('refused', { de, en });

const problem = {
  tooLarge: () =>
    new ReturnedFileProblem('tooLarge', {
      de: 'Die Datei ist zu groß: höchstens 10 MB.',
      en: 'The file is too large: 10 MB at most.',
    }),
  notWord: () =>
    refused(
      'Die Datei ist kein Word-Dokument. Bitte laden Sie die Datei als .docx hoch.',
      'The file is not a Word document. Please upload it as a .docx file.',
    ),
  macros: () =>
    refused(
      'Die Datei enthält Makros. Bitte speichern Sie sie in Word als „Word-Dokument (*.docx)“ ohne Makros und laden Sie sie erneut hoch.',
      'The file contains macros. Please save it in Word as “Word Document (*.docx)” without macros and upload it again.',
    ),
  bomb: () =>
    refused(
      'Die Datei lässt sich nicht sicher entpacken: sie ist entpackt ungewöhnlich groß. Bitte speichern Sie sie in Word neu.',
      'The file cannot be unpacked safely: it is unusually large once unpacked. Please save it again in Word.',
    ),
  entities: () =>
    refused(
      'Die Datei enthält XML-Definitionen (DOCTYPE), die Word nicht schreibt. Bitte speichern Sie sie in Word neu.',
      'The file contains XML definitions (DOCTYPE) that Word does not write. Please save it again in Word.',
    ),
  external: (target: string) =>
    refused(
      `Die Datei lädt Inhalte von außerhalb (${target.slice(0, 80)}). Bitte entfernen Sie verknüpfte Bilder, Vorlagen oder Objekte und laden Sie sie erneut hoch.`,
      `The file loads content from outside (${target.slice(0, 80)}). Please remove linked pictures, templates or objects and upload it again.`,
    ),
  embedded: () =>
    refused(
      'Die Datei enthält eingebettete Objekte (OLE, z. B. eine eingefügte Excel-Tabelle oder ein Programm). Bitte entfernen Sie sie und laden Sie die Datei erneut hoch.',
      'The file contains embedded objects (OLE, such as an inserted Excel table or a program). Please remove them and upload the file again.',
    ),
};

/** The parts of a checked Word file, by their names in the package. */
export type WordParts = Map<string, Buffer>;

/**
 * Reads and checks a returned Word file: its parts, once nothing in them is refused. Throws
 * `ReturnedFileProblem` with the reason otherwise.
 */
export async function readReturnedWordFile(fileName: string, content: Buffer): Promise<WordParts> {
  if (/\.docm$/i.test(fileName)) throw problem.macros();
  if (!/\.docx$/i.test(fileName)) throw problem.notWord();
  if (content.byteLength > RETURNED_FILE_MAX_BYTES) throw problem.tooLarge();
  const parts = await unpack(content);
  checkParts(parts);
  return parts;
}

/** Every part unpacked, within the limits; refused as a bomb or as no Word file on the way. */
async function unpack(content: Buffer): Promise<WordParts> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(content, { lazyEntries: true, validateEntrySizes: true });
  } catch {
    throw problem.notWord();
  }
  if (zip.entryCount > MAX_PARTS) {
    zip.close();
    throw problem.bomb();
  }
  const parts: WordParts = new Map();
  let unpacked = 0;
  try {
    for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
      if (entry.fileName.endsWith('/')) continue;
      const limit = Math.min(
        MAX_UNPACKED_BYTES - unpacked,
        Math.max(1024 * 1024, entry.compressedSize * MAX_RATIO),
      );
      // The header's size may lie: the stream is cut at the limit whatever it says.
      if (entry.uncompressedSize > limit) throw problem.bomb();
      const bytes = await readEntry(zip, entry, limit);
      unpacked += bytes.byteLength;
      parts.set(entry.fileName, bytes);
    }
  } catch (error) {
    if (error instanceof ReturnedFileProblem) throw error;
    throw problem.notWord();
  } finally {
    zip.close();
  }
  return parts;
}

function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | undefined> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: yauzl.Entry) => {
      zip.off('end', onEnd);
      zip.off('error', onError);
      resolve(entry);
    };
    const onEnd = () => {
      zip.off('entry', onEntry);
      zip.off('error', onError);
      resolve(undefined);
    };
    const onError = (error: Error) => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      reject(error);
    };
    zip.once('entry', onEntry);
    zip.once('end', onEnd);
    zip.once('error', onError);
    zip.readEntry();
  });
}

async function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, limit: number): Promise<Buffer> {
  const stream = await zip.openReadStreamPromise(entry);
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    length += chunk.byteLength;
    if (length > limit) {
      stream.destroy();
      throw problem.bomb();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What the parts say: a Word document without macros, entities, outside content or embedded objects. */
function checkParts(parts: WordParts): void {
  const types = parts.get('[Content_Types].xml')?.toString('utf8');
  const main = parts.get('word/document.xml');
  if (!types || !main) throw problem.notWord();
  for (const [name, bytes] of parts) {
    if (/vbaProject|vbaData/i.test(name)) throw problem.macros();
    if (/^word\/embeddings\//i.test(name) || /oleObject/i.test(name)) throw problem.embedded();
    if (!/\.(xml|rels)$/i.test(name)) continue;
    const xml = bytes.toString('utf8');
    if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw problem.entities();
    if (name.endsWith('.rels')) checkRelationships(xml);
  }
  if (types.includes(MACRO_DOCUMENT) || /vbaProject/i.test(types)) throw problem.macros();
  if (!types.includes(MAIN_DOCUMENT)) throw problem.notWord();
  if (/oleObject|\/package"/i.test(types)) throw problem.embedded();
  if (/<o:OLEObject\b|<w:object\b/.test(main.toString('utf8'))) throw problem.embedded();
}

/** A relationship to outside the file is refused, except a hyperlink (Word follows it only on a click). */
function checkRelationships(xml: string): void {
  for (const [relationship] of xml.matchAll(/<Relationship\b[^>]*>/g)) {
    if (!/TargetMode\s*=\s*"External"/i.test(relationship)) {
      if (/\/(oleObject|package)"/.test(relationship)) throw problem.embedded();
      continue;
    }
    const type = /Type\s*=\s*"([^"]*)"/.exec(relationship)?.[1];
    if (type === HYPERLINK) continue;
    throw problem.external(/Target\s*=\s*"([^"]*)"/.exec(relationship)?.[1] ?? '');
  }
}
