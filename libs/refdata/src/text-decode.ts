import { isUtf8 } from 'node:buffer';
import { decodeWindows1252 } from '@ppfile/rules';

/**
 * Official exports come in two encodings: UTF-8 (France Travail, Centre Inffo, often with a BOM) and
 * Windows-1252 (the Certif Info open-data file). Valid UTF-8 is taken as UTF-8; anything else can only
 * be the legacy Windows code page, which decodes every byte, so no file is ever rejected for encoding
 * (libs/rules decodeWindows1252: not Node's TextDecoder, which reads that label as Latin-1 on Node 20).
 */
export function decodeText(bytes: Uint8Array): string {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const text = isUtf8(buffer) ? buffer.toString('utf8') : decodeWindows1252(buffer);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
