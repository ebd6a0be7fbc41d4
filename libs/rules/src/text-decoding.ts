import { isUtf8 } from 'node:buffer';

/**
 * How the bytes of an uploaded text file were written (API.md §14): UTF-8, UTF-8 opened by a
 * byte-order mark, or — when the bytes are not UTF-8 at all — Windows-1252, what Excel for Windows
 * writes when it saves "CSV (séparateur : point-virgule)" on a French system.
 */
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

/**
 * Bytes that are UTF-8 in places and not in others: valid multi-byte UTF-8 sequences (`é` as C3 A9)
 * and bytes outside any (`é` as E9) in one file — a `café` pasted from another program into a UTF-8
 * export. Neither reading is right: as UTF-8 the pasted bytes are lost, as Windows-1252 every other
 * accented letter turns into two or three (`HÉLÈNE` → `HÃ‰LÃˆNE`), and names are matched to the NIR
 * by the portal. The fix and the import refuse such a file; `line` is the first line holding a byte
 * outside UTF-8 (header = 1, lines ending with LF, as validate numbers them).
 */
export interface MixedEncoding {
  encoding: 'mixed';
  line: number;
}

/** What the bytes are: one encoding throughout, or mixed. */
export type EncodingVerdict = { encoding: TextEncoding } | MixedEncoding;

/** The text and its encoding; for bytes that mix encodings, see decodeText. */
export type DecodedText = { text: string } & EncodingVerdict;

/**
 * Windows-1252, which maps every byte (decoding never fails). Not `new TextDecoder('windows-1252')`:
 * Node 20.18.3 and later 20.x decode that label as Latin-1, so 0x80–0x9F come out as C1 controls
 * (nodejs/node#60888) — and French text is full of 0x92 (’), 0x9C (œ) and 0x80 (€). Windows-1252 is
 * Latin-1 except for that block, whose 32 code points (WHATWG index-windows-1252) are listed here.
 * The one decoder of the code page: libs/refdata's reading of official exports uses it too.
 */
const C1_BLOCK =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

export function decodeWindows1252(bytes: Uint8Array): string {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return buf.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => C1_BLOCK[c.charCodeAt(0) - 0x80] ?? c);
}

/**
 * The text of a spreadsheet export or an official CSV. Valid UTF-8 (after an optional BOM) is read
 * as UTF-8; bytes with no valid multi-byte UTF-8 sequence at all as Windows-1252 — a byte sequence
 * that is valid UTF-8 is very unlikely to be meant as Windows-1252 (accented capitals followed by
 * two or three symbols), the reverse is the common case. A BOM is never part of the text: a file
 * opened by one whose body is not UTF-8 (an editor that added it to a Windows-1252 file) is its body
 * read as Windows-1252, not "ï»¿". Bytes that mix both (MixedEncoding) are read a line at a time,
 * each line UTF-8 when it is and Windows-1252 when not: what libs/refdata reads of an official
 * export; an upload that mixes is refused instead (the fix, the import: names are never guessed).
 * The one decoder of uploaded and official text (libs/refdata reads its exports through it).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  return decodeBody(textEncoding(bytes));
}

/** decodeText after textEncoding: the text of the bytes it answered, as its verdict says. */
export function decodeBody(verdict: { body: Buffer } & EncodingVerdict): DecodedText {
  const { body } = verdict;
  if (verdict.encoding === 'mixed')
    return { text: decodeByLine(body), encoding: 'mixed', line: verdict.line };
  const text = verdict.encoding === 'windows-1252' ? decodeWindows1252(body) : body.toString('utf8');
  return { text, encoding: verdict.encoding };
}

/** decodeText's verdict without the decoding: the encoding, and the bytes of the text (no BOM). */
export function textEncoding(bytes: Uint8Array): { body: Buffer } & EncodingVerdict {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const body = bom ? buf.subarray(3) : buf;
  // The common case, and the native check's speed (the scan below is one byte at a time in JS).
  if (isUtf8(body)) return { body, encoding: bom ? 'utf-8-bom' : 'utf-8' };
  const { firstInvalid, multiByte } = scanUtf8(body);
  if (!multiByte) return { body, encoding: 'windows-1252' };
  return { body, encoding: 'mixed', line: lineAt(body, firstInvalid) };
}

/**
 * Where the first byte outside any valid UTF-8 sequence is (-1: none), and whether a valid sequence
 * of two bytes or more occurs — stopping as soon as both are known. Valid sequences are those of
 * Unicode's table 3-7 (no overlong form, no surrogate, nothing past U+10FFFF), as isUtf8 takes them;
 * a byte that starts no valid sequence is outside UTF-8 and the scan resumes at the next byte.
 */
function scanUtf8(bytes: Uint8Array): { firstInvalid: number; multiByte: boolean } {
  let firstInvalid = -1;
  let multiByte = false;
  const n = bytes.length;
  let i = 0;
  while (i < n) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const length = sequenceLength(bytes, i);
    if (length > 0) {
      multiByte = true;
      if (firstInvalid >= 0) break;
      i += length;
    } else {
      if (firstInvalid < 0) firstInvalid = i;
      if (multiByte) break;
      i++;
    }
  }
  return { firstInvalid, multiByte };
}

/** The length of the valid multi-byte UTF-8 sequence starting at `i`, or 0 when none does. */
function sequenceLength(bytes: Uint8Array, i: number): number {
  const b = bytes[i]!;
  if (b >= 0xc2 && b <= 0xdf) return within(bytes[i + 1], 0x80, 0xbf) ? 2 : 0;
  if (b >= 0xe0 && b <= 0xef) {
    const lo = b === 0xe0 ? 0xa0 : 0x80;
    const hi = b === 0xed ? 0x9f : 0xbf;
    return within(bytes[i + 1], lo, hi) && within(bytes[i + 2], 0x80, 0xbf) ? 3 : 0;
  }
  if (b >= 0xf0 && b <= 0xf4) {
    const lo = b === 0xf0 ? 0x90 : 0x80;
    const hi = b === 0xf4 ? 0x8f : 0xbf;
    return within(bytes[i + 1], lo, hi) &&
      within(bytes[i + 2], 0x80, 0xbf) &&
      within(bytes[i + 3], 0x80, 0xbf)
      ? 4
      : 0;
  }
  return 0;
}

function within(byte: number | undefined, lo: number, hi: number): boolean {
  return byte !== undefined && byte >= lo && byte <= hi;
}

/** The line (1-based, lines ending with LF) of the byte at `offset`. */
function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let at = bytes.indexOf(10); at >= 0 && at < offset; at = bytes.indexOf(10, at + 1)) line++;
  return line;
}

/** Each line (up to and with its LF) as UTF-8 when it is, else as Windows-1252. */
function decodeByLine(bytes: Buffer): string {
  let out = '';
  for (let start = 0; start < bytes.length;) {
    const end = bytes.indexOf(10, start) + 1 || bytes.length;
    const line = bytes.subarray(start, end);
    out += isUtf8(line) ? line.toString('utf8') : decodeWindows1252(line);
    start = end;
  }
  return out;
}
