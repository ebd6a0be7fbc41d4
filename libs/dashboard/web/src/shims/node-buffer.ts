/**
 * `node:buffer` in the browser: the `buffer` package's Buffer, with its UTF-8 made Node's. The
 * package decodes invalid UTF-8 into a different number of U+FFFD than Node does, and counts and
 * writes UTF-8 one code point at a time in JavaScript; the page's results must be the API's to the
 * byte (issue 36), so UTF-8 goes through TextDecoder and TextEncoder, which follow the WHATWG
 * Encoding standard as Node's Buffer does (maximal subparts replaced, lone surrogates as U+FFFD).
 * Latin-1, UTF-16LE and hex are the package's and equal Node's.
 */
// 'buffer/' is the npm package even where Node's own 'buffer' module exists (its unit test runs in Node).
import { Buffer } from 'buffer/';

export { Buffer };

/** Node's toString keeps a byte-order mark as U+FEFF: ignoreBOM keeps it too. */
const utf8Decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
const utf8Encoder = new TextEncoder();

const isUtf8Name = (encoding: unknown): boolean =>
  encoding === undefined ||
  (typeof encoding === 'string' && (encoding === 'utf8' || /^utf-?8$/i.test(encoding)));

/** Node's `buffer.isUtf8`: whether the bytes are valid UTF-8 (an empty input is). */
export function isUtf8(input: ArrayBuffer | ArrayBufferView): boolean {
  try {
    strictUtf8.decode(input);
    return true;
  } catch {
    return false;
  }
}

interface PatchedBuffer {
  toString(encoding?: string, start?: number, end?: number): string;
  write(string: string, offset?: number | string, length?: number | string, encoding?: string): number;
}

const proto = Buffer.prototype as unknown as PatchedBuffer & Uint8Array;
type Method<R> = (this: Uint8Array, ...args: unknown[]) => R;
// Read off the prototype to be called with `.call(this, …)`, as the package's own methods.
const originalToString = Reflect.get(proto, 'toString') as Method<string>;
const originalWrite = Reflect.get(proto, 'write') as Method<number>;
const originalByteLength = Buffer.byteLength.bind(Buffer);
const originalFrom = Buffer.from.bind(Buffer) as (...args: unknown[]) => Buffer;

proto.toString = function toString(
  this: Uint8Array,
  encoding?: string,
  start?: number,
  end?: number,
): string {
  if (!isUtf8Name(encoding)) return originalToString.call(this, encoding, start, end);
  // Node's bounds: start below 0 or absent is 0, end past the length or absent is the length.
  const from = start === undefined || start < 0 ? 0 : Math.min(start >>> 0, this.length);
  const to = end === undefined || end > this.length ? this.length : end <= 0 ? 0 : end >>> 0;
  if (to <= from) return '';
  return utf8Decoder.decode(this.subarray(from, to));
};

proto.write = function write(
  this: Uint8Array,
  string: string,
  offset?: number | string,
  length?: number | string,
  encoding?: string,
): number {
  // Node's signatures: write(s), write(s, encoding), write(s, offset, encoding), write(s, offset, length, encoding).
  let at = 0;
  let max = this.length;
  let enc = encoding;
  if (typeof offset === 'string') enc = offset;
  else if (offset !== undefined) {
    at = offset >>> 0;
    if (typeof length === 'string') enc = length;
    else if (length !== undefined) max = Math.min(this.length, at + (length >>> 0));
  }
  if (!isUtf8Name(enc)) return originalWrite.call(this, string, offset, length, encoding);
  if (at > this.length) throw new RangeError('The value of "offset" is out of range.');
  // encodeInto writes whole characters only, as Node does when the room runs out.
  return utf8Encoder.encodeInto(string, this.subarray(at, max)).written;
};

Buffer.byteLength = function byteLength(string: unknown, encoding?: unknown): number {
  if (typeof string === 'string' && isUtf8Name(encoding)) return utf8Length(string);
  return originalByteLength(string as string, encoding as BufferEncoding);
};

Buffer.from = function from(value: unknown, encodingOrOffset?: unknown, length?: unknown): Buffer {
  if (typeof value === 'string' && isUtf8Name(encodingOrOffset)) {
    const bytes = utf8Encoder.encode(value);
    return originalFrom(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return originalFrom(value, encodingOrOffset, length);
} as typeof Buffer.from;

/** UTF-8 length of a string, a lone surrogate counting as U+FFFD's three bytes (as Node counts it). */
function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        // A pair: two UTF-16 units, four bytes.
        n += 2;
        i++;
      } else n += 2;
    } else n += 2;
  }
  return n;
}
