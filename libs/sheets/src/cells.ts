/**
 * A cell as the readers give it (XLSX or delimited text), before it is read for a column: its kind
 * decides how (API.md §14 "Cells").
 */
export type Cell =
  | { readonly k: 'text'; readonly v: string }
  /** A number; `date` when its number format shows a date (a date cell). */
  | {
      readonly k: 'number';
      readonly v: number;
      readonly date: boolean;
      /** The number as the file writes it (`2550814168025`, `1.5E+3`): its exact digits. */
      readonly raw?: string;
    }
  | { readonly k: 'bool'; readonly v: boolean }
  /** An error value: `#N/A`, `#REF!`, … (a formula's cached error). */
  | { readonly k: 'error'; readonly v: string }
  /** An ISO 8601 date cell (`t="d"`), written by a few producers instead of a serial number. */
  | { readonly k: 'iso'; readonly v: string }
  /**
   * A formula saved without its result (openpyxl, exceljs, manual calculation): its value is not in
   * the file, only a spreadsheet program can compute it.
   */
  | { readonly k: 'uncomputed' };

/** One row of a sheet: its number (1-based) and its non-empty cells with their column (0-based). */
export interface SheetRow {
  readonly row: number;
  readonly cells: readonly { readonly col: number; readonly cell: Cell }[];
}

/** Called for each row in order; returns false to stop reading the sheet. */
export type RowVisitor = (row: SheetRow) => boolean;

/** 0 → A, 25 → Z, 26 → AA. */
export function columnLetters(col: number): string {
  let n = col + 1;
  let out = '';
  while (n > 0) {
    const r = (n - 1) % 26;
    out = String.fromCharCode(65 + r) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** The column of a reference such as `AB12` (0-based), or -1. */
export function columnOfRef(ref: string): number {
  let col = 0;
  let i = 0;
  // At most three letters: XFD, Excel's last column (a longer run would overflow).
  for (; i < ref.length && i < 4; i++) {
    const c = ref.charCodeAt(i);
    const upper = c >= 97 ? c - 32 : c;
    if (upper < 65 || upper > 90) break;
    col = col * 26 + (upper - 64);
  }
  return i === 0 || i > 3 ? -1 : col - 1;
}

/**
 * How a sheet is named before `!` in A1 notation: as it is when made of letters, digits and `_`
 * (not starting with a digit), else quoted with its quotes doubled (`'Feuille 1'!A1`).
 */
export function sheetPrefix(name: string): string {
  return /^[\p{L}_][\p{L}\p{N}_]*$/u.test(name) ? name : `'${name.replaceAll("'", "''")}'`;
}

const DAY_MS = 86_400_000;
/** Serial 0 of the 1900 system is 1899-12-30 (Lotus's leap year 1900 included); of 1904, 1904-01-01. */
const EPOCH_1900 = Date.UTC(1899, 11, 30);
const EPOCH_1904 = Date.UTC(1904, 0, 1);

/**
 * The calendar day of a date serial (time of day dropped), as yyyymmdd, or null when out of range.
 * In the 1900 system, serials 1–59 are January and February 1900 as Excel shows them (its phantom
 * 29/02/1900 is serial 60): no training date is that old, and the range check refuses them anyway.
 */
export function serialToDay(serial: number, date1904: boolean): number | null {
  // 2,958,465 is 31/12/9999, the last day a spreadsheet shows (a serial of 1e15 made an invalid Date).
  if (!Number.isFinite(serial) || serial < 0 || serial > 2_958_465) return null;
  const whole = Math.floor(serial + 1e-9);
  const ms = (date1904 ? EPOCH_1904 : EPOCH_1900) + whole * DAY_MS;
  const d = new Date(ms);
  const y = d.getUTCFullYear();
  if (y < 1900 || y > 2999) return null;
  return y * 10000 + (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
}

/** yyyymmdd → the serial of the 1900 system (used by the template's writer and the tests). */
export function dayToSerial(day: number, date1904 = false): number {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return Math.round((Date.UTC(y, m - 1, d) - (date1904 ? EPOCH_1904 : EPOCH_1900)) / DAY_MS);
}
