import { Inflate } from 'fflate';
import { RequestError } from '@ppfile/rules';
import { unreadable, type ReadBudget, type UnreadableReason } from './unreadable';

/** One entry of a zip's central directory: what it claims before anything is inflated. */
export interface ZipEntry {
  /** Its part name, `\` read as `/` (some Excel builds write `xl\worksheets\sheet1.xml`). */
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

const EOCD = 0x06054b50;
const ZIP64_EOCD = 0x06064b50;
const ZIP64_LOCATOR = 0x07064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const ZIP64_EXTRA = 0x0001;
const STORED = 0;
const DEFLATED = 8;
/**
 * The most deflate can expand: a match of 258 bytes in two bits, 1,032 bytes for one byte of
 * input. An entry claiming more than this of its compressed size is not a bomb but a damaged (or
 * forged) directory: no deflate stream can honour it.
 */
const DEFLATE_MAX_RATIO = 1032;
const DEFLATE_SLACK = 1024;
/**
 * Compressed bytes handed to the inflater at a time: one push yields at most ~1,032 times this
 * (8 MiB), the most a lying entry inflates before it is stopped; smaller slices cost time in
 * fflate's buffer handling.
 */
const SLICE = 8192;

/** A zip's central directory, or why it cannot be read as one. */
type Directory =
  | { ok: true; entries: ZipEntry[]; claimed: number }
  | { ok: false; reason: UnreadableReason; claimed?: number };

/**
 * Reads a zip's central directory (nothing is inflated): its entries and the sizes they claim in
 * all. Bounded by `maxEntries`; zip64 records and fields (which some writers use for small files
 * too) are read. A directory that cannot describe this file — past its end, or an entry claiming
 * more than deflate can expand its data to — is `corrupt_zip`, not a bomb: a bomb's directory
 * tells sizes that its data can honour (too_large_expanded, judged by the caller on `claimed`).
 */
function readDirectory(bytes: Buffer, maxEntries: number): Directory {
  const corrupt: Directory = { ok: false, reason: 'corrupt_zip' };
  const eocd = findEndOfCentralDirectory(bytes);
  if (eocd < 0) return corrupt;
  let count = bytes.readUInt16LE(eocd + 10);
  let size = bytes.readUInt32LE(eocd + 12);
  let offset = bytes.readUInt32LE(eocd + 16);
  let end = eocd;
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) {
    const zip64 = readZip64End(bytes, eocd);
    if (zip64 === null) return count === 0xffff ? { ok: false, reason: 'not_xlsx' } : corrupt;
    ({ count, size, offset, at: end } = zip64);
  }
  if (count > maxEntries) return { ok: false, reason: 'not_xlsx' };
  if (offset + size > end) return corrupt;
  const entries: ZipEntry[] = [];
  let claimed = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > bytes.length || bytes.readUInt32LE(p) !== CENTRAL) return corrupt;
    const flags = bytes.readUInt16LE(p + 8);
    const method = bytes.readUInt16LE(p + 10);
    let compressedSize = bytes.readUInt32LE(p + 20);
    let uncompressedSize = bytes.readUInt32LE(p + 24);
    const nameLength = bytes.readUInt16LE(p + 28);
    const extraLength = bytes.readUInt16LE(p + 30);
    const commentLength = bytes.readUInt16LE(p + 32);
    let localHeaderOffset = bytes.readUInt32LE(p + 42);
    const nameEnd = p + 46 + nameLength;
    if (nameEnd + extraLength > bytes.length) return corrupt;
    const name = partName(bytes.toString('utf8', p + 46, nameEnd));
    if (
      uncompressedSize === 0xffffffff ||
      compressedSize === 0xffffffff ||
      localHeaderOffset === 0xffffffff
    ) {
      const wide = zip64Sizes(bytes.subarray(nameEnd, nameEnd + extraLength), {
        uncompressedSize,
        compressedSize,
        localHeaderOffset,
      });
      if (wide === null) return corrupt;
      ({ uncompressedSize, compressedSize, localHeaderOffset } = wide);
    }
    p = nameEnd + extraLength + commentLength;
    if (flags & 1) return { ok: false, reason: 'encrypted' };
    if (method !== STORED && method !== DEFLATED) return { ok: false, reason: 'not_xlsx' };
    if (localHeaderOffset + 30 + compressedSize > bytes.length) return corrupt;
    const honourable =
      method === STORED
        ? uncompressedSize === compressedSize
        : uncompressedSize <= compressedSize * DEFLATE_MAX_RATIO + DEFLATE_SLACK;
    if (!honourable) return corrupt;
    claimed += uncompressedSize;
    entries.push({ name, method, compressedSize, uncompressedSize, localHeaderOffset });
  }
  return { ok: true, entries, claimed };
}

/** `xl\worksheets\sheet1.xml` and `/xl/workbook.xml` as the part names they mean. */
function partName(raw: string): string {
  const name = raw.replaceAll('\\', '/');
  return name.startsWith('/') ? name.slice(1) : name;
}

/** The zip64 end of central directory (its locator sits right before the classic record), or null. */
function readZip64End(
  bytes: Buffer,
  eocd: number,
): { count: number; size: number; offset: number; at: number } | null {
  const locator = eocd - 20;
  if (locator < 0 || bytes.readUInt32LE(locator) !== ZIP64_LOCATOR) return null;
  const at = safeNumber(bytes.readBigUInt64LE(locator + 8));
  if (at === null || at + 56 > locator || bytes.readUInt32LE(at) !== ZIP64_EOCD) return null;
  const count = safeNumber(bytes.readBigUInt64LE(at + 32));
  const size = safeNumber(bytes.readBigUInt64LE(at + 40));
  const offset = safeNumber(bytes.readBigUInt64LE(at + 48));
  return count === null || size === null || offset === null ? null : { count, size, offset, at };
}

/** The zip64 extra field of a central entry: its 8-byte values, in order, for each field marked 0xffffffff. */
function zip64Sizes<
  T extends { uncompressedSize: number; compressedSize: number; localHeaderOffset: number },
>(extra: Buffer, sizes: T): T | null {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    const end = p + 4 + length;
    if (end > extra.length) return null;
    if (id === ZIP64_EXTRA) {
      const out = { ...sizes };
      let q = p + 4;
      for (const key of ['uncompressedSize', 'compressedSize', 'localHeaderOffset'] as const) {
        if (out[key] !== 0xffffffff) continue;
        if (q + 8 > end) return null;
        const value = safeNumber(extra.readBigUInt64LE(q));
        // Past 2^53 bytes is past any bound: read as the largest number, refused by the sum.
        out[key] = value ?? Number.MAX_SAFE_INTEGER;
        q += 8;
      }
      return out;
    }
    p = end;
  }
  return null;
}

function safeNumber(n: bigint): number | null {
  return n > BigInt(Number.MAX_SAFE_INTEGER) ? null : Number(n);
}

/**
 * A zip archive held in memory (an upload of at most 20 MB), read through its central directory.
 * The directory is checked before any entry is inflated — its claimed sizes together must stay
 * within the budget, each claim must be one its data can honour, no entry is encrypted or of an
 * unknown method — and every entry is inflated in slices whose output is counted, so that an entry
 * lying about its size is stopped as soon as it passes its claim (a zip bomb never expands in memory
 * past the bound).
 */
export class ZipArchive {
  private readonly entries = new Map<string, ZipEntry>();

  constructor(
    private readonly bytes: Buffer,
    private readonly budget: ReadBudget,
  ) {
    const lang = budget.lang;
    const directory = readDirectory(bytes, budget.limits.maxEntries);
    if (!directory.ok) throw unreadable(directory.reason, lang);
    // The sum of the claims is checked here, before anything is inflated (API.md §14).
    if (directory.claimed > budget.limits.maxExpandedBytes) throw unreadable('too_large_expanded', lang);
    for (const entry of directory.entries) {
      const key = entry.name.toLowerCase();
      if (!this.entries.has(key)) this.entries.set(key, entry);
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
}

/**
 * What an upload expands to, known before any work and without inflating anything: for a zip, the
 * sizes its central directory claims, all entries together (an entry that inflates past its claim
 * is stopped there: ZipArchive.read); for anything else, its own size. A zip whose directory cannot
 * be read counts as its own size: nothing in it can be inflated (ZipArchive refuses it at once).
 */
export function expandedSize(bytes: Uint8Array): number {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length < 4 || buf.readUInt32LE(0) !== LOCAL) return buf.length;
  const directory = readDirectory(buf, Number.MAX_SAFE_INTEGER);
  return directory.ok ? directory.claimed : buf.length;
}

/** The end-of-central-directory record: the last 22 bytes, or before a comment of up to 64 KiB. */
function findEndOfCentralDirectory(bytes: Buffer): number {
  const stop = Math.max(0, bytes.length - 22 - 0xffff);
  for (let i = bytes.length - 22; i >= stop; i--) {
    if (bytes.readUInt32LE(i) === EOCD) return i;
  }
  return -1;
}
