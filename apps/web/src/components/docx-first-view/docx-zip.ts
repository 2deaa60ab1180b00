import { unzipSync } from 'fflate';
import { nextTask } from './next-task';

/**
 * The part of JSZip's API with which docx-preview reads a DOCX (`JSZip.loadAsync`, the archive's `files`
 * and each file's `async`), on fflate. The build hands docx-preview this module for `jszip`
 * (apps/web/vite-docx-zip.ts); superdoc keeps JSZip, with which it also writes DOCX files.
 *
 * Why: JSZip's code was half of the first view's chunk, which the signing link and the editor tab load.
 * It also inflated a part in small steps, each in a task it started by posting a message to the window,
 * and decoded UTF-8 in JavaScript; fflate inflates a part in one go and the browser decodes it.
 */

type OutputType = 'string' | 'text' | 'uint8array' | 'arraybuffer' | 'blob';
type OutputOf<T extends OutputType> = T extends 'string' | 'text'
  ? string
  : T extends 'uint8array'
    ? Uint8Array
    : T extends 'arraybuffer'
      ? ArrayBuffer
      : Blob;

export interface DocxZipEntry {
  name: string;
  dir: boolean;
  async<T extends OutputType>(type: T): Promise<OutputOf<T>>;
}

/**
 * A DOCX to be read a part at a time, each in a task of its own, as JSZip read every file: docx-preview
 * parses a part as soon as it has it, so read at once it would read and parse the whole file in one long
 * task, which on a phone holds up the page and a tap on it (Lighthouse's total blocking time on the
 * signing link: 300 instead of 186 ms median). Where superdoc follows the first view, at once is better:
 * between the steps superdoc's code, which loads meanwhile, would take the thread for a long task.
 */
export class DocxReadInSteps {
  constructor(readonly docx: Blob) {}
}

export interface DocxZip {
  /** Every entry by its path in the archive, as JSZip's `files`. */
  files: Record<string, DocxZipEntry>;
}

const utf8 = new TextDecoder();

/** One entry's bytes, inflated when asked for: a part docx-preview never reads is never inflated. */
function inflated(archive: Uint8Array, name: string): Uint8Array {
  const bytes = unzipSync(archive, { filter: (file) => file.name === name })[name];
  if (!bytes) throw new Error(`the DOCX has no part ${name}`);
  return bytes;
}

function entry(archive: Uint8Array, name: string, inSteps: boolean): DocxZipEntry {
  let bytes: Uint8Array | undefined;
  return {
    name,
    dir: name.endsWith('/'),
    async async(type) {
      if (inSteps) await nextTask();
      bytes ??= inflated(archive, name);
      if (type === 'string' || type === 'text') return utf8.decode(bytes) as never;
      if (type === 'uint8array') return bytes as never;
      // A Blob copies the bytes it is made of; fflate inflates into plain (not shared) buffers.
      if (type === 'blob') return new Blob([bytes as Uint8Array<ArrayBuffer>]) as never;
      // A copy of exactly its bytes: `bytes` may be a view into a larger buffer.
      return bytes.slice().buffer as never;
    },
  };
}

async function loadAsync(given: DocxReadInSteps | Blob | ArrayBuffer | Uint8Array): Promise<DocxZip> {
  const inSteps = given instanceof DocxReadInSteps;
  const input = inSteps ? given.docx : given;
  const archive =
    input instanceof Uint8Array
      ? input
      : new Uint8Array(input instanceof ArrayBuffer ? input : await input.arrayBuffer());
  const names: string[] = [];
  // Lists the entries without inflating any (the filter declines each).
  unzipSync(archive, {
    filter: (file) => {
      names.push(file.name);
      return false;
    },
  });
  return { files: Object.fromEntries(names.map((name) => [name, entry(archive, name, inSteps)])) };
}

export default { loadAsync };
