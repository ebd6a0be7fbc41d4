import { Buffer as NodeBuffer, isUtf8 as nodeIsUtf8 } from 'node:buffer';
import { Buffer as Shim, isUtf8 } from './node-buffer';

/** Deterministic bytes (a linear congruential generator): the same cases on every run. */
function randomBytes(seed: number, length: number, alphabet?: readonly number[]): Uint8Array {
  let s = seed >>> 0;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = alphabet ? alphabet[s % alphabet.length]! : s >>> 24;
  }
  return out;
}

/** Bytes around UTF-8's edges: lead bytes of every length, continuations, bytes that start nothing. */
const EDGES = [
  0x41, 0x0a, 0x7f, 0x80, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xa0, 0xed, 0x9f, 0xef, 0xf0, 0x90, 0xf4,
  0x8f, 0xf5, 0xff, 0xa9, 0xe9,
];

const CASES: Uint8Array[] = [
  Uint8Array.of(0xef, 0xbb, 0xbf, 0x41),
  Uint8Array.of(0xc3),
  Uint8Array.of(0xe2, 0x82),
  Uint8Array.of(0xf0, 0x9f, 0x98),
  Uint8Array.of(0xed, 0xa0, 0x80),
  Uint8Array.of(0xc0, 0xaf),
  Uint8Array.of(0xf4, 0x90, 0x80, 0x80),
  Uint8Array.of(0x63, 0x61, 0x66, 0xe9, 0x0a, 0x63, 0x61, 0x66, 0xc3, 0xa9),
  ...Array.from({ length: 300 }, (_, i) => randomBytes(i + 1, 1 + (i % 40), EDGES)),
  ...Array.from({ length: 50 }, (_, i) => randomBytes(i + 1000, 200)),
];

const STRINGS = [
  '',
  'ascii',
  'café Œuvre €',
  '😀 emoji',
  'lone \ud800 high',
  'lone \udc00 low',
  'end \ud83d',
  '\udc00\ud800',
  '\ufeffBOM',
  'NUL\u0000',
];

describe('the browser Buffer (node:buffer shim) against Node', () => {
  it('decodes UTF-8 — valid or not — as Node does', () => {
    for (const bytes of CASES) {
      expect(Shim.from(bytes).toString('utf8')).toBe(NodeBuffer.from(bytes).toString('utf8'));
      expect(Shim.from(bytes).toString()).toBe(NodeBuffer.from(bytes).toString());
      expect(Shim.from(bytes).toString('utf-8', 1, 5)).toBe(NodeBuffer.from(bytes).toString('utf-8', 1, 5));
    }
  });

  it('says which bytes are UTF-8 as Node does', () => {
    for (const bytes of CASES) expect(isUtf8(bytes)).toBe(nodeIsUtf8(bytes));
    expect(isUtf8(new Uint8Array(0))).toBe(true);
  });

  it('decodes Latin-1, UTF-16LE and hex as Node does', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    for (const encoding of ['latin1', 'binary', 'utf16le', 'hex', 'ascii'] as const)
      expect(Shim.from(all).toString(encoding)).toBe(NodeBuffer.from(all).toString(encoding));
  });

  it('encodes and counts UTF-8 as Node does, lone surrogates as U+FFFD', () => {
    for (const s of STRINGS) {
      expect(Shim.byteLength(s)).toBe(NodeBuffer.byteLength(s));
      expect(Shim.byteLength(s, 'utf8')).toBe(NodeBuffer.byteLength(s, 'utf8'));
      expect([...Shim.from(s)]).toEqual([...NodeBuffer.from(s)]);
      expect([...Shim.from(s, 'utf8')]).toEqual([...NodeBuffer.from(s, 'utf8')]);
      expect(Shim.byteLength(s, 'latin1')).toBe(NodeBuffer.byteLength(s, 'latin1'));
    }
  });

  it('writes UTF-8 as Node does, whole characters only when the room runs out', () => {
    for (const s of STRINGS) {
      for (const room of [0, 1, 2, 3, 5, 40]) {
        const a = Shim.alloc(room + 2);
        const b = NodeBuffer.alloc(room + 2);
        expect(a.write(s, 2, room, 'utf8')).toBe(b.write(s, 2, room, 'utf8'));
        expect([...a]).toEqual([...b]);
        expect(Shim.alloc(room).write(s)).toBe(NodeBuffer.alloc(room).write(s));
      }
    }
  });

  it('keeps the package Buffer for the rest (concat, subarray, indexOf, readUInt32LE)', () => {
    const bytes = randomBytes(7, 64);
    const a = Shim.concat([Shim.from(bytes), Shim.from(bytes.subarray(0, 10))]);
    const b = NodeBuffer.concat([NodeBuffer.from(bytes), NodeBuffer.from(bytes.subarray(0, 10))]);
    expect([...a]).toEqual([...b]);
    expect(Shim.isBuffer(a.subarray(3))).toBe(true);
    expect(a.indexOf(bytes[9]!)).toBe(b.indexOf(bytes[9]!));
    expect(a.readUInt32LE(4)).toBe(b.readUInt32LE(4));
  });
});
