import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { BackupSchedule } from '../config/operations.js';

/** Only files of this pattern are counted and pruned: other files in the folder are left alone. */
const NAME = /^vertragsgenerator-(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z\.backup$/;

const fileName = (at: Date) =>
  `vertragsgenerator-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z')}.backup`;

/**
 * Writes a backup when the newest one in the folder is older than the interval (or there is none), then
 * keeps the newest `keep`. Deciding by the files, not by a timer since start, means a server that
 * restarts daily still backs up daily. Returns the file written, if any.
 */
export async function backupIfDue(
  write: (file: string) => Promise<unknown>,
  schedule: BackupSchedule,
  now: Date = new Date(),
): Promise<string | undefined> {
  await mkdir(schedule.dir, { recursive: true });
  const existing = await scheduledBackups(schedule.dir);
  const newest = existing.at(-1);
  if (newest && now.getTime() - newest.takenAt < schedule.everyHours * 3_600_000) return undefined;
  const file = join(schedule.dir, fileName(now));
  await write(file);
  const all = await scheduledBackups(schedule.dir);
  for (const old of all.slice(0, Math.max(0, all.length - schedule.keep))) {
    await rm(join(schedule.dir, old.name), { force: true });
  }
  return file;
}

/** Oldest first, by the time in their names (a copy or a restore from tape keeps it, unlike mtime). */
async function scheduledBackups(dir: string): Promise<{ name: string; takenAt: number }[]> {
  const files: { name: string; takenAt: number }[] = [];
  for (const name of await readdir(dir)) {
    const parts = NAME.exec(name);
    if (!parts) continue;
    const [, year, month, day, hour, minute, second] = parts.map(Number) as number[];
    files.push({ name, takenAt: Date.UTC(year ?? 0, (month ?? 1) - 1, day, hour, minute, second) });
  }
  return files.sort((a, b) => a.takenAt - b.takenAt);
}
