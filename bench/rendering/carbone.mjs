import { createRequire } from 'node:module';
import { packageVersion } from '../lib/server.mjs';

const rootRequire = createRequire(import.meta.url);
const carbone = rootRequire('carbone');

export const carboneVersion = packageVersion('carbone', rootRequire);

/**
 * Carbone as its README uses it: the template file by path, DOCX in, DOCX out. Without `convertTo`
 * Carbone returns the zipped buffer itself and never starts LibreOffice.
 */
export function renderWithCarbone(templatePath, data) {
  return new Promise((resolve, reject) => {
    carbone.render(templatePath, data, {}, (error, result) => {
      if (error) reject(error instanceof Error ? error : new Error(String(error)));
      else resolve(result);
    });
  });
}

/**
 * A Carbone-syntax copy of one of our docxtemplater templates, for one key's data.
 *
 * The copy is made by docxtemplater itself, rendering the template with "marker" data: every text field
 * gets the Carbone tag `{d.field}` as its value, every section condition (`{#x}`, `{^x}`) its real value
 * for the key. So the sections are resolved exactly as our renderer resolves them for that key
 * (including the removal of a section tag's own paragraph), and every placeholder left for Carbone sits
 * where ours puts the value. What remains for Carbone at render time is what it would do for this
 * contract anyway: unzip, find and fill every `{d.…}` tag (XML-escaped), repeat the signature blocks,
 * zip.
 *
 * Loops: in `loop` mode the signature blocks stay a Carbone loop (`{d.unterschriften[i].name}` in the
 * first block, one `{d.unterschriften[i+1].seite}` after it), so Carbone repeats them itself. In `fixed`
 * mode each block is addressed by index (`{d.unterschriften[0].name}`, …), the fallback if Carbone's
 * pattern detection ever disagrees with ours about what a block is.
 *
 * @param {(bytes: Uint8Array) => import('docxtemplater')} compileTemplate the server's own
 * @param {'loop' | 'fixed'} mode
 */
export function carboneTemplate(compileTemplate, bytes, data, mode) {
  const doc = compileTemplate(bytes).render(markerData(data, mode));
  const zip = doc.getZip();
  if (mode === 'loop') {
    for (const name of Object.keys(zip.files)) {
      if (!/\.xml$/.test(name) || zip.files[name].dir) continue;
      const xml = zip.files[name].asText();
      if (!xml.includes('[i+1].')) continue;
      let cut = xml;
      for (const [field, value] of Object.entries(data)) {
        if (Array.isArray(value)) cut = keepFirstParagraphOfNextItem(cut, field);
      }
      zip.file(name, cut);
    }
  }
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

function markerData(data, mode) {
  const markers = {};
  for (const [name, value] of Object.entries(data)) {
    if (typeof value === 'boolean') markers[name] = value;
    else if (Array.isArray(value)) markers[name] = loopMarkers(name, value, mode);
    else markers[name] = `{d.${name}}`;
  }
  return markers;
}

function loopMarkers(name, items, mode) {
  if (items.length === 0) return [];
  const fields = Object.keys(items[0]);
  const item = (index) =>
    Object.fromEntries(fields.map((field) => [field, `{d.${name}[${index}].${field}}`]));
  return mode === 'loop' ? [item('i'), item('i+1')] : items.map((_, index) => item(index));
}

/**
 * Carbone needs only one `[i+1]` tag to find the pattern and removes the paragraph that holds it, but
 * not the rest of a multi-paragraph second block: keep the second block's first paragraph only.
 */
function keepFirstParagraphOfNextItem(xml, name) {
  const marker = `{d.${name}[i+1].`;
  const first = xml.indexOf(marker);
  if (first === -1) return xml;
  const from = xml.indexOf('</w:p>', first) + '</w:p>'.length;
  const to = xml.indexOf('</w:p>', xml.lastIndexOf(marker)) + '</w:p>'.length;
  return to > from ? xml.slice(0, from) + xml.slice(to) : xml;
}
