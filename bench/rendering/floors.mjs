import { inflateRawSync } from 'node:zlib';
import { serverRequire } from '../lib/server.mjs';

/**
 * The two floors ours is measured against: the zip work alone, without any template filling.
 *
 * - *Changed parts only*: the template's zip entries that the rendering leaves unchanged keep their
 *   compressed bytes as they are; only `word/document.xml` and the parts whose bytes differ from the
 *   template's are deflated (with the checksum) at zlib's default level, as the renderer does, and the
 *   archive is written with the server's zip writer (apps/server/dist/templates/docx-zip.js). Their
 *   rendered bytes are taken from a finished document before timing. This is what any renderer pays
 *   that writes these parts.
 * - *Unzip + rezip*: PizZip loads the template, reads and writes back unchanged the entries pizzip
 *   rewrote when it zipped our documents, and zips with DEFLATE (node:zlib): the zip work of a
 *   docxtemplater renderer that lets pizzip zip.
 */

/** Parts a renderer always writes, changed or not: the body of the document. */
const ALWAYS_WRITTEN = 'word/document.xml';

export function changedPartsFloor({ docxZip, PizZip, bytes, rendered }) {
  const entries = docxZip.readTemplateZip(bytes);
  if (!entries) throw new Error('the template uses zip features the server’s zip writer leaves to pizzip');
  const document = new PizZip(rendered);
  const date = new Date();
  const parts = [...entries].map(([name, entry]) => {
    const content = document.file(name)?.asUint8Array();
    if (!content) throw new Error(`${name} is missing from the rendered document`);
    return name === ALWAYS_WRITTEN || !docxZip.sameContent(content, entry)
      ? { name, content, date }
      : { name, content: null, date, unchanged: entry };
  });
  return {
    run: () => docxZip.writeDocx(parts),
    compressed: parts.filter((part) => !part.unchanged).map((part) => part.name),
    parts: parts.length,
  };
}

export function unzipRezipFloor({ PizZip, compileTemplate, bytes, data }) {
  assertProductionDeflate(PizZip);
  const rewritten = partsRewrittenByPizzip(compileTemplate, bytes, data);
  return {
    run: () => {
      const zip = new PizZip(bytes);
      for (const name of rewritten) zip.file(name, zip.files[name].asText());
      return zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
    },
    compressed: rewritten,
  };
}

/**
 * The zip entries pizzip decompresses and compresses again when it zips a rendered template (the
 * parts docxtemplater reads or writes); pizzip copies every other entry still compressed.
 */
function partsRewrittenByPizzip(compileTemplate, bytes, data) {
  const zip = compileTemplate(bytes).render(data).getZip();
  return Object.keys(zip.files).filter(
    (name) => !zip.files[name].dir && typeof zip.files[name]._data?.getCompressedContent !== 'function',
  );
}

/**
 * The unzip + rezip floor must zip with the DEFLATE production used with pizzip: docx-template.js
 * replaces pizzip's bundled pako with node:zlib when it is imported, on the one pizzip module the
 * server and this bench share. Fails if the floor would time pako instead (another pizzip copy, or the
 * patch gone or not yet loaded).
 */
function assertProductionDeflate(PizZip) {
  const pako = serverRequire('pizzip/js/flate.js');
  const deflate = PizZip.compressions.DEFLATE;
  const problem =
    deflate === pako || deflate.compress === pako.compress
      ? "is still pizzip's bundled pako"
      : !String(deflate.compress).includes('deflateRawSync')
        ? `is not node:zlib's deflateRawSync: ${String(deflate.compress)}`
        : undefined;
  if (problem) {
    throw new Error(
      `The floor's PizZip DEFLATE ${problem}; production (apps/server/dist/templates/docx-template.js) ` +
        'deflates with node:zlib, so the floor would not zip as the renderer does.',
    );
  }
  const sample = new TextEncoder().encode('<w:p><w:r><w:t>floor</w:t></w:r></w:p>'.repeat(50));
  if (Buffer.compare(inflateRawSync(deflate.compress(sample, {})), sample) !== 0) {
    throw new Error("The floor's PizZip DEFLATE does not round-trip through node:zlib's inflateRawSync.");
  }
}
