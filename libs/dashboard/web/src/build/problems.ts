/**
 * The problems the page shows: the import's reading issues and the validation's errors and warnings,
 * each placed on a grid row and column, grouped by code and by column. Pure (no DOM).
 */
import { sheetPrefix } from '@ppfile/sheets/cells';
import type {
  BodyChange,
  DeclarationValidationResponse,
  ImportResult,
  SheetLocation,
} from '../engine/protocol';
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
  /** The row of the person's sheet that grid row was read from, when known. */
  sheetRow: number | null;
  /** Where it is in the sheet (`Declarations!D7`), when known. */
  cell?: string;
}

/**
 * Where the import read the body (the engine's `located`, beside the import's answer): its sheet,
 * the column letters of each official column, the sheet row of each grid row and back. Edits and
 * the safe fixes change values, never the body's rows: the places hold until another import.
 */
export interface SheetPlaces {
  sheet: string;
  letters: ReadonlyMap<string, string>;
  /** sheetRows[gridRow]: its sheet row. */
  sheetRows: readonly number[];
  /** Sheet row → grid row. */
  gridRows: ReadonlyMap<number, number>;
}

export function sheetPlaces(located: SheetLocation): SheetPlaces {
  const gridRows = new Map<number, number>();
  located.rows.forEach((sheetRow, row) => gridRows.set(sheetRow, row));
  return {
    sheet: located.sheet,
    letters: new Map(Object.entries(located.columns)),
    sheetRows: located.rows,
    gridRows,
  };
}

/** The sheet row of a grid row, when known. */
export function sheetRowOf(places: SheetPlaces | null, row: number | null): number | null {
  return (row === null ? undefined : places?.sheetRows[row]) ?? null;
}

/** The sheet reference of a grid cell (`Stagiaires!E7`), when its row and column came from the sheet. */
export function cellRef(
  places: SheetPlaces | null,
  row: number | null,
  column: string | null,
): string | undefined {
  const sheetRow = sheetRowOf(places, row);
  const letter = column === null ? undefined : places?.letters.get(column);
  if (sheetRow === null || letter === undefined) return undefined;
  return `${sheetPrefix(places!.sheet)}!${letter}${sheetRow}`;
}

/**
 * The import's answer as problems: reading issues (as warnings: the value was left out), then the
 * validation's. A reading issue names a sheet row: its grid row is the holder read from that row.
 */
export function importProblems(result: ImportResult, index: RowIndex, places: SheetPlaces): Problem[] {
  const out: Problem[] = [];
  for (const issue of result.issues) {
    const row = places.gridRows.get(issue.row) ?? null;
    out.push({
      id: out.length,
      severity: 'warning',
      code: issue.code,
      column: issue.column,
      message: issue.message,
      row,
      sheetRow: row === null ? null : issue.row,
      cell: issue.cell,
    });
  }
  const v = result.validation;
  const add = (severity: Problem['severity']) => (e: (typeof v.errors)[number]) => {
    // An entry of the whole file names the header row: no grid row.
    const row = rowOfField(e.field, index) ?? places.gridRows.get(e.row) ?? null;
    out.push({
      id: out.length,
      severity,
      code: e.code,
      column: e.column,
      message: e.message,
      row,
      sheetRow: sheetRowOf(places, row),
      cell: e.cell,
    });
  };
  v.errors.forEach(add('error'));
  v.warnings.forEach(add('warning'));
  return out;
}

/**
 * A body's validation as problems; `row` of the API is the generated file's line (header = 1), the
 * holder's place in the body: its sheet row and cell come from the import's places.
 */
export function validationProblems(
  response: DeclarationValidationResponse,
  index: RowIndex,
  places: SheetPlaces | null,
): Problem[] {
  const out: Problem[] = [];
  const add = (severity: Problem['severity']) => (e: (typeof response.errors)[number]) => {
    const byLine = e.row !== null && e.row >= 2 && e.row - 2 < index.rowCount ? e.row - 2 : null;
    const row = rowOfField(e.field, index) ?? byLine;
    out.push({
      id: out.length,
      severity,
      code: e.code,
      column: e.column,
      message: e.message,
      row,
      sheetRow: sheetRowOf(places, row),
      cell: cellRef(places, row, e.column),
    });
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
