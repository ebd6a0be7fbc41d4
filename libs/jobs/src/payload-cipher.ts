import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { SealedPayload } from '@ppfile/db';

/**
 * AES-256-GCM for the request bodies kept until their job ends (API.md §8, PAYLOAD_ENCRYPTION_KEY):
 * they hold NIRs and names, and the database is not trusted with them in clear. The file id is the
 * additional data, so a sealed body opens only for its own file.
 */
export class PayloadCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new RangeError('the payload encryption key must be 32 bytes');
  }

  seal(fileId: string, plain: Buffer): SealedPayload {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(fileId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    return { nonce, ciphertext };
  }

  /** Throws when the bytes were altered, belong to another file or were sealed under another key. */
  open(fileId: string, sealed: SealedPayload): Buffer {
    const body = sealed.ciphertext.subarray(0, sealed.ciphertext.length - 16);
    const tag = sealed.ciphertext.subarray(sealed.ciphertext.length - 16);
    const decipher = createDecipheriv('aes-256-gcm', this.key, sealed.nonce);
    decipher.setAAD(Buffer.from(fileId, 'utf8'));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]);
  }
}
