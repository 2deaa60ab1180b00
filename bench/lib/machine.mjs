import { readFileSync } from 'node:fs';
import os from 'node:os';

/** What the figures were measured on: they only compare within one run on one machine. */
export function machineInfo() {
  return {
    date: new Date(),
    cpu: cpuModel(),
    cores: os.availableParallelism(),
    memoryGb: os.totalmem() / 1024 ** 3,
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadAverage: os.loadavg(),
  };
}

function cpuModel() {
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('model name'));
    if (line) return line.slice(line.indexOf(':') + 1).trim();
  } catch {
    // not Linux: os.cpus() below
  }
  return os.cpus()[0]?.model ?? 'unknown';
}

/** One line for docs/performance.md and the console. */
export function describeMachine(machine) {
  const load = machine.loadAverage.map((l) => l.toFixed(2)).join(' / ');
  return (
    `${machine.date.toISOString().slice(0, 16).replace('T', ' ')} UTC · CPU ${machine.cpu}, ` +
    `${machine.cores} cores, ${machine.memoryGb.toFixed(1)} GB · Node ${machine.node} · ${machine.os} · ` +
    `load average at start ${load}`
  );
}

/** Machine-wide and own CPU time so far, to tell afterwards how busy other processes kept the machine. */
export function cpuSnapshot() {
  let busy = Number.NaN;
  let total = Number.NaN;
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    busy = user + nice + system + irq + softirq + steal;
    total = busy + idle + iowait;
  } catch {
    // not Linux: no figure
  }
  const own = process.cpuUsage();
  return { busy, total, ownMicros: own.user + own.system, at: performance.now() };
}

/**
 * Share of all cores' time that other processes used between two snapshots (`/proc/stat` counts in
 * clock ticks of 10 ms), e.g. 0.05: the figures of a run with a high share deserve less trust.
 */
export function othersShare(start, end) {
  const ticks = 100;
  const elapsedTicks = end.total - start.total;
  const ownTicks = ((end.ownMicros - start.ownMicros) / 1e6) * ticks;
  return Math.max(0, (end.busy - start.busy - ownTicks) / elapsedTicks);
}
