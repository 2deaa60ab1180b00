import PizZip from 'pizzip';
import { describe, expect, it } from 'vitest';
import { catalogueSamples, templateFile } from '../test/catalogue-samples.js';
import { compileTemplate, parseTemplate, renderParsed } from './docx-template.js';
import { sampleTemplateData } from './samples.js';

/**
 * Every entry of a DOCX in the archive's order, a part with its text, read with every checksum
 * checked: two documents are the same when these are.
 */
function parts(docx: Uint8Array): [string, string | null][] {
  const zip = new PizZip(docx, { checkCRC32: true });
  return Object.values(zip.files).map((file) => [file.name, file.dir ? null : file.asText()]);
}

describe('reusing a parsed template (renderParsed)', () => {
  // Every key with the first match, and each template's first key with three more matches: 81
  // documents rendered twice and read back with every checksum checked (all 264 took 26 s alone, over
  // a minute beside three other test files on two cores).
  it('gives the same parts as a fresh parse zipped by pizzip, for every key, and for each template with several matches in turn', {
    timeout: 60_000,
  }, async () => {
    const { companyData, matches, entries, firstOfTemplate } = await catalogueSamples();
    const [first, ...others] = matches;
    const cases = [
      ...entries.map((entry) => ({ entry, match: first })),
      ...others.flatMap((match) => firstOfTemplate.map((entry) => ({ entry, match }))),
    ];
    expect(firstOfTemplate.length).toBeGreaterThan(1);
    const parsed = new Map<string, ReturnType<typeof parseTemplate>>();
    const today = new Date(2026, 10, 21);
    for (const { entry, match } of cases) {
      if (!match) throw new Error('config/demo-matches.json has fewer than four valid matches');
      const bytes = templateFile(entry.template);
      const data = sampleTemplateData(entry, match, companyData, today);
      const fresh = compileTemplate(bytes).render(data).toUint8Array();
      let reused = parsed.get(entry.template);
      if (!reused) {
        reused = parseTemplate(bytes);
        parsed.set(entry.template, reused);
      }
      expect(parts(renderParsed(reused, data)), `${entry.key} ${match.matchId}`).toEqual(parts(fresh));
    }
  });

  it('writes zips that read back unchanged with Node zlib as deflate', () => {
    const bytes = templateFile('angebot-de.docx');
    const zip = new PizZip(bytes);
    zip.file('probe.txt', 'Grüße & <Test> '.repeat(200));
    const written = zip.generate({ type: 'uint8array', compression: 'DEFLATE' });
    expect(new PizZip(written).file('probe.txt')?.asText()).toBe('Grüße & <Test> '.repeat(200));
    expect(written.byteLength).toBeLessThan(bytes.byteLength + 400);
  });
});
