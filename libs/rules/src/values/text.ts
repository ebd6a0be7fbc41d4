/** Character-level rules shared by every column. */

/**
 * `|` and line breaks would break the file's structure (SERVICE.md §2.5); other C0 control
 * characters and DEL are refused too, since no portal field can hold them.
 */
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[|\u0000-\u001f\u007f]/;

export function hasForbiddenCharacter(value: string): boolean {
  return FORBIDDEN.test(value);
}

/** A text a spreadsheet would evaluate as a formula (CSV injection). */
export function looksLikeFormula(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 61 /* = */ || c === 43 /* + */ || c === 45 /* - */ || c === 64 /* @ */;
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
