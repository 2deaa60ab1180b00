/**
 * What the server's leased background work shares (the mail outbox, the envelope sealer): runs that a
 * stop waits for, after which nothing new is leased, and the pause before a failed item is tried again.
 */
export class LeasedRuns {
  private readonly runs = new Set<Promise<unknown>>();
  private stopped = false;

  /** Whether a stop began: a run leases nothing more. */
  get stopping(): boolean {
    return this.stopped;
  }

  /** Keeps `run` until it settles, so that a stop can wait for it. */
  track<T>(run: Promise<T>): Promise<T> {
    this.runs.add(run);
    const forget = () => this.runs.delete(run);
    run.then(forget, forget);
    return run;
  }

  /**
   * Leases and handles one item after another until none is due or a stop began. Returns how many
   * `handle` reported done.
   */
  async eachLeased<T>(
    lease: () => Promise<T | undefined>,
    handle: (item: T) => Promise<boolean>,
  ): Promise<number> {
    let done = 0;
    for (;;) {
      if (this.stopped) return done;
      const item = await lease();
      if (!item) return done;
      if (await handle(item)) done++;
    }
  }

  /** Leases nothing more and waits for the runs under way to finish what they hold. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled(this.runs);
  }
}

const MAX_BACKOFF_SECONDS = 60 * 60;

/** 30 s after the first failed attempt, doubling with each further one, at most an hour. */
export function retryBackoffSeconds(attempts: number): number {
  return Math.min(30 * 2 ** (attempts - 1), MAX_BACKOFF_SECONDS);
}
