// Preloaded into a measured server process (`node --import`; worker threads inherit it). Not part of
// the product. It answers two kinds of questions:
// - over the IPC channel (a server started with `ipc`): `'memory'` → the main thread's
//   `process.memoryUsage()`, without keeping the process alive for that channel;
// - with MEMORY_PROBE_DIR set, on SIGUSR2: every thread writes its V8 heap and the memory it holds
//   outside it (WebAssembly, buffers) to a file of its own there, so the benchmark can say where the
//   resident memory goes. Threads waiting in Atomics.wait (piscina's render threads) do not hear it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapStatistics } from 'node:v8';
import { BroadcastChannel, isMainThread, threadId } from 'node:worker_threads';

if (isMainThread && process.send) {
  process.on('message', (message) => {
    if (message === 'memory') process.send({ memory: process.memoryUsage() });
  });
  // After the listener: adding it takes a reference on the channel.
  process.channel?.unref();
}

const directory = process.env.MEMORY_PROBE_DIR;
if (directory) {
  const channel = new BroadcastChannel('memory-probe');
  // The channel must not keep a thread alive that would otherwise end.
  channel.unref();
  const report = (reading) => {
    const { external } = process.memoryUsage();
    writeFileSync(
      join(directory, `${reading}-${threadId}.json`),
      JSON.stringify({
        threadId,
        main: isMainThread,
        heapBytes: getHeapStatistics().total_heap_size,
        externalBytes: external,
      }),
    );
  };
  channel.onmessage = ({ data }) => report(data);
  if (isMainThread) {
    process.on('SIGUSR2', () => {
      const reading = String(Date.now());
      // A channel does not deliver its own messages to itself.
      report(reading);
      channel.postMessage(reading);
    });
  }
}
