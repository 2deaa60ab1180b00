import PizZip from 'pizzip';

/**
 * A template as legal staff change it in Word: the text of the body with each `from` replaced by its
 * `to`. Throws when a text is not there, so a test never passes on an edit that did not happen.
 */
export function editedTemplate(content: Uint8Array, edits: [from: string, to: string][]): Buffer {
  const zip = new PizZip(content);
  let xml = zip.file('word/document.xml')?.asText() ?? '';
  for (const [from, to] of edits) {
    if (!xml.includes(from)) throw new Error(`the template does not contain „${from}“`);
    xml = xml.replace(from, to);
  }
  zip.file('word/document.xml', xml);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}

/** The same file with another part added, e.g. the macros of a .docm (`word/vbaProject.bin`). */
export function withPart(content: Uint8Array, name: string, data: string | Uint8Array): Buffer {
  const zip = new PizZip(content);
  zip.file(name, data);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' });
}
