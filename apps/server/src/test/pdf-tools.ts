import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';

const run = promisify(execFile);

/** Runs an outside tool (poppler's, qpdf) on `pdf` in a folder of its own; `files` it leaves. */
async function withPdf<T>(pdf: Uint8Array, use: (file: string, folder: string) => Promise<T>): Promise<T> {
  const folder = mkdtempSync(join(tmpdir(), 'vg-pdf-'));
  try {
    const file = join(folder, 'checked.pdf');
    writeFileSync(file, pdf);
    return await use(file, folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What poppler's `pdfsig` (an outside check) reports about a PDF's signatures. */
export function pdfsig(pdf: Uint8Array): Promise<string> {
  return withPdf(pdf, async (file) => {
    // pdfsig answers non-zero for a broken signature; its report is what counts.
    const { stdout } = await run('pdfsig', [file]).catch((error: { stdout: string }) => ({
      stdout: error.stdout,
    }));
    return stdout;
  });
}

/**
 * What `qpdf --check` (Debian's qpdf, an outside check of the PDF's structure: cross-reference tables,
 * object streams, every stream's encoding) says of a PDF: its exit code (0 sound, 2 errors, 3 warnings
 * only) and its report.
 */
export function qpdfCheck(pdf: Uint8Array): Promise<{ exitCode: number; report: string }> {
  return withPdf(pdf, (file) =>
    run('qpdf', ['--check', file])
      .then(({ stdout, stderr }) => ({ exitCode: 0, report: stdout + stderr }))
      .catch((error: { code?: number; stdout?: string; stderr?: string }) => ({
        exitCode: typeof error.code === 'number' ? error.code : -1,
        report: `${error.stdout ?? ''}${error.stderr ?? ''}`,
      })),
  );
}

/** The files embedded in a PDF, by name, as poppler's `pdfdetach` extracts them. */
export function embeddedFiles(pdf: Uint8Array): Promise<Map<string, Buffer>> {
  return withPdf(pdf, async (file, folder) => {
    const { stdout } = await run('pdfdetach', ['-list', file]);
    const names = stdout
      .split('\n')
      .slice(1)
      .map((line) => line.replace(/^\d+:\s*/, ''))
      .filter(Boolean);
    const files = new Map<string, Buffer>();
    for (const [index, name] of names.entries()) {
      const out = join(folder, `embedded-${index + 1}`);
      await run('pdfdetach', ['-save', String(index + 1), '-o', out, file]);
      files.set(name, readFileSync(out));
    }
    return files;
  });
}

/** The text of each page, as poppler's `pdftotext` reads it. */
export function pdfPages(pdf: Uint8Array): Promise<string[]> {
  return withPdf(pdf, async (file) => {
    const { stdout } = await run('pdftotext', ['-layout', file, '-']);
    // pdftotext ends every page with a form feed.
    return stdout.split('\f').slice(0, -1);
  });
}

/** Runs `openssl` in a folder of its own holding `files` (named relative to it); its stdout and stderr. */
export function openssl(
  args: string[],
  files: Record<string, Uint8Array | string>,
): Promise<{ ok: boolean; output: string }> {
  const folder = mkdtempSync(join(tmpdir(), 'vg-openssl-'));
  for (const [name, content] of Object.entries(files)) writeFileSync(join(folder, name), content);
  return run('openssl', args, { cwd: folder })
    .then(({ stdout, stderr }) => ({ ok: true, output: stdout + stderr }))
    .catch((error: { stdout?: string; stderr?: string }) => ({
      ok: false,
      output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
    }))
    .finally(() => rmSync(folder, { recursive: true, force: true }));
}

/**
 * When the certificate for time-stamping in an RFC 3161 token (DER) ends, as openssl reads it: the
 * token's certificates (`openssl pkcs7 -print_certs`), the one with the extended key usage Time Stamping.
 */
export async function timestampCertificateNotAfter(token: Uint8Array): Promise<Date> {
  const { ok, output } = await openssl(['pkcs7', '-inform', 'DER', '-in', 'token.der', '-print_certs'], {
    'token.der': token,
  });
  if (!ok) throw new Error(`openssl pkcs7: ${output}`);
  for (const pem of output.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? []) {
    const read = await openssl(['x509', '-in', 'c.pem', '-noout', '-enddate', '-ext', 'extendedKeyUsage'], {
      'c.pem': pem,
    });
    const notAfter = /notAfter=(.+)/.exec(read.output)?.[1];
    if (/Time Stamping/.test(read.output) && notAfter) return new Date(notAfter);
  }
  throw new Error('the token holds no certificate for time-stamping');
}

/** A one-page contract PDF with a line of text (pdf-lib), the input the seal tests seal. */
export async function contractPdf(): Promise<Uint8Array> {
  const document = await PDFDocument.create();
  const page = document.addPage();
  const font = await document.embedFont(StandardFonts.Helvetica);
  page.drawText('Rahmenvertrag PL-10001, Stundensatz 95,00 EUR', { x: 50, y: 700, size: 12, font });
  return document.save();
}
