import { randomBytes } from 'node:crypto';
import { PayloadCipher } from './payload-cipher';

describe('PayloadCipher', () => {
  const cipher = new PayloadCipher(randomBytes(32));
  const body = Buffer.from(JSON.stringify({ nir: '180017512345678', birth_name: 'DUPONT' }));

  it('seals a body that only its own file and key open, and never holds it in clear', () => {
    const sealed = cipher.seal('file_a', body);
    expect(sealed.nonce).toHaveLength(12);
    expect(sealed.ciphertext.includes(Buffer.from('DUPONT'))).toBe(false);
    expect(sealed.ciphertext.includes(Buffer.from('180017512345678'))).toBe(false);
    expect(cipher.open('file_a', sealed).equals(body)).toBe(true);
    expect(() => cipher.open('file_b', sealed)).toThrow();
    expect(() => new PayloadCipher(randomBytes(32)).open('file_a', sealed)).toThrow();
  });

  it('refuses altered bytes and a key of the wrong size', () => {
    const sealed = cipher.seal('file_a', body);
    const altered = Buffer.from(sealed.ciphertext);
    altered[0] = altered[0]! ^ 1;
    expect(() => cipher.open('file_a', { nonce: sealed.nonce, ciphertext: altered })).toThrow();
    expect(() => new PayloadCipher(randomBytes(16))).toThrow(RangeError);
  });

  it('draws a new nonce each time', () => {
    expect(cipher.seal('file_a', body).nonce.equals(cipher.seal('file_a', body).nonce)).toBe(false);
  });

  it('seals parts into one buffer (nonce, ciphertext, tag) that openSealed opens, across 1 MiB slices', () => {
    const large = randomBytes(3 * (1 << 20) + 5);
    const parts = [Buffer.from('head'), large.subarray(0, 1 << 20), large.subarray(1 << 20)];
    const stored = cipher.sealParts('bull:payload:validate:x', parts);
    expect(stored.length).toBe(12 + 4 + large.length + 16);
    const opened = cipher.openSealed('bull:payload:validate:x', stored);
    expect(opened.equals(Buffer.concat([Buffer.from('head'), large]))).toBe(true);
    // One buffer of its own: it can be handed to a thread without copying a shared pool.
    expect(opened.byteOffset).toBe(0);
    expect(opened.buffer.byteLength).toBe(opened.length);
    expect(() => cipher.openSealed('bull:payload:validate:y', stored)).toThrow();
    const altered = Buffer.from(stored);
    altered[2_000_000] = altered[2_000_000]! ^ 1;
    expect(() => cipher.openSealed('bull:payload:validate:x', altered)).toThrow();
    expect(() => cipher.openSealed('bull:payload:validate:x', stored.subarray(0, 27))).toThrow(/truncated/);
  });
});
