/**
 * NIR (French social-security number). The official format wants the 13 characters without the
 * 2-digit key; a 15-character NIR is accepted in JSON when its key is right (SERVICE.md §2.1).
 */

export type NirProblem = 'length' | 'sex' | 'month' | 'department' | 'digits' | 'order';

/** Sex digit: 1–2 ordinary, 3–4 and 7–8 provisional / temporary numbers (NIR_PROVISIONAL). */
const SEX_DIGITS = '123478';
const PROVISIONAL_DIGITS = '3478';
/** Positions that hold digits whatever the case (the département, 5–6, may be 2A/2B). */
const DIGIT_POSITIONS = [1, 2, 3, 4, 7, 8, 9, 10, 11, 12];

/** Returns the first structural problem of a 13-character NIR, or null when it is possible. */
export function nirProblem(nir: string): NirProblem | null {
  if (nir.length !== 13) return 'length';
  if (!SEX_DIGITS.includes(nir[0]!)) return 'sex';
  for (const i of DIGIT_POSITIONS) if (!isDigit(nir.charCodeAt(i))) return 'digits';
  // INSEE: month 01–12, or 20–42 / 50–99 for civil-status records without a known month.
  const month = (nir.charCodeAt(3) - 48) * 10 + (nir.charCodeAt(4) - 48);
  if (!(month >= 1 && month <= 12) && !(month >= 20 && month <= 42) && !(month >= 50 && month <= 99)) {
    return 'month';
  }
  const d1 = nir.charCodeAt(5);
  const d2 = nir.charCodeAt(6);
  const corsica = d1 === 50 /* 2 */ && (d2 === 65 /* A */ || d2 === 66); /* B */
  if (!corsica && !(isDigit(d1) && isDigit(d2) && !(d1 === 48 && d2 === 48))) return 'department';
  if (nir.charCodeAt(10) === 48 && nir.charCodeAt(11) === 48 && nir.charCodeAt(12) === 48) return 'order';
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

/**
 * A NIR that nirProblem accepts as a number, one for one: its 13 characters as digits, the letter of
 * Corsica's 2A or 2B read as 0, times 3, plus 1 for A and 2 for B (below 3 × 10^13, exact in a
 * double). A declaration's NIRs are kept to find a holder twice (DUPLICATE_HOLDER): as numbers they
 * are no strings to copy, and 50,000 of them no longer grew V8's young generation to its maximum
 * (+16 MB of peak RSS for `ppfile validate` of 50,000 rows; docs/benchmarks.md, "The command
 * line's validate"). row-checker.ts keeps them so.
 */
export function nirNumber(nir: string): number {
  let n = 0;
  for (let i = 0; i < 13; i++) {
    const c = nir.charCodeAt(i) - 48;
    n = n * 10 + (c >= 0 && c <= 9 ? c : 0);
  }
  const letter = nir.charCodeAt(6);
  return n * 3 + (letter === 65 ? 1 : letter === 66 ? 2 : 0);
}
