/**
 * The problems the page shows: the import's reading issues and the validation's errors and warnings,
 * each placed on a grid row and column, grouped by code and by column. Pure (no DOM).
 */
import { sheetPrefix } from '@ppfile/sheets/cells';
import type { BodyChange, DeclarationValidationResponse, ImportResult } from '../engine/protocol';
import { rowOfField, type RowIndex } from './body-grid';

export interface Problem {
  /** Its place in the page's list: the id of its entry and of the cell's description. */
  id: number;
  severity: 'error' | 'warning';
  code: string;
  /** The official column, or null for a problem of the whole file or of a row. */
  column: string | null;
  message: string;
  /** The grid row (0-based), or null when it points at no row of the body. */
  row: number | null;
  /** Where it is in the sheet (`Declarations!D7`), when known. */
  cell?: string;
}

/**
 * Where the import read things: its sheet, the sheet column of each official column, and the sheet
 * row of the grid rows the import's answer locates (each entry naming both a body path and a cell; a
 * declaration's entry is on its first row, in the body and in the sheet). The import's answer does
 * not say where the other rows were (empty rows are skipped, rows are grouped by declaration).
 */
export interface SheetPlaces {
  sheet: string;
  letters: ReadonlyMap<string, string>;
  sheetRows: ReadonlyMap<number, number>;
  gridRows: ReadonlyMap<number, number>;
}

const CELL = /^(?:.*!)?([A-Z]+)(\d+)$/;

export function sheetPlaces(result: ImportResult, index: RowIndex): SheetPlaces {
  const letters = new Map<string, string>();
  for (const m of result.mapping) {
    const at = CELL.exec(m.cell);
    if (at) letters.set(m.column, at[1]!);
  }
  const sheetRows = new Map<number, number>();
  const gridRows = new Map<number, number>();
  const note = (field: string | undefined, sheetRow: number | undefined) => {
    const row = rowOfField(field, index);
    if (row === null || sheetRow === undefined) return;
    sheetRows.set(row, sheetRow);
    gridRows.set(sheetRow, row);
  };
  const v = result.validation;
  for (const e of [...v.errors, ...v.warnings]) note(e.field, e.row);
  for (const n of v.normalizations) note(n.field, Number(CELL.exec(n.cell)?.[2] ?? NaN) || undefined);
  return { sheet: result.sheet, letters, sheetRows, gridRows };
}

/** The sheet reference of a grid cell, when the import said where that row and column were. */
export function cellRef(
  places: SheetPlaces | null,
  row: number | null,
  column: string | null,
): string | undefined {
  if (!places || row === null) return undefined;
  const sheetRow = places.sheetRows.get(row);
  const letter = column === null ? undefined : places.letters.get(column);
  if (sheetRow === undefined || letter === undefined) return undefined;
  return `${sheetPrefix(places.sheet)}!${letter}${sheetRow}`;
}

/** The import's answer as problems: reading issues (as warnings: the value was left out), then the validation's. */
export function importProblems(result: ImportResult, index: RowIndex, places: SheetPlaces): Problem[] {
  const out: Problem[] = [];
  for (const issue of result.issues) {
    out.push({
      id: out.length,
      severity: 'warning',
      code: issue.code,
      column: issue.column,
      message: issue.message,
      row: places.gridRows.get(issue.row) ?? null,
      cell: issue.cell,
    });
  }
  const v = result.validation;
  const add = (severity: Problem['severity']) => (e: (typeof v.errors)[number]) => {
    const row = rowOfField(e.field, index) ?? places.gridRows.get(e.row) ?? null;
    out.push({
      id: out.length,
      severity,
      code: e.code,
      column: e.column,
      message: e.message,
      row,
      cell: e.cell,
    });
  };
  v.errors.forEach(add('error'));
  v.warnings.forEach(add('warning'));
  return out;
}

/** A body's validation as problems; `row` of the API is the generated file's line (header = 1). */
export function validationProblems(
  response: DeclarationValidationResponse,
  index: RowIndex,
  places: SheetPlaces | null,
): Problem[] {
  const out: Problem[] = [];
  const add = (severity: Problem['severity']) => (e: (typeof response.errors)[number]) => {
    const byLine = e.row !== null && e.row >= 2 && e.row - 2 < index.rowCount ? e.row - 2 : null;
    const row = rowOfField(e.field, index) ?? byLine;
    const cell = cellRef(places, row, e.column);
    out.push({ id: out.length, severity, code: e.code, column: e.column, message: e.message, row, cell });
  };
  response.errors.forEach(add('error'));
  response.warnings.forEach(add('warning'));
  return out;
}

export interface ProblemGroup {
  /** The code or the column ('' for problems of no column). */
  key: string;
  errors: number;
  warnings: number;
}

/**
 * Problems counted by code or by column. Errors are counted from `exact` when given (the API's
 * `summary`, counted over every error, not only the 1,000 listed); warnings from the list.
 */
export function groupProblems(
  problems: readonly Problem[],
  by: 'code' | 'column',
  exact?: Record<string, number>,
): ProblemGroup[] {
  const groups = new Map<string, ProblemGroup>();
  const group = (key: string) => {
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { key, errors: 0, warnings: 0 }));
    return g;
  };
  for (const p of problems) {
    const g = group((by === 'code' ? p.code : p.column) ?? '');
    if (p.severity === 'warning') g.warnings++;
    else if (!exact) g.errors++;
  }
  if (exact) for (const [key, n] of Object.entries(exact)) group(key).errors = n;
  return [...groups.values()].sort(
    (a, b) => b.errors - a.errors || b.warnings - a.warnings || a.key.localeCompare(b.key),
  );
}

/** Key of a grid cell in problemsByCell. */
export const cellKey = (row: number, column: string): string => `${row}:${column}`;

/** The problems of each grid cell, errors first. */
export function problemsByCell(problems: readonly Problem[]): Map<string, Problem[]> {
  const out = new Map<string, Problem[]>();
  for (const p of problems) {
    if (p.row === null || p.column === null) continue;
    const key = cellKey(p.row, p.column);
    const list = out.get(key);
    if (list) list.push(p);
    else out.set(key, [p]);
  }
  for (const list of out.values())
    list.sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  return out;
}

/**
 * The grid row of a value the safe fixes changed: from its body path (`field`), else the first row of
 * its declaration (`row`, the declaration's index, 1-based).
 */
export function changeRow(change: BodyChange, index: RowIndex): number | null {
  return rowOfField(change.field, index) ?? index.rowOf(change.row - 1);
}
