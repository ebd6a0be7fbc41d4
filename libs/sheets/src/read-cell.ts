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
  switch (column.json.kind) {
    case 'date':
      return readDate(cell, date1904);
    case 'boolean':
    case 'training_presence':
    case 'employer_presence':
      return readBoolean(cell);
    case 'nir':
    case 'siret':
      return cell.k === 'number' ? digits(cell.v) : { value: asText(cell, date1904) };
    case 'codes': {
      const multi = column.count !== undefined;
      if (cell.k === 'number') {
        const read = digits(cell.v);
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
function asText(cell: Exclude<Cell, { k: 'error' }>, date1904: boolean): string {
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
      return numberText(cell.v);
    }
  }
}

function numberText(n: number): string {
  return Number.isSafeInteger(n) || (Number.isInteger(n) && Math.abs(n) < 1e21)
    ? BigInt(n).toString()
    : String(n);
}

/** A number typed in a NIR, SIRET or code column: its digits; a decimal part cannot be read. */
function digits(n: number): ReadCell {
  if (Number.isInteger(n) && n >= 0) return { value: BigInt(n).toString() };
  return { value: String(n), issue: { code: 'UNREADABLE_NUMBER' } };
}

function readDate(cell: Exclude<Cell, { k: 'error' }>, date1904: boolean): ReadCell {
  switch (cell.k) {
    case 'number': {
      const day = cell.date ? serialToDay(cell.v, date1904) : null;
      if (day !== null) return { value: formatFrDate(day) };
      return { value: numberText(cell.v), issue: { code: 'UNREADABLE_DATE' } };
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
      return { value: cell.v, issue: { code: 'UNREADABLE_DATE' } };
    }
  }
}

function readBoolean(cell: Exclude<Cell, { k: 'error' }>): ReadCell {
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
