/**
 * NIR (French social-security number). The official format wants the 13 characters without the
 * 2-digit key; a 15-character NIR is accepted in JSON when its key is right (SERVICE.md §2.1).
 */

export type NirProblem = 'length' | 'sex' | 'month' | 'department' | 'digits' | 'order';

/** Sex digit: 1–2 ordinary, 3–4 and 7–8 provisional / temporary numbers (NIR_PROVISIONAL). */
const SEX_DIGITS = '123478';
const PROVISIONAL_DIGITS = '3478';

/** Returns the first structural problem of a 13-character NIR, or null when it is possible. */
export function nirProblem(nir: string): NirProblem | null {
  if (nir.length !== 13) return 'length';
  if (!SEX_DIGITS.includes(nir[0]!)) return 'sex';
  for (const i of [1, 2, 3, 4, 7, 8, 9, 10, 11, 12]) if (!isDigit(nir.charCodeAt(i))) return 'digits';
  // INSEE: month 01–12, or 20–42 / 50–99 for civil-status records without a known month.
  const month = Number(nir.slice(3, 5));
  if (!(month >= 1 && month <= 12) && !(month >= 20 && month <= 42) && !(month >= 50 && month <= 99)) {
    return 'month';
  }
  const dep = nir.slice(5, 7);
  if (dep !== '2A' && dep !== '2B' && !(isDigit(dep.charCodeAt(0)) && isDigit(dep.charCodeAt(1)) && dep !== '00')) {
    return 'department';
  }
  if (nir.slice(10, 13) === '000') return 'order';
  return null;
}

export function isProvisionalNir(nir: string): boolean {
  return PROVISIONAL_DIGITS.includes(nir[0]!);
}

/** Key = 97 − (number mod 97), with Corsica's 2A read as 19 and 2B as 18. */
export function nirKey(nir13: string): string {
  const numeric = nir13.replace('2A', '19').replace('2B', '18');
  if (!/^\d{13}$/.test(numeric)) return '';
  const key = 97 - Number(BigInt(numeric) % 97n);
  return key.toString().padStart(2, '0');
}

/** A 15-character NIR whose last two digits are the key of the first 13. */
export function hasValidNirKey(nir15: string): boolean {
  return nir15.length === 15 && nirKey(nir15.slice(0, 13)) === nir15.slice(13);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
