import { readdirSync, readFileSync } from 'node:fs';

/**
 * How busy other processes kept the machine while a batch ran, for a shared machine: all cores' busy
 * time (`/proc/stat`) less that of the processes of the measurement — this one, the server and, on
 * PostgreSQL, its postmaster and backends. Linux only; elsewhere no figure (NaN).
 */

/** utime + stime of a process (all its threads), in clock ticks; undefined once it is gone. */
function processTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) };
  } catch {
    return undefined;
  }
}

/** The PostgreSQL server listening on `port` (its command line says `-p <port>`) and its backends. */
function postgresPids(port) {
  const pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  const postmaster = pids.find((pid) => {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      return args.some((arg) => arg.endsWith('postgres')) && args.join(' ').includes(` -p ${port} `);
    } catch {
      return false;
    }
  });
  if (!postmaster) return [];
  return [
    Number(postmaster),
    ...pids.map(Number).filter((pid) => processTicks(pid)?.ppid === Number(postmaster)),
  ];
}

/** The machine's and the measurement's own CPU time now. */
export function cpuSample(serverPid, databaseUrl) {
  let busy = Number.NaN;
  let total = Number.NaN;
  const own = new Map();
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    busy = user + nice + system + irq + softirq + steal;
    total = busy + idle + iowait;
    const port = databaseUrl ? new URL(databaseUrl).port : undefined;
    for (const pid of [process.pid, serverPid, ...(port ? postgresPids(port) : [])]) {
      const ticks = processTicks(pid)?.ticks;
      if (ticks !== undefined) own.set(pid, ticks);
    }
  } catch {
    // not Linux: no figure
  }
  return { busy, total, own };
}

/**
 * The share of all cores' time that other processes used between two samples, e.g. 0.05. A process of
 * the measurement that began in between counts whole; one that ended in between is not known.
 */
export function othersShare(start, end) {
  let ownTicks = 0;
  for (const [pid, ticks] of end.own) ownTicks += ticks - (start.own.get(pid) ?? 0);
  return Math.max(0, (end.busy - start.busy - ownTicks) / (end.total - start.total));
}
