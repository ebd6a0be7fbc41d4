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

/** Node's TextDecoder (WHATWG Encoding): windows-1252 maps every byte, so decoding never fails. */
const WINDOWS_1252 = new TextDecoder('windows-1252');

/**
 * The text of a spreadsheet export or an official CSV. Valid UTF-8 (after an optional BOM) is read
 * as UTF-8; anything else as Windows-1252 — a byte sequence that is valid UTF-8 is very unlikely to
 * be meant as Windows-1252 (accented capitals followed by two or three symbols), the reverse is
 * the common case.
 */
export function decodeText(bytes: Uint8Array): DecodedText {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bom = buf.length >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
  const body = bom ? buf.subarray(3) : buf;
  if (isUtf8(body)) return { text: body.toString('utf8'), encoding: bom ? 'utf-8-bom' : 'utf-8' };
  return { text: WINDOWS_1252.decode(buf), encoding: 'windows-1252' };
}
