import render, { type RenderOutcome, type RenderTask } from '../templates/render-worker.js';

/** A value in the data that makes the worker thread die, as a native crash or an out-of-memory would. */
export const CRASH_MARKER = 'RENDER-WORKER-CRASH';
/** A value in the data that makes the worker thread block for good, as an endless loop would. */
export const HANG_MARKER = 'RENDER-WORKER-HANG';

/** The real render worker, failing on the markers above. */
export default async function faultyRender(task: RenderTask): Promise<RenderOutcome> {
  const data = JSON.stringify(task.data);
  if (data.includes(CRASH_MARKER)) process.exit(1);
  // Blocks the thread itself, not just a promise: only ending the thread stops it.
  if (data.includes(HANG_MARKER)) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  return render(task);
}
