import { decodeText as decodeUploadedText } from '@ppfile/rules';

/**
 * Official exports come in two encodings: UTF-8 (France Travail, Centre Inffo, often with a BOM) and
 * Windows-1252 (the Certif Info open-data file). libs/rules decodeText reads both, as it reads an
 * uploaded spreadsheet export: valid UTF-8 is taken as UTF-8, anything else as the Windows code page
 * (which decodes every byte, so no file is ever rejected for encoding), and a BOM is never text.
 */
export function decodeText(bytes: Uint8Array): string {
  return decodeUploadedText(bytes).text;
}
