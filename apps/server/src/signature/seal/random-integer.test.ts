import * as asn1js from 'asn1js';
import { describe, expect, it } from 'vitest';
import { randomPositiveInteger } from './random-integer.js';

describe('randomPositiveInteger', () => {
  it('always encodes as a minimal positive DER INTEGER of the asked length', () => {
    for (let i = 0; i < 2_000; i++) {
      const bytes = randomPositiveInteger(8);
      expect(bytes).toHaveLength(8);
      const [first = 0] = bytes;
      // No sign bit, and not a zero that would pad the next byte.
      expect(first).toBeGreaterThanOrEqual(0x40);
      expect(first).toBeLessThan(0x80);
      const der = new asn1js.Integer({ valueHex: new Uint8Array(bytes).buffer }).toBER();
      expect(Buffer.from(der).subarray(2)).toEqual(bytes);
    }
  });
});
