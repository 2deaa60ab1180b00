/**
 * Resolves in a new task, so that the browser may paint and handle input in between. A message, not
 * setTimeout: nested timers wait at least 4 ms each, and reading a file in steps nests many.
 */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
