import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LRUCache } from 'lru-cache';
import { sha256Hex } from '../shared/sha256.js';

/**
 * PDF renditions of generated DOCX files for the signing pages, made by LibreOffice where the server
 * has it. Without LibreOffice the browser shows the DOCX itself, so a rendition is optional.
 */
export interface PdfRenditions {
  /** Whether LibreOffice was found; looked up once. */
  available(): Promise<boolean>;
  /**
   * The PDF of `docx`, or null when LibreOffice is not available. Throws when the conversion fails;
   * the caller then shows the DOCX. Results are shared between callers and must not be modified.
   */
  render(docx: Uint8Array): Promise<Uint8Array | null>;
}

export interface PdfRenditionOptions {
  /** The LibreOffice executable, a path or a name looked up on PATH; default `soffice` or `libreoffice`. */
  binary?: string;
  /** Time a conversion may take before LibreOffice is killed; default 60 s. */
  timeoutMs?: number;
}

/** Envelopes are signed one after the other, so a few recent documents cover nearly all page views. */
const CACHE_ENTRIES = 20;

export function createPdfRenditions(options: PdfRenditionOptions = {}): PdfRenditions {
  const timeoutMs = options.timeoutMs ?? 60_000;
  let binary: Promise<string | null> | undefined;
  const findBinary = () => {
    binary ??= findExecutable(options.binary ? [options.binary] : ['soffice', 'libreoffice']);
    return binary;
  };
  // Pending conversions are cached too: signers opening the same document at once share one run.
  const cache = new LRUCache<string, Promise<Uint8Array>>({ max: CACHE_ENTRIES });
  const serialise = queue();

  return {
    available: async () => (await findBinary()) !== null,
    async render(docx) {
      const executable = await findBinary();
      if (executable === null) return null;
      const key = sha256Hex(docx);
      const cached = cache.get(key);
      if (cached) return cached;
      const pdf = serialise(() => convert(executable, docx, timeoutMs));
      cache.set(key, pdf);
      // A failure may be passing (timeout under load): the next request tries again.
      pdf.catch(() => {
        if (cache.get(key) === pdf) cache.delete(key);
      });
      return pdf;
    },
  };
}

/** The first of `names` that is an executable file: a path as given, a bare name on PATH. */
async function findExecutable(names: string[]): Promise<string | null> {
  const directories = (process.env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of names) {
    const candidates = name.includes('/') ? [name] : directories.map((directory) => join(directory, name));
    for (const candidate of candidates) {
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** Runs tasks one at a time: parallel LibreOffice processes get in each other's way. */
function queue(): <T>(task: () => Promise<T>) => Promise<T> {
  let last: Promise<unknown> = Promise.resolve();
  return (task) => {
    const run = last.then(task);
    last = run.catch(() => undefined);
    return run;
  };
}

async function convert(binary: string, docx: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), 'vg-pdf-'));
  try {
    const input = join(dir, 'document.docx');
    await writeFile(input, docx);
    // A fresh profile per run: one left broken by a killed process cannot spoil later conversions,
    // and a LibreOffice the server's user runs otherwise cannot capture the conversion.
    const profile = pathToFileURL(join(dir, 'profile')).href;
    const args = ['--headless', '--norestore', '--nolockcheck', `-env:UserInstallation=${profile}`];
    const output = await run(binary, [...args, '--convert-to', 'pdf', '--outdir', dir, input], timeoutMs);
    try {
      return await readFile(join(dir, 'document.pdf'));
    } catch {
      // LibreOffice exits with 0 also when it cannot read the input; it only says so on stdout.
      throw new Error(`LibreOffice produced no PDF: ${output.trim() || 'no output'}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Resolves with the process's output once it exits with 0; rejects on failure or timeout. */
function run(binary: string, args: string[], timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    // `soffice` is a wrapper that starts `soffice.bin` as its child. As leader of its own process
    // group it can be killed with all its children, which would otherwise keep running (and keep
    // our pipes open, so that we would never learn that it ended).
    const child = spawn(binary, args, { detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-4000);
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The whole group ended just now; `close` follows.
      }
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`LibreOffice (${binary}) could not be started: ${error.message}`, { cause: error }));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut)
        reject(new Error(`LibreOffice (${binary}) timed out after ${timeoutMs} ms and was killed`));
      else if (code !== 0) {
        reject(
          new Error(`LibreOffice (${binary}) failed with ${code ?? signal}: ${output.trim() || 'no output'}`),
        );
      } else resolve(output);
    });
  });
}
