import type { Readiness } from '@vertragsgenerator/domain';
import type { Db } from '../db/database.js';
import { waitingMail } from '../mail/mail-outbox.js';
import type { Renderer } from '../templates/renderer.js';

/** The server's own phase: no requests before it is ready, none new once it drains for a stop. */
export type ServerPhase = 'starting' | 'serving' | 'draining';

/** A check that hangs (a database that does not answer) must not hang the probe. */
const CHECK_TIMEOUT_MS = 2_000;

export class ServerLifecycle {
  phase: ServerPhase = 'starting';
}

export interface ReadinessSources {
  db: Db;
  renderer: Renderer;
  lifecycle: ServerLifecycle;
}

/**
 * What GET /backend/ready reports: the phase, the database, the render threads and the mail outbox.
 * Ready only while serving with the database up and the renderer taking documents.
 */
export async function checkReadiness({ db, renderer, lifecycle }: ReadinessSources): Promise<Readiness> {
  const outbox = await withTimeout(waitingMail(db));
  // The outbox query reads the database: if it answered, so does the database.
  const databaseUp = outbox !== undefined;
  const rendererUp = !renderer.closed();
  const status =
    lifecycle.phase === 'starting'
      ? 'starting'
      : lifecycle.phase === 'draining'
        ? 'draining'
        : databaseUp && rendererUp
          ? 'ready'
          : 'degraded';
  return {
    status,
    database: databaseUp ? 'up' : 'down',
    renderer: { status: rendererUp ? 'up' : 'closed', pending: renderer.pending() },
    outbox: outbox
      ? { status: 'up', waiting: outbox.waiting, oldestWaitingSeconds: outbox.oldestSeconds }
      : { status: 'unknown' },
  };
}

/** The value, or undefined when it failed or took longer than the probe may wait. */
async function withTimeout<T>(promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise.catch(() => undefined), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
