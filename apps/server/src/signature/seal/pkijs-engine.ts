import { webcrypto } from 'node:crypto';
import type * as Pkijs from 'pkijs';

type EngineCrypto = ConstructorParameters<typeof Pkijs.CryptoEngine>[0]['crypto'];

let loaded: Promise<typeof Pkijs> | undefined;

/**
 * pkijs with Node's Web Crypto (the interface browsers give it), loaded when a seal is first made or
 * checked, not at start: the server's memory at start has a budget.
 */
export function pkijsWithEngine(): Promise<typeof Pkijs> {
  loaded ??= import('pkijs').then((pkijs) => {
    const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as EngineCrypto });
    // Node 26's types give SubtleCrypto the ML-KEM methods (encapsulateKey, …), which pkijs's engine,
    // written against an older SubtleCrypto, does not declare; it never calls them.
    pkijs.setEngine('node', engine as unknown as Parameters<typeof pkijs.setEngine>[1]);
    return pkijs;
  });
  return loaded;
}

/** The bytes of a view as an ArrayBuffer of their own, as pkijs and asn1js take them. */
export function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
