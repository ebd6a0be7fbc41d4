/** Character-level rules shared by every column. */

/**
 * Why a character cannot stand in a value (the message of INVALID_CHARACTER says which, with its
 * code point, never the value).
 */
export type CharacterProblem =
  /** `|`, the file's field separator. */
  | 'separator'
  /** A Unicode line terminator: LF, VT, FF, CR, NEL, U+2028, U+2029. */
  | 'line_break'
  /** Any other control character (Cc). */
  | 'control'
  /** U+FFFD: what a decoder puts in place of bytes that were not UTF-8. */
  | 'damaged'
  /** Half of a UTF-16 surrogate pair without its other half (Cs): not a character at all. */
  | 'surrogate'
  | 'noncharacter'
  /** Private use (Co): a meaning agreed only between two programs, none the portal knows. */
  | 'private_use'
  /** Format (Cf) and the other default-ignorable code points: invisible, or a layout control. */
  | 'invisible'
  /** A combining mark (M) at the start: it has no letter to sit on. */
  | 'combining_start';

export interface ForbiddenCharacter {
  readonly codePoint: number;
  readonly problem: CharacterProblem;
}

/**
 * The characters no value may hold (SERVICE.md §2.5, API.md §4 INVALID_CHARACTER). `|` and line
 * breaks would break the file's structure; a line break is any Unicode line terminator, not only CR
 * and LF (NEL U+0085, U+2028 and U+2029 split lines in many readers). The rest would make a value
 * that looks right and is not: the portal matches the birth name to the NIR, and a name holding an
 * invisible character is a different name. Refused, whatever the column:
 * - the control characters (Cc: C0, DEL, C1) and U+2028 / U+2029;
 * - the format characters (Cf: zero-width space and joiners, BOM U+FEFF, bidirectional controls
 *   such as RLO U+202E, soft hyphen U+00AD, tags U+E0000–U+E007F, …) and every other
 *   Default_Ignorable_Code_Point (Hangul fillers U+115F, U+1160, U+3164, U+FFA0, variation
 *   selectors, combining grapheme joiner): invisible, or shown as nothing;
 * - lone surrogates (Cs): a JSON escape such as `\ud800` without its pair, which UTF-8 cannot
 *   encode — the file would hold U+FFFD instead;
 * - U+FFFD itself: text damaged before it reached ppfile (bytes that were not UTF-8, replaced by the
 *   decoder); the original character is lost;
 * - noncharacters (U+FDD0–U+FDEF and the last two code points of every plane) and private-use code
 *   points (Co), which mean nothing outside the program that made them;
 * - a combining mark (M) as the first character: a mark on nothing, after NFC (JSON input) has
 *   already joined every mark that had a letter before it.
 * Unassigned code points are not refused: which ones are assigned depends on the Unicode version of
 * the running Node, and the rule must not.
 * The one check of a value's characters, for JSON values and CSV cells alike (INVALID_CHARACTER in
 * the row checker); the JSON normalizations keep such a value as it is.
 */
const FORBIDDEN =
  /[|\p{Cc}\p{Cf}\p{Cs}\p{Co}\u2028\u2029\ufffd\p{Noncharacter_Code_Point}\p{Default_Ignorable_Code_Point}]|^\p{M}/u;
/** Anything but printable ASCII other than `|`: a value without any needs no further look. */
const NOT_PLAIN_ASCII = /[^\x20-\x7b\x7d\x7e]/;
/**
 * The code units of FORBIDDEN's class from U+0300 on, as [first, last] pairs in order: its BMP code
 * points, and every surrogate (so that any character beyond the BMP goes on to FORBIDDEN).
 * text.spec.ts compares forbiddenCharacter with the rule over every code point.
 */
const SUSPECT_RANGES = new Uint16Array([
  0x034f, 0x034f, 0x0600, 0x0605, 0x061c, 0x061c, 0x06dd, 0x06dd, 0x070f, 0x070f, 0x0890, 0x0891, 0x08e2,
  0x08e2, 0x115f, 0x1160, 0x17b4, 0x17b5, 0x180b, 0x180f, 0x200b, 0x200f, 0x2028, 0x202e, 0x2060, 0x206f,
  0x3164, 0x3164, 0xd800, 0xf8ff, 0xfdd0, 0xfdef, 0xfe00, 0xfe0f, 0xfeff, 0xfeff, 0xffa0, 0xffa0, 0xfff0,
  0xfffb, 0xfffd, 0xffff,
]);
/** The first combining mark is U+0300. */
const LEADING_MARK = /^\p{M}/u;

/**
 * The first character a value may not hold (or its leading combining mark), or null. Quick filters
 * decide the common cases — plain ASCII by one scan, accented Latin text by two comparisons a
 * character — and FORBIDDEN, several times slower with its `u` flag, only finds what they flagged.
 */
export function forbiddenCharacter(value: string): ForbiddenCharacter | null {
  const from = value.search(NOT_PLAIN_ASCII);
  if (from < 0) return null;
  if (!suspectFrom(value, from) && !(value.charCodeAt(0) >= 0x300 && LEADING_MARK.test(value))) return null;
  const match = FORBIDDEN.exec(value);
  if (match === null) return null;
  const codePoint = match[0].codePointAt(0)!;
  return { codePoint, problem: problemOf(codePoint, match.index) };
}

/** Whether a code unit from `i` on may be forbidden (see SUSPECT_RANGES). */
function suspectFrom(value: string, i: number): boolean {
  for (; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x300) {
      if (c < 0x20 || c === 0x7c || (c >= 0x7f && (c <= 0x9f || c === 0xad))) return true;
    } else if (inSuspectRanges(c)) return true;
  }
  return false;
}

function inSuspectRanges(c: number): boolean {
  let lo = 0;
  let hi = SUSPECT_RANGES.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < SUSPECT_RANGES[2 * mid]!) hi = mid - 1;
    else if (c > SUSPECT_RANGES[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

export function hasForbiddenCharacter(value: string): boolean {
  return forbiddenCharacter(value) !== null;
}

const LINE_TERMINATORS: ReadonlySet<number> = new Set([0x0a, 0x0b, 0x0c, 0x0d, 0x85, 0x2028, 0x2029]);

function problemOf(cp: number, index: number): CharacterProblem {
  if (cp === 0x7c) return 'separator';
  if (LINE_TERMINATORS.has(cp)) return 'line_break';
  if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return 'control';
  if (cp === 0xfffd) return 'damaged';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'surrogate';
  if ((cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe) return 'noncharacter';
  if ((cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000) return 'private_use';
  // What is left is a format or default-ignorable character, or the mark a value starts with (a
  // default-ignorable mark there, such as U+034F or a variation selector, is named invisible).
  if (index > 0 || IGNORABLE.test(String.fromCodePoint(cp))) return 'invisible';
  return 'combining_start';
}
const IGNORABLE = /^[\p{Cf}\p{Default_Ignorable_Code_Point}]$/u;

/** `U+200B`: how messages name a character (a code point is not personal data; the value never appears). */
export function codePointName(cp: number): string {
  return `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * White space trimmed at either end of a JSON value (WHITESPACE_TRIMMED): Unicode White_Space — CR,
 * LF, tab, VT, FF, spaces of every width, U+2028, U+2029 — except NEL U+0085, a C1 control refused
 * like the others (it is also what "…" becomes when Windows-1252 text is read as Latin-1). Not
 * String.prototype.trim, which also removes U+FEFF: a BOM is a format character, refused wherever it
 * stands, in a JSON value as in a CSV cell.
 */
export function trimWhiteSpace(value: string): string {
  let start = 0;
  let end = value.length;
  while (start < end && isTrimmedSpace(value.charCodeAt(start))) start++;
  while (end > start && isTrimmedSpace(value.charCodeAt(end - 1))) end--;
  return start === 0 && end === value.length ? value : value.slice(start, end);
}

/**
 * The letters a–z written A–Z, every other character as it is: the case of a value compared with an
 * ASCII vocabulary (enumerations, OUI/NON). Not String.prototype.toUpperCase, which also writes the
 * dotless ı as I and the long ſ as S (and ß as SS, ﬁ as FI): `PRESENTıEL` and `preſentiel` would
 * become `PRESENTIEL`, a value that was not typed — accepted, and listed as a change of case.
 */
export function asciiUpperCase(value: string): string {
  return value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** Every White_Space character is in the BMP; U+0085 is below U+00A0. */
function isTrimmedSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c >= 0xa0 && WHITE_SPACE.test(String.fromCharCode(c)));
}
const WHITE_SPACE = /^\p{White_Space}$/u;

/**
 * A text a spreadsheet would evaluate as a formula (CSV injection): its first character, once
 * leading white space is skipped and compatibility forms are folded (NFKC), is `=`, `+`, `-` or `@`.
 * So the fullwidth ＝ ＋ － ＠ (U+FF1D, U+FF0B, U+FF0D, U+FF20), the small forms ﹢ ﹣ ﹦ ﹫ (U+FE62,
 * U+FE63, U+FE66, U+FE6B) and the like count too: input methods and some spreadsheets turn them into
 * the ASCII signs. The first character is folded alone, not the whole value: NFKC would compose
 * "=" and a following U+0338 into "≠" and hide the "=" a spreadsheet reads.
 */
export function looksLikeFormula(value: string): boolean {
  const c = value.charCodeAt(0);
  // The common case: printable ASCII other than a space folds to itself.
  if (c > 0x20 && c < 0x7f) return isFormulaSign(c);
  let i = 0;
  while (i < value.length && isTrimmedSpace(value.charCodeAt(i))) i++;
  const first = value.codePointAt(i);
  if (first === undefined) return false;
  return isFormulaSign(String.fromCodePoint(first).normalize('NFKC').charCodeAt(0));
}

function isFormulaSign(c: number): boolean {
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
