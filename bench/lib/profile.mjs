import { Session } from 'node:inspector/promises';

/** CPU profile of this process's main thread (the in-process server's event loop) while `work` runs. */
export async function profileMainThread(work) {
  const session = new Session();
  session.connect();
  let profile;
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 500 });
    await session.post('Profiler.start');
    try {
      await work();
    } finally {
      ({ profile } = await session.post('Profiler.stop'));
    }
  } finally {
    session.disconnect();
  }

  return summarizeProfile(profile);
}

/**
 * Self time of a V8 CPU profile (the inspector's, or a `--cpu-prof` file) per origin of the code and
 * per function, as shares of the busy samples; `idleShare` is the time the thread waited.
 *
 * @returns {{ busyMs: number, idleShare: number, groups: { name: string, share: number }[],
 *   functions: { name: string, share: number }[] }}
 */
export function summarizeProfile(profile) {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // The benchmark's own work in this thread (the profiler, starting the load generator) is not the server's.
  const ofBenchmark = (id) => {
    for (let at = id; at !== undefined; at = parents.get(at)) {
      const { url } = nodes.get(at).callFrame;
      if (url === 'node:inspector' || url.includes('/bench/')) return true;
    }
    return false;
  };
  const selfTime = new Map();
  profile.samples.forEach((id, i) => {
    if (!ofBenchmark(id)) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });

  let idle = 0;
  let busy = 0;
  const groups = new Map();
  const functions = new Map();
  for (const [id, time] of selfTime) {
    const { callFrame } = nodes.get(id);
    if (callFrame.functionName === '(idle)') {
      idle += time;
      continue;
    }
    busy += time;
    // A native function (a socket write, a hash) counts for the JavaScript that called it.
    let origin = originOf(callFrame);
    for (let at = parents.get(id); origin === 'native' && at !== undefined; at = parents.get(at)) {
      origin = originOf(nodes.get(at).callFrame);
    }
    groups.set(origin, (groups.get(origin) ?? 0) + time);
    const name = `${callFrame.functionName || '(anonymous)'} (${origin})`;
    functions.set(name, (functions.get(name) ?? 0) + time);
  }
  const shares = (map) =>
    [...map].map(([name, time]) => ({ name, share: time / busy })).sort((a, b) => b.share - a.share);
  return {
    busyMs: busy / 1000,
    idleShare: idle / (idle + busy),
    groups: shares(groups),
    functions: shares(functions),
  };
}

/** Where a function comes from: a package, our server, Node.js itself, or V8. */
function originOf({ url, functionName }) {
  if (!url) return functionName.startsWith('(') ? functionName.slice(1, -1) : 'native';
  if (url.startsWith('wasm://')) return 'WebAssembly (PGlite)';
  if (url.startsWith('node:')) return 'Node.js core';
  const packageAt = url.lastIndexOf('/node_modules/');
  if (packageAt !== -1) {
    const [scope, name] = url.slice(packageAt + '/node_modules/'.length).split('/');
    return scope.startsWith('@') ? `${scope}/${name}` : scope;
  }
  if (url.includes('/apps/server/dist/')) return 'server code';
  if (url.includes('/packages/domain/')) return 'domain package';
  return url;
}
