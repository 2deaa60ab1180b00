/**
 * The next frame has been painted: a link page's code, which runs for a good while at first, would
 * otherwise run before the early top its entry just put in (early-top.ts). A hidden tab paints no frame;
 * its page goes on at once.
 */
export function painted(): Promise<void> {
  if (document.visibilityState !== 'visible') return Promise.resolve();
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
}
