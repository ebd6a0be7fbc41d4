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

  /**
   * As seal, for a value kept as one string (an upload in Redis): the plain text given in parts, the
   * result the nonce, the ciphertext and its tag in one buffer. Ciphered 1 MiB at a time into that
   * buffer: a 20 MB upload costs one copy of itself, not three.
   */
  sealParts(additionalData: string, parts: readonly Uint8Array[]): Buffer {
    const sealing = this.sealing(additionalData, parts);
    let step = sealing.next();
    while (!step.done) step = sealing.next();
    return step.value;
  }

  /**
   * sealParts, one 1 MiB slice per turn of the event loop: a gateway seals a 20 MB upload without
   * holding its loop (one call took 60–130 ms for 8.8 MB, issue 32).
   */
  async sealPartsInTurns(additionalData: string, parts: readonly Uint8Array[]): Promise<Buffer> {
    const sealing = this.sealing(additionalData, parts);
    let step = sealing.next();
    while (!step.done) {
      await new Promise((resolve) => setImmediate(resolve));
      step = sealing.next();
    }
    return step.value;
  }

  /** The sealing, a slice at a time: yields after each slice, returns nonce, ciphertext and tag in one buffer. */
  private *sealing(additionalData: string, parts: readonly Uint8Array[]): Generator<void, Buffer, void> {
    const nonce = randomBytes(NONCE_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(additionalData, 'utf8'));
    const length = parts.reduce((n, p) => n + p.byteLength, 0);
    const out = Buffer.allocUnsafeSlow(NONCE_BYTES + length + TAG_BYTES);
    nonce.copy(out, 0);
    let at = NONCE_BYTES;
    for (const part of parts)
      for (let offset = 0; offset < part.byteLength; offset += SLICE_BYTES) {
        at += cipher.update(part.subarray(offset, offset + SLICE_BYTES)).copy(out, at);
        yield;
      }
    at += cipher.final().copy(out, at);
    cipher.getAuthTag().copy(out, at);
    return out;
  }

  /** Opens what sealParts made (one buffer of its own); throws as open does, or when it is truncated. */
  openSealed(additionalData: string, stored: Uint8Array): Buffer {
    if (stored.byteLength < NONCE_BYTES + TAG_BYTES) throw new Error('the sealed value is truncated');
    const bytes = Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength);
    const body = bytes.subarray(NONCE_BYTES, bytes.length - TAG_BYTES);
    const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, NONCE_BYTES));
    decipher.setAAD(Buffer.from(additionalData, 'utf8'));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    const out = Buffer.allocUnsafeSlow(body.length);
    let at = 0;
    for (let offset = 0; offset < body.length; offset += SLICE_BYTES)
      at += decipher.update(body.subarray(offset, offset + SLICE_BYTES)).copy(out, at);
    decipher.final();
    return out;
  }
}

const NONCE_BYTES = 12;
const TAG_BYTES = 16;
const SLICE_BYTES = 1 << 20;
