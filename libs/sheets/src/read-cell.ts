import {
  formatFrDate,
  hasFrDateShape,
  hasIsoDateShape,
  padFrDate,
  trimWhiteSpace,
  type ColumnSpec,
  type NormalizationRule,
} from '@ppfile/rules';
import { serialToDay, type Cell } from './cells';
import type { SheetIssueCode } from './messages';

/** A value of the declaration body: what JSON holds for the column. */
export type BodyValue = string | string[] | boolean;

export interface ReadCell {
  /** Absent: the column is left out of the body (an empty cell, or one that cannot be read). */
  value?: BodyValue;
  issue?: { code: SheetIssueCode; error?: string };
  /**
   * A normalization of API.md §5 the reading made itself (a text date d/m/yyyy written dd/mm/yyyy:
   * DATE_REFORMATTED), which the import lists among the validation's normalizations, at the cell.
   */
  normalized?: NormalizationRule;
}

/** Multi-valued cells split on `/`, `,`, `;` or a line break (API.md §14). */
const MULTI = /[/,;\r\n\u2028\u2029]+/;
const YES = new Set(['oui', 'yes', 'true', 'vrai', '1', 'x']);
const NO = new Set(['non', 'no', 'false', 'faux', '0']);

/**
 * One cell read for its column (API.md §14 "Cells"). Values are the cell's own: text is kept as
 * typed (the body's validation then applies and lists the normalizations of §5, the same as for any
 * JSON body), a date cell becomes its calendar day written dd/mm/yyyy, a number in a NIR, SIRET or
 * code column becomes its digits. What cannot be read is an issue.
 */
export function readCell(cell: Cell, column: ColumnSpec, date1904: boolean): ReadCell {
  if (cell.k === 'error') return { issue: { code: 'UNREADABLE_CELL', error: cell.v } };
  if (cell.k === 'uncomputed') return { issue: { code: 'UNCOMPUTED_FORMULA' } };
  switch (column.json.kind) {
    case 'date':
      return readDate(cell, date1904);
    case 'boolean':
    case 'training_presence':
    case 'employer_presence':
      return readBoolean(cell);
    case 'nir':
    case 'siret':
      return cell.k === 'number' ? digits(cell) : { value: asText(cell, date1904) };
    case 'codes': {
      const multi = column.count !== undefined;
      if (cell.k === 'number') {
        const read = digits(cell);
        return multi && typeof read.value === 'string' ? { ...read, value: [read.value] } : read;
      }
      const text = asText(cell, date1904);
      if (!multi) return { value: text };
      const codes = text
        .split(MULTI)
        .map((c) => trimWhiteSpace(c))
        .filter((c) => c !== '');
      return codes.length ? { value: codes } : {};
    }
    case 'string':
    case 'enum':
      return { value: asText(cell, date1904) };
  }
}

/** A cell as text where a column takes text: numbers as written, without exponent where whole. */
function asText(cell: Exclude<Cell, { k: 'error' } | { k: 'uncomputed' }>, date1904: boolean): string {
  switch (cell.k) {
    case 'text':
      return cell.v;
    case 'bool':
      return cell.v ? 'OUI' : 'NON';
    case 'iso':
      return hasIsoDateShape(cell.v.slice(0, 10)) ? cell.v.slice(0, 10) : cell.v;
    case 'number': {
      if (cell.date) {
        const day = serialToDay(cell.v, date1904);
        if (day !== null) return formatFrDate(day);
      }
      return numberText(cell);
    }
  }
}

/** A number as text: the digits the file wrote when it is whole, else as JavaScript writes it. */
function numberText(cell: { v: number; raw?: string }): string {
  const whole = cell.raw === undefined ? null : wholeDigits(cell.raw);
  if (whole !== null) return cell.v < 0 ? `-${whole}` : whole;
  return Number.isInteger(cell.v) && Math.abs(cell.v) < 1e21 ? BigInt(cell.v).toString() : String(cell.v);
}

/**
 * A number typed in a NIR, SIRET or code column: its digits, exactly as the file writes them. A
 * decimal part, however small (`2550814168025.0000001`), a sign, or a number past 2^53 that the
 * file does not write digit by digit (`9007199254740993` read as a double is …992) cannot be read.
 */
function digits(cell: { v: number; raw?: string }): ReadCell {
  if (cell.v >= 0) {
    const whole = cell.raw === undefined ? null : wholeDigits(cell.raw);
    if (whole !== null) return { value: whole };
    if (cell.raw === undefined && Number.isSafeInteger(cell.v)) return { value: String(cell.v) };
  }
  return { value: cell.raw ?? String(cell.v), issue: { code: 'UNREADABLE_NUMBER' } };
}

/** Digits of a whole number at most this long: a NIR has 15, a SIRET 14. */
const MAX_WHOLE_DIGITS = 30;
const DECIMAL = /^[+-]?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?$/;

/**
 * The digits of a number written in decimal (`123`, `1.23E+2`, `-0`), sign dropped, when it is
 * whole; null when it has a fractional part, is not decimal, or is too long to be a code.
 */
export function wholeDigits(raw: string): string | null {
  const m = DECIMAL.exec(raw);
  if (!m) return null;
  const [, int = '', frac = '', exp = '0'] = m;
  if (int === '' && frac === '') return null;
  const all = int + frac;
  const point = int.length + Number(exp);
  if (point > MAX_WHOLE_DIGITS + all.length) return null;
  const fraction = point >= all.length ? '' : all.slice(Math.max(point, 0));
  if (/[1-9]/.test(fraction)) return null;
  const whole = (point <= 0 ? '' : all.slice(0, point).padEnd(point, '0')).replace(/^0+/, '');
  if (whole.length > MAX_WHOLE_DIGITS) return null;
  return whole === '' ? '0' : whole;
}

function readDate(cell: Exclude<Cell, { k: 'error' } | { k: 'uncomputed' }>, date1904: boolean): ReadCell {
  switch (cell.k) {
    case 'number': {
      const day = cell.date ? serialToDay(cell.v, date1904) : null;
      if (day !== null) return { value: formatFrDate(day) };
      return { value: numberText(cell), issue: { code: 'UNREADABLE_DATE' } };
    }
    case 'iso': {
      const iso = cell.v.slice(0, 10);
      return hasIsoDateShape(iso) ? { value: iso } : { value: cell.v, issue: { code: 'UNREADABLE_DATE' } };
    }
    case 'bool':
      return { issue: { code: 'UNREADABLE_DATE' } };
    case 'text': {
      const text = trimWhiteSpace(cell.v);
      if (text === '') return {};
      // Kept as typed: the body's validation trims it and rewrites yyyy-mm-dd (and lists both).
      if (hasFrDateShape(text) || hasIsoDateShape(text)) return { value: cell.v };
      // d/m/yyyy, which a JSON body does not take: written dd/mm/yyyy here, and listed as such.
      const padded = padFrDate(text);
      if (padded !== null) return { value: padded, normalized: 'DATE_REFORMATTED' };
      // A date cell exported as text with its time (LibreOffice: `2026-10-12 00:00:00`): the day,
      // written dd/mm/yyyy and listed, when the time is midnight exactly; any other time is no date.
      const day = midnightDay(text);
      if (day !== null) return { value: day, normalized: 'DATE_REFORMATTED' };
      return { value: cell.v, issue: { code: 'UNREADABLE_DATE' } };
    }
  }
}

/** Midnight as spreadsheets write it after a date: `0:00`, `00:00`, `00:00:00`, `00:00:00.000`. */
const MIDNIGHT = /^0?0:00(?::00(?:\.0{1,3})?)?$/;

/**
 * `2026-10-12 0:00:00`, `2026-10-12T00:00:00`, `12/10/2026 00:00`: the day dd/mm/yyyy when the date
 * has a shape the import reads and the time is midnight exactly; otherwise null.
 */
export function midnightDay(text: string): string | null {
  const cut = text.search(/[ T]/);
  if (cut < 8 || !MIDNIGHT.test(text.slice(cut + 1).trim())) return null;
  const date = text.slice(0, cut);
  if (hasIsoDateShape(date)) return `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
  if (hasFrDateShape(date)) return date;
  return padFrDate(date);
}

function readBoolean(cell: Exclude<Cell, { k: 'error' } | { k: 'uncomputed' }>): ReadCell {
  if (cell.k === 'bool') return { value: cell.v };
  if (cell.k === 'number' && (cell.v === 1 || cell.v === 0)) return { value: cell.v === 1 };
  if (cell.k === 'text') {
    const word = trimWhiteSpace(cell.v).toLowerCase();
    if (word === '') return {};
    if (YES.has(word)) return { value: true };
    if (NO.has(word)) return { value: false };
  }
  return { issue: { code: 'UNREADABLE_CELL', error: 'boolean' } };
}
