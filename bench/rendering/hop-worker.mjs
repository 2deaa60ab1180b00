import { move, transferableSymbol, valueSymbol } from 'piscina';

/**
 * A piscina task that does no work: receives the template data, answers bytes the size of a rendered
 * document, transferred as the render worker transfers its document. Its round trip is what the
 * thread hop alone costs.
 */
export default function hop({ size }) {
  const content = new Uint8Array(size);
  return move({ [transferableSymbol]: content.buffer, [valueSymbol]: { ok: true, content } });
}
