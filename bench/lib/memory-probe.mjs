// Preloaded into the soak's server process (`node --import`): answers the benchmark's questions about
// the process's memory over the IPC channel, without keeping the process alive for that channel.
if (process.send) {
  process.on('message', (message) => {
    if (message === 'memory') process.send({ memory: process.memoryUsage() });
  });
  // After the listener: adding it takes a reference on the channel.
  process.channel?.unref();
}
