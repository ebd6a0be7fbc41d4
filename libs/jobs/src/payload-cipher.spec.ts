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
});
