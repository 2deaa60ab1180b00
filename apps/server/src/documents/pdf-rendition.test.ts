import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, describe, expect, it } from 'vitest';
import { docxFixture, paragraph } from '../test/docx-fixture.js';
import { createPdfRenditions } from './pdf-rendition.js';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/**
 * A stand-in for `soffice` running `script` with `$out` set to the `--outdir` argument; every call
 * appends its arguments to `calls`, separated by `--call--` lines.
 */
function fakeSoffice(script: string) {
  const dir = mkdtempSync(join(tmpdir(), 'vg-fake-soffice-'));
  folders.push(dir);
  const binary = join(dir, 'soffice');
  writeFileSync(
    binary,
    `#!/bin/sh
cd "${dir}"
echo --call-- >> calls
printf '%s\\n' "$@" >> calls
while [ "$#" -gt 0 ]; do
  if [ "$1" = --outdir ]; then out="$2"; fi
  shift
done
${script}
`,
    { mode: 0o755 },
  );
  const calls = () =>
    readFileSync(join(dir, 'calls'), 'utf8')
      .split('--call--\n')
      .filter(Boolean)
      .map((call) => call.trimEnd().split('\n'));
  return { binary, calls, file: (name: string) => join(dir, name) };
}

const outdir = (args: string[]) => args[args.indexOf('--outdir') + 1] ?? '';

const docx = (text: string) => docxFixture({ body: [paragraph(text)] });

describe('PDF renditions', () => {
  it('are not available without LibreOffice', async () => {
    const renditions = createPdfRenditions({ binary: '/nonexistent/soffice' });
    expect(await renditions.available()).toBe(false);
    expect(await renditions.render(docx('Vertrag'))).toBeNull();
  });

  it('convert the DOCX in a private folder with a private profile, removed afterwards', async () => {
    const soffice = fakeSoffice('cp "$out/document.docx" "$out/document.pdf"');
    const renditions = createPdfRenditions({ binary: soffice.binary });
    expect(await renditions.available()).toBe(true);
    const input = docx('Vertrag');
    // The fake "converts" by copying: the result is what it was given.
    expect(Buffer.from((await renditions.render(input)) ?? [])).toEqual(input);
    const [args = []] = soffice.calls();
    const dir = outdir(args);
    expect(args).toEqual([
      '--headless',
      '--norestore',
      '--nolockcheck',
      `-env:UserInstallation=file://${dir}/profile`,
      '--convert-to',
      'pdf',
      '--outdir',
      dir,
      `${dir}/document.docx`,
    ]);
    expect(existsSync(dir)).toBe(false);
  });

  it('run one conversion at a time and convert each document once', async () => {
    const soffice = fakeSoffice(`echo start >> log
sleep 0.3
cp "$out/document.docx" "$out/document.pdf"
echo end >> log`);
    const renditions = createPdfRenditions({ binary: soffice.binary });
    const [first, second] = [docx('Erster Vertrag'), docx('Zweiter Vertrag')];
    const results = await Promise.all([
      renditions.render(first),
      renditions.render(second),
      renditions.render(first),
    ]);
    expect(results.map((pdf) => Buffer.from(pdf ?? []))).toEqual([first, second, first]);
    await renditions.render(second);
    expect(readFileSync(soffice.file('log'), 'utf8')).toBe('start\nend\nstart\nend\n');
  });

  it('keep the 20 most recently used documents', async () => {
    const soffice = fakeSoffice('cp "$out/document.docx" "$out/document.pdf"');
    const renditions = createPdfRenditions({ binary: soffice.binary });
    const [first, second, third] = [docx('Erster'), docx('Zweiter'), docx('Dritter')];
    await renditions.render(first);
    await renditions.render(third);
    for (let index = 0; index < 18; index++) await renditions.render(docx(`Vertrag ${index}`));
    await renditions.render(first); // used again: now the most recent
    await renditions.render(second); // the 21st document evicts the least recent, the third
    await renditions.render(first);
    expect(soffice.calls()).toHaveLength(21);
    await renditions.render(third);
    expect(soffice.calls()).toHaveLength(22);
  });

  it('fail with LibreOffice’s own words, and try again on the next request', async () => {
    const soffice = fakeSoffice(`if [ ! -e failed-once ]; then
  touch failed-once
  echo "Fatal exception: Signal 6" >&2
  exit 81
fi
cp "$out/document.docx" "$out/document.pdf"`);
    const renditions = createPdfRenditions({ binary: soffice.binary });
    const input = docx('Vertrag');
    await expect(renditions.render(input)).rejects.toThrow(/failed with 81: Fatal exception: Signal 6/);
    expect(Buffer.from((await renditions.render(input)) ?? [])).toEqual(input);
    expect(soffice.calls().map((args) => existsSync(outdir(args)))).toEqual([false, false]);
  });

  it('fail when LibreOffice exits normally without a PDF', async () => {
    const soffice = fakeSoffice('echo "Error: source file could not be loaded"');
    const renditions = createPdfRenditions({ binary: soffice.binary });
    await expect(renditions.render(docx('Vertrag'))).rejects.toThrow(
      'LibreOffice produced no PDF: Error: source file could not be loaded',
    );
  });

  it('kill LibreOffice and what it started when the conversion takes too long', async () => {
    // `sleep` runs as a child of the script, like soffice.bin of the soffice wrapper: were only the
    // script killed, the conversion would end after the sleep, long after the test's time limit.
    const soffice = fakeSoffice('sleep 30');
    const renditions = createPdfRenditions({ binary: soffice.binary, timeoutMs: 300 });
    const started = Date.now();
    await expect(renditions.render(docx('Vertrag'))).rejects.toThrow(/timed out after 300 ms and was killed/);
    expect(Date.now() - started).toBeLessThan(5_000);
    const [args = []] = soffice.calls();
    expect(existsSync(outdir(args))).toBe(false);
  });
});

const libreOffice = createPdfRenditions();
const hasSoffice = await libreOffice.available();

describe('PDF renditions by LibreOffice', () => {
  it.skipIf(!hasSoffice)(
    'turn a DOCX into a PDF with its text',
    async () => {
      const pdf = await libreOffice.render(docx('Werkvertrag über Beratungsleistungen für Łukasz Żółć'));
      expect(
        Buffer.from(pdf ?? [])
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      const document = await getDocument({ data: new Uint8Array(pdf ?? []), verbosity: 0 }).promise;
      const content = await (await document.getPage(1)).getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str : '')).join('');
      await document.destroy();
      expect(text).toContain('Werkvertrag über Beratungsleistungen für Łukasz Żółć');
    },
    120_000,
  );
});
