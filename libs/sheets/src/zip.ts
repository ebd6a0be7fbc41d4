import { Inflate } from 'fflate';
import { RequestError } from '@ppfile/rules';
import { unreadable, type ReadBudget } from './unreadable';

/** One entry of a zip's central directory: what it claims before anything is inflated. */
export interface ZipEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
/**
 * Compressed bytes handed to the inflater at a time: one push yields at most ~1,032 times this
 * (8 MiB), the most a lying entry inflates before it is stopped; smaller slices cost time in
 * fflate's buffer handling.
 */
const SLICE = 8192;

/**
 * A zip archive held in memory (an upload of at most 20 MB), read through its central directory.
 * The directory is checked before any entry is inflated — its claimed sizes together must stay
 * within the budget, no entry is encrypted, zip64 or of an unknown method — and every entry is
 * inflated in slices whose output is counted, so that an entry lying about its size is stopped as
 * soon as it passes its claim (a zip bomb never expands in memory past the bound).
 */
export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();

  constructor(
    private readonly bytes: Buffer,
    private readonly budget: ReadBudget,
  ) {
    const lang = budget.lang;
    const corrupt = () => unreadable('corrupt_zip', lang);
    const eocd = findEndOfCentralDirectory(bytes);
    if (eocd < 0) throw corrupt();
    const count = bytes.readUInt16LE(eocd + 10);
    const size = bytes.readUInt32LE(eocd + 12);
    const offset = bytes.readUInt32LE(eocd + 16);
    if (count === 0xffff || offset === 0xffffffff) throw unreadable('not_xlsx', lang);
    if (count > budget.limits.maxEntries) throw unreadable('not_xlsx', lang);
    if (offset + size > eocd) throw corrupt();
    let claimed = 0;
    let p = offset;
    for (let i = 0; i < count; i++) {
      if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL) throw corrupt();
      const flags = bytes.readUInt16LE(p + 8);
      const method = bytes.readUInt16LE(p + 10);
      const compressedSize = bytes.readUInt32LE(p + 20);
      const uncompressedSize = bytes.readUInt32LE(p + 24);
      const nameLength = bytes.readUInt16LE(p + 28);
      const extraLength = bytes.readUInt16LE(p + 30);
      const commentLength = bytes.readUInt16LE(p + 32);
      const localHeaderOffset = bytes.readUInt32LE(p + 42);
      const name = bytes.toString('utf8', p + 46, p + 46 + nameLength);
      p += 46 + nameLength + extraLength + commentLength;
      if (flags & 1) throw unreadable('encrypted', lang);
      if (uncompressedSize === 0xffffffff || compressedSize === 0xffffffff) {
        throw unreadable('too_large_expanded', lang);
      }
      if (method !== STORED && method !== DEFLATED) throw unreadable('not_xlsx', lang);
      claimed += uncompressedSize;
      // The sum of the claims is checked here, before anything is inflated (API.md §14).
      if (claimed > budget.limits.maxExpandedBytes) throw unreadable('too_large_expanded', lang);
      const key = name.toLowerCase();
      if (!this.entries.has(key)) {
        this.entries.set(key, { name, method, compressedSize, uncompressedSize, localHeaderOffset });
      }
    }
  }

  /** Part names are case-insensitive in a workbook package (ECMA-376 part 2, §9.1.1). */
  has(name: string): boolean {
    return this.entries.has(name.toLowerCase());
  }

  names(): string[] {
    return [...this.entries.values()].map((e) => e.name);
  }

  /**
   * Inflates an entry piece by piece into `sink`, counting each piece against the budget and the
   * entry's own claim. Returns false when the archive has no such entry.
   */
  read(name: string, sink: (chunk: Uint8Array) => void): boolean {
    const entry = this.entries.get(name.toLowerCase());
    if (!entry) return false;
    const lang = this.budget.lang;
    const corrupt = () => unreadable('corrupt_zip', lang);
    const p = entry.localHeaderOffset;
    if (p + 30 > this.bytes.length || this.bytes.readUInt32LE(p) !== LOCAL) throw corrupt();
    const start = p + 30 + this.bytes.readUInt16LE(p + 26) + this.bytes.readUInt16LE(p + 28);
    const end = start + entry.compressedSize;
    if (end > this.bytes.length) throw corrupt();
    let produced = 0;
    // What the sink throws (a bound, or its reader stopping early) is its own, not a damaged zip.
    let fromSink: { error: unknown } | null = null;
    const take = (chunk: Uint8Array) => {
      produced += chunk.length;
      if (produced > entry.uncompressedSize) throw unreadable('too_large_expanded', lang);
      this.budget.inflated(chunk.length);
      if (chunk.length === 0) return;
      try {
        sink(chunk);
      } catch (error) {
        fromSink = { error };
        throw error;
      }
    };
    if (entry.method === STORED) {
      for (let i = start; i < end; i += SLICE) take(this.bytes.subarray(i, Math.min(i + SLICE, end)));
      return true;
    }
    const inflater = new Inflate((chunk) => take(chunk));
    try {
      for (let i = start; i < end; i += SLICE) {
        const stop = Math.min(i + SLICE, end);
        inflater.push(this.bytes.subarray(i, stop), stop === end);
      }
      if (start === end) inflater.push(new Uint8Array(0), true);
    } catch (e) {
      if (e instanceof RequestError || (fromSink !== null && (fromSink as { error: unknown }).error === e)) {
        throw e;
      }
      throw corrupt();
    }
    return true;
  }

  /** A whole (small) part as text: workbook, relationships, styles, content types. */
  text(name: string): string | null {
    const decoder = new TextDecoder('utf-8');
    let out = '';
    const found = this.read(name, (chunk) => (out += decoder.decode(chunk, { stream: true })));
    return found ? out + decoder.decode() : null;
  }
}

/**
 * What an upload expands to, known before any work and without inflating anything: for a zip, the
 * sizes its central directory claims, all entries together (an entry that inflates past its claim
 * is stopped there: ZipArchive.read); for anything else, its own size. A directory that cannot be
 * read counts as large (the reader then refuses it, wherever it runs).
 */
export function expandedSize(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 4 || buf.readUInt32LE(0) !== LOCAL) return buf.length;
  const eocd = findEndOfCentralDirectory(buf);
  if (eocd < 0) return Number.MAX_SAFE_INTEGER;
  const count = buf.readUInt16LE(eocd + 10);
  let total = 0;
  let p = buf.readUInt32LE(eocd + 16);
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL) return Number.MAX_SAFE_INTEGER;
    total += buf.readUInt32LE(p + 24);
    p += 46 + buf.readUInt16LE(p + 28) + buf.readUInt16LE(p + 30) + buf.readUInt16LE(p + 32);
  }
  return total;
}

/** The end-of-central-directory record: the last 22 bytes, or before a comment of up to 64 KiB. */
function findEndOfCentralDirectory(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
