import { join } from 'node:path';
import type { TemplateData } from '@vertragsgenerator/domain';
import { Piscina } from 'piscina';
import type { RenderOutcome, RenderTask } from './render-worker.js';
import { formatProblem, type TemplateProblem } from './template-problems.js';

/** Turns a template file and its data into a DOCX (DESIGN §2). */
export interface Renderer {
  /** `templateFile` is a catalogue entry's file name under the templates folder. */
  render(templateFile: string, data: TemplateData): Promise<RenderedDocument>;
  close(): Promise<void>;
}

export interface RenderedDocument {
  content: Buffer;
  /** SHA-256 of the template file as rendered: a later edit of the file does not change history. */
  templateSha256: string;
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
  templatesDir: string;
  threads: number;
}

// A render takes tens of milliseconds: beyond this many waiting tasks per thread an answer would
// take seconds, and a quick 503 that the browser retries serves the user better.
const QUEUED_TASKS_PER_THREAD = 64;

/**
 * Renders in a piscina pool of worker threads. The pool starts with the first document, so processes
 * that never render (CLIs, most tests) start no threads.
 */
export function createRendererPool({ templatesDir, threads }: RendererPoolOptions): Renderer {
  let pool: Piscina<RenderTask, RenderOutcome> | undefined;
  let closed = false;

  return {
    async render(templateFile, data) {
      if (closed) throw new RendererUnavailableError('the renderer has been closed');
      pool ??= new Piscina({
        ...workerScript(),
        minThreads: threads,
        maxThreads: threads,
        maxQueue: threads * QUEUED_TASKS_PER_THREAD,
      });
      let outcome: RenderOutcome;
      try {
        outcome = await pool.run({ templatePath: join(templatesDir, templateFile), data });
      } catch (error) {
        throw new RendererUnavailableError(`render pool: ${(error as Error).message}`, { cause: error });
      }
      if (!outcome.ok) throw new TemplateError(templateFile, outcome.problems, outcome.templateSha256);
      const { content } = outcome;
      return {
        content: Buffer.from(content.buffer, content.byteOffset, content.byteLength),
        templateSha256: outcome.templateSha256,
      };
    },
    async close() {
      closed = true;
      await pool?.destroy();
    },
  };
}

/**
 * The compiled worker beside the compiled pool in production; under Vitest this module is the
 * TypeScript source, and its worker loads through tsx with the workspace's source condition.
 */
function workerScript(): { filename: string; execArgv?: string[] } {
  if (import.meta.url.endsWith('.ts')) {
    return {
      filename: new URL('./render-worker.ts', import.meta.url).href,
      execArgv: ['--conditions=source', '--import', 'tsx'],
    };
  }
  return { filename: new URL('./render-worker.js', import.meta.url).href };
}
