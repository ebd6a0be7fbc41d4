/**
 * The size a page refuses before reading a file: the API's own limit (the spec's `limits.maxBytes`,
 * 20 MB), so that a file too large for the API is not read into the page only to be refused.
 */
import { CURRENT_LIMITS } from '@ppfile/rules/format';

export const MAX_FILE_BYTES = CURRENT_LIMITS.maxBytes;

const nbsp = '\u00a0';
const MB = 1024 * 1024;

/** Megabytes with one decimal; a file just over the limit never reads as the limit. */
function megabytes(bytes: number, lang: 'en' | 'fr'): string {
  let value = Math.round((bytes / MB) * 10) / 10;
  if (bytes > MAX_FILE_BYTES && value <= MAX_FILE_BYTES / MB) value = MAX_FILE_BYTES / MB + 0.1;
  return value.toLocaleString(lang === 'fr' ? 'fr-FR' : 'en-GB', { maximumFractionDigits: 1 });
}

/** The refusal of a file over the limit, in the page's language; null when its size is accepted. */
export function fileTooLarge(size: number, lang: 'en' | 'fr'): string | null {
  if (size <= MAX_FILE_BYTES) return null;
  const limit = megabytes(MAX_FILE_BYTES, lang);
  return lang === 'fr'
    ? `Ce fichier fait ${megabytes(size, lang)}${nbsp}Mo${nbsp}; la limite est de ${limit}${nbsp}Mo.`
    : `This file is ${megabytes(size, lang)} MB; the limit is ${limit} MB.`;
}
