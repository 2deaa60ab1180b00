/**
 * Stands in for signature_pad (`vi.mock('signature_pad', () => import('@/test/untouched-signature-pad'))`)
 * where jsdom has no canvas to draw on and a test never draws: a pad nobody has signed on.
 */
export default class UntouchedSignaturePad {
  addEventListener() {}
  removeEventListener() {}
  off() {}
  clear() {}
  isEmpty() {
    return true;
  }
}
