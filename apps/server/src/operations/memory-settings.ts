/**
 * Two settings of the process that keep the server small, set by `npm start` and the image: without
 * them a server started as `node apps/server/dist/main.js` (a systemd unit) held 355–392 MiB through
 * the same flows instead of 268 MiB (docs/operations.md, Scaling). Node and glibc read them when the
 * process starts, so the server can only tell at start that they are missing: a warning in the log for
 * each, and the gauge `memory_setting_missing` (operations/metrics.ts). They are read from the process
 * itself, not from the configuration (config/): the server does not use them, Node and glibc do.
 */
export interface ProcessSettings {
  env: Readonly<Record<string, string | undefined>>;
  execArgv: readonly string[];
}

export interface MemorySetting {
  /** The metric's label and what the log names. */
  setting: 'MALLOC_MMAP_THRESHOLD_' | '--max-semi-space-size';
  /** What to set where the server starts. */
  set: string;
  /** What it does. */
  why: string;
  isSet(process: ProcessSettings): boolean;
}

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(=|$)/;

export const MEMORY_SETTINGS: readonly MemorySetting[] = [
  {
    setting: 'MALLOC_MMAP_THRESHOLD_',
    set: 'MALLOC_MMAP_THRESHOLD_=4194304',
    why: 'glibc gives freed blocks of 4 MiB and more back to the system',
    isSet: ({ env }) => Boolean(env.MALLOC_MMAP_THRESHOLD_),
  },
  {
    setting: '--max-semi-space-size',
    set: 'NODE_OPTIONS=--max-semi-space-size=2',
    why: "the main thread's young generation stays at 2 MB",
    // On the command line (`node --max-semi-space-size=2 …`) or in NODE_OPTIONS.
    isSet: ({ env, execArgv }) =>
      [...execArgv, ...(env.NODE_OPTIONS ?? '').split(/\s+/)].some((arg) => SEMI_SPACE_FLAG.test(arg)),
  },
];

/** The memory settings the process runs without. */
export function missingMemorySettings(settings: ProcessSettings = process): MemorySetting[] {
  return MEMORY_SETTINGS.filter((memorySetting) => !memorySetting.isSet(settings));
}

/** At start: one warning for each memory setting the process runs without. */
export function warnOfMissingMemorySettings(
  log: { warn(details: object, message: string): void },
  settings: ProcessSettings = process,
): void {
  for (const { setting, set, why } of missingMemorySettings(settings)) {
    log.warn(
      { setting, set },
      `memory setting missing: ${setting} is not set; set ${set} where the server starts, as npm start and the image do (${why}; without both the server holds about 90–120 MiB more)`,
    );
  }
}
