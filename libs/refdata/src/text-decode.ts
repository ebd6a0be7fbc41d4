import { isUtf8 } from 'node:buffer';

/**
 * Official exports come in two encodings: UTF-8 (France Travail, Centre Inffo, often with a BOM) and
 * Windows-1252 (the Certif Info open-data file). Valid UTF-8 is taken as UTF-8; anything else can only
 * be the legacy Windows code page, which decodes every byte, so no file is ever rejected for encoding.
 */
export function decodeText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = isUtf8(buffer) ? buffer.toString('utf8') : decodeWindows1252(buffer);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Not `new TextDecoder('windows-1252')`: Node 20.18.3 and later 20.x decode that label as Latin-1, so
 * 0x80–0x9F come out as C1 controls (nodejs/node#60888), and Certif Info labels are full of 0x92 (’)
 * and 0x9C (œ). Windows-1252 is Latin-1 except for that block, whose 32 code points (WHATWG
 * index-windows-1252) are listed here.
 */
const C1_BLOCK =
  '\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f' +
  '\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178';

function decodeWindows1252(bytes: Buffer): string {
  return bytes.toString('latin1').replace(/[\u0080-\u009f]/g, (c) => C1_BLOCK[c.charCodeAt(0) - 0x80] ?? c);
}
