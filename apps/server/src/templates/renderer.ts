import type { TemplateData } from '@vertragsgenerator/domain';
import { LRUCache } from 'lru-cache';
import { Piscina } from 'piscina';
import { sha256Hex } from '../shared/sha256.js';
import { siblingWorkerModule, workerStartOptions } from '../shared/worker-module.js';
import {
  fillLayout,
  layoutBytes,
  type PreparedLayout,
  prepareLayout,
  shapeOf,
  xmlSafe,
} from './document-layout.js';
import { readTemplateZip } from './docx-zip.js';
import type { RenderOutcome, RenderTask } from './render-worker.js';
import { formatProblem, type TemplateProblem } from './template-problems.js';

/** A template as rendered: one version of a catalogue entry's template file. */
export interface TemplateSource {
  /** The catalogue's file name, e.g. `rahmenvertrag-de.docx`. */
  name: string;
  /** The template library's stored version; null for a file read from a folder (command-line tools). */
  version: number | null;
  sha256: string;
  content: Uint8Array;
}

/** Where a key's template comes from: the published versions, or a folder of files. */
export interface TemplateSources {
  /** The version the next document of this template is rendered from; a `TemplateError` if none. */
  current(name: string): Promise<TemplateSource>;
}

/** Turns a template and its data into a DOCX. */
export interface Renderer {
  render(template: TemplateSource, data: TemplateData): Promise<RenderedDocument>;
  /** Documents taken and not yet answered: waiting for a thread or rendering. */
  pending(): number;
  /** Whether it takes no more documents (the server is stopping). */
  closed(): boolean;
  close(): Promise<void>;
}

export interface RenderedDocument {
  content: Buffer;
  /** SHA-256 of the template as rendered: history keeps it whatever is published later. */
  templateSha256: string;
  templateVersion: number | null;
}

/** The template itself is broken (syntax, missing file): our fault, and retrying will not help. */
export class TemplateError extends Error {
  override name = 'TemplateError';
  constructor(
    readonly templateFile: string,
    readonly problems: TemplateProblem[],
    readonly templateSha256?: string,
  ) {
    super(problems.map((problem) => formatProblem(templateFile, problem)).join('\n'));
  }
}

/** The pool cannot take the task (queue full, worker died, shutting down): asking later may succeed. */
export class RendererUnavailableError extends Error {
  override name = 'RendererUnavailableError';
}

export interface RendererPoolOptions {
  threads: number;
  /** Longest a document may take from its submission, waiting in the queue included; default 20 s. */
  taskTimeoutMs?: number;
  /**
   * The worker module; default render-worker beside this file. A module of its own must answer
   * `RenderTask`s as render-worker does (tests wrap it to crash or hang).
   */
  worker?: URL;
}

// A render takes tens of milliseconds: beyond this many waiting tasks per thread an answer would
// take seconds, and a quick 503 that the browser retries serves the user better.
const QUEUED_TASKS_PER_THREAD = 64;
/**
 * A render that takes this long is stuck (a pathological template loop, a bug): aborting it ends its
 * worker thread, and piscina starts a fresh one for the next document.
 */
const DEFAULT_TASK_TIMEOUT_MS = 20_000;

/**
 * A render thread with no document for this long ends. The next document after such a pause waits for
 * a thread to start, as the first one after the server's start does (the renderer's modules take about
 * 0.4 s of CPU time to load on a busy 2-core machine).
 */
const THREAD_IDLE_TIMEOUT_MS = 60_000;

/**
 * The layouts kept, by the bytes of their text: a contract's is about 100 kB, so a few hundred shapes
 * of the catalogue's templates. The one used longest ago goes first.
 */
const LAYOUT_CACHE_BYTES = 24 * 1024 * 1024;

/**
 * Renders in a piscina pool of worker threads and fills the layouts they make (document-layout.ts):
 * a document of a shape seen before is filled and zipped in the calling thread, without a thread hop,
 * in about a millisecond. The pool starts with the first new shape, so processes that never render
 * (CLIs, most tests) start no threads.
 */
export function createRendererPool({
  threads,
  taskTimeoutMs = DEFAULT_TASK_TIMEOUT_MS,
  worker = siblingWorkerModule(import.meta.url, 'render-worker'),
}: RendererPoolOptions): Renderer {
  let pool: Piscina<RenderTask, RenderOutcome> | undefined;
  let closed = false;
  // Counted here, not with piscina's maxQueue: piscina keeps tasks that carry an abort signal in a
  // queue of their own, which maxQueue does not limit.
  let unfinished = 0;
  const capacity = threads * (1 + QUEUED_TASKS_PER_THREAD);
  const layouts = new LRUCache<string, PreparedLayout>({
    maxSize: LAYOUT_CACHE_BYTES,
    sizeCalculation: layoutBytes,
  });
  const rendered = (template: TemplateSource, content: Uint8Array): RenderedDocument => ({
    content: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
    templateSha256: template.sha256,
    templateVersion: template.version,
  });

  return {
    async render(template, data) {
      if (closed) throw new RendererUnavailableError('the renderer has been closed');
      const shape = shapeOf(xmlSafe(data));
      // The template's bytes are named by their SHA-256, so a layout never goes stale.
      const layoutKey = `${template.sha256}\n${shape.key}`;
      const known = layouts.get(layoutKey);
      if (known) return rendered(template, fillLayout(known, shape.lines));
      if (unfinished >= capacity) throw new RendererUnavailableError('render queue is full');
      pool ??= new Piscina({
        ...workerStartOptions(worker),
        // Threads start as documents wait for one and end after a quiet spell: each holds 25–35 MiB
        // (the renderer, its parsed templates, its heap), which an idle server then gives back.
        minThreads: 0,
        maxThreads: threads,
        idleTimeout: THREAD_IDLE_TIMEOUT_MS,
      });
      const threadPool = pool;
      let outcome: RenderOutcome;
      unfinished++;
      try {
        // A worker that crashes rejects its task and is replaced by the pool; one that hangs is
        // ended by the abort. Either way only this document fails. The task names the template
        // version by its SHA-256 only: each thread keeps the parsed form of the versions it rendered,
        // and a thread that does not hold this one answers so, and is asked again with its bytes.
        const signal = AbortSignal.timeout(taskTimeoutMs);
        const run = (content?: Uint8Array) =>
          threadPool.run({ template: { sha256: template.sha256, content }, data }, { signal });
        outcome = await run();
        if (!outcome.ok && 'templateNeeded' in outcome) outcome = await run(template.content);
      } catch (error) {
        throw new RendererUnavailableError(`render pool: ${(error as Error).message}`, { cause: error });
      } finally {
        unfinished--;
      }
      if (!outcome.ok && 'templateNeeded' in outcome) {
        // A thread given the bytes always takes them; this would be a worker module that does not.
        throw new RendererUnavailableError('render pool: the thread did not take the template it was given');
      }
      if (!outcome.ok) throw new TemplateError(template.name, outcome.problems, template.sha256);
      if ('content' in outcome) return rendered(template, outcome.content);
      const entries = readTemplateZip(template.content);
      // The thread made a layout of the same bytes, whose zip it read the same way.
      if (!entries)
        throw new RendererUnavailableError('render pool: a layout of a template whose zip is unreadable');
      const layout = prepareLayout(outcome.layout, entries);
      // Kept only under the SHA-256 of the bytes it was made of, as the threads keep parsed templates:
      // bytes that do not match their name are filled this once and never serve another document.
      if (sha256Hex(template.content) === template.sha256) layouts.set(layoutKey, layout);
      return rendered(template, fillLayout(layout, shape.lines));
    },
    pending: () => unfinished,
    closed: () => closed,
    async close() {
      closed = true;
      await pool?.destroy();
    },
  };
}
