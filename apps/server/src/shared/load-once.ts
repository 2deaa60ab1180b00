/**
 * `load` started by the first call, its promise shared by every later one: code, a certificate or a
 * discovery document that a start does not wait for. A failed attempt is forgotten, so the next call
 * tries again (a database or a network that was away).
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () => {
    loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
}
