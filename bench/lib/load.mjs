import { fork } from 'node:child_process';

/**
 * Runs one autocannon load in a child process and answers its result. The load generator then has its
 * own event loop and core time: in the bench process it would compete with the server it measures for
 * the same event loop, and every millisecond it spends parsing answers would count as server latency.
 *
 * @param {import('autocannon').Options} options JSON-serialisable autocannon options (no functions)
 * @returns {Promise<import('autocannon').Result>}
 */
export function runLoad(options) {
  return new Promise((resolve, reject) => {
    const child = fork(new URL('./load-child.mjs', import.meta.url), {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    let result;
    child.once('message', (message) => {
      result = message;
    });
    child.once('error', reject);
    child.once('exit', (code) => {
      if (result?.error) reject(new Error(`autocannon: ${result.error}`));
      else if (result) resolve(result.result);
      else reject(new Error(`the load generator exited with ${code} before answering`));
    });
    child.send(options);
  });
}

/** The figures the reports show of one autocannon result; 5xx and other non-2xx by status code. */
export function loadFigures(result) {
  const byStatus = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([status, { count }]) => [status, count]),
  );
  return {
    requests: result.requests.total,
    perSecond: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    serverErrors: result['5xx'],
    errors: result.errors,
    timeouts: result.timeouts,
    byStatus,
  };
}
