import type { FastifyInstance } from 'fastify';

/** How often queued work (mail, seals, reminders) is looked for. */
export const OUTBOX_INTERVAL_MS = 30_000;
/** How often expired state is dropped and archive timestamps are renewed. */
export const HOUSEKEEPING_INTERVAL_MS = 60 * 60_000;

export interface BackgroundJob {
  every: number;
  run: () => Promise<unknown>;
}

/** Periodic work runs while the server is up: queued mail goes out, expired sign-in state is dropped. */
export function scheduleBackgroundJobs(app: FastifyInstance, jobs: BackgroundJob[]) {
  const timers: NodeJS.Timeout[] = [];
  app.addHook('onReady', async () => {
    for (const job of jobs) {
      const timer = setInterval(() => {
        job.run().catch((error) => app.log.warn({ err: error }, 'background job failed'));
      }, job.every);
      timer.unref();
      timers.push(timer);
    }
  });
  app.addHook('onClose', async () => {
    for (const timer of timers) clearInterval(timer);
  });
}
