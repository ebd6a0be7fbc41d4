/** Character-level rules shared by every column. */

/**
 * `|` and line breaks would break the file's structure (SERVICE.md §2.5). A line break is any Unicode
 * line terminator, not only CR and LF: NEL (U+0085), LINE SEPARATOR (U+2028) and PARAGRAPH SEPARATOR
 * (U+2029) split lines in many readers. The whole Cc category is refused with them (C0 U+0000–U+001F,
 * DEL U+007F, C1 U+0080–U+009F, which holds NEL and CSI U+009B), since no portal field can hold a
 * control character. The one check of a value's characters, for JSON values and CSV cells alike
 * (INVALID_CHARACTER in the row checker); the JSON normalizations keep such a value as it is.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[|\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

export function hasForbiddenCharacter(value: string): boolean {
  return FORBIDDEN.test(value);
}

/** A text a spreadsheet would evaluate as a formula (CSV injection). */
export function looksLikeFormula(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 /* = */ || c === 43 /* + */ || c === 45 /* - */ || c === 64; /* @ */
}

/** Length in characters (code points), as the portal counts them. */
export function charLength(value: string): number {
  let n = value.length;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

export function isHttpUrl(value: string): boolean {
  if (!/^https?:\/\/[^\s]+$/i.test(value)) return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}
