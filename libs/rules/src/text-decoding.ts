import { isUtf8 } from 'node:buffer';

/**
 * How the bytes of an uploaded text file were written (API.md §14): UTF-8, UTF-8 opened by a
 * byte-order mark, or — when the bytes are not UTF-8 at all — Windows-1252, what Excel for Windows
 * writes when it saves "CSV (séparateur : point-virgule)" on a French system.
 */
export type TextEncoding = 'utf-8' | 'utf-8-bom' | 'windows-1252';

export interface DecodedText {
  text: string;
  encoding: TextEncoding;
}

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
 * as UTF-8; anything else as Windows-1252 — a byte sequence that is valid UTF-8 is very unlikely to
 * be meant as Windows-1252 (accented capitals followed by two or three symbols), the reverse is
 * the common case. A BOM is never part of the text: a file opened by one whose body is not UTF-8
 * (an editor that added it to a Windows-1252 file) is its body read as Windows-1252, not "ï»¿".
 * The one decoder of uploaded and official text (libs/refdata reads its exports through it).
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const { body, encoding } = textEncoding(bytes);
  return { text: encoding === 'windows-1252' ? decodeWindows1252(body) : body.toString('utf8'), encoding };
}

/** decodeText's verdict without the decoding: the encoding, and the bytes of the text (no BOM). */
export function textEncoding(bytes: Uint8Array): { body: Buffer; encoding: TextEncoding } {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const body = bom ? buf.subarray(3) : buf;
  if (isUtf8(body)) return { body, encoding: bom ? 'utf-8-bom' : 'utf-8' };
  return { body, encoding: 'windows-1252' };
}
