/**
 * A piscina task that does no work: receives the template data, answers bytes the size of a rendered
 * document. Its round trip is what the thread hop alone costs (message copying included).
 */
export default function hop({ size }) {
  return { ok: true, content: new Uint8Array(size) };
}
