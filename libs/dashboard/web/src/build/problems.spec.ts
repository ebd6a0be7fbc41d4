import { describe, expect, it } from '@jest/globals';
import { validateDeclarations } from '@ppfile/rules';
import { NIR_A, NIR_B, validBody } from '@ppfile/rules/testing/fixtures';
import { importSheetLocated } from '@ppfile/sheets';
import { ENV } from '@ppfile/sheets/testing/workbooks';
import type { BodyChange } from '../engine/protocol';
import { RowIndex, setCell, kindColumns } from './body-grid';
import {
  cellKey,
  cellRef,
  changeRow,
  groupProblems,
  importProblems,
  problemsByCell,
  sheetPlaces,
  sheetRowOf,
  validationProblems,
  type Problem,
} from './problems';

/**
 * A sheet whose rows are not in body order: declaration S2's rows are interleaved with S1's, and an
 * empty row is skipped. Body order (grid rows 0–4): S1's rows 2, 4, 7, then S2's rows 3, 6. Row 4
 * (grid row 1) has a wrong NIR; row 6 (grid row 4) an unreadable validity date; row 7 (grid row 2) a
 * training name that differs from its declaration's first row (a reading issue on a row the
 * validation finds nothing wrong with). A sheet named after a file is quoted in references.
 */
const CSV = [
  'ID_DECLARATION;REFERENCE_DECLARATION;ID_UNIQUE_PARTENAIRE;NOM_FORMATION;DATE_DEBUT_FORMATION;DATE_FIN_FORMATION;NIR;NOM_TITULAIRE;DATE_DEBUT_VALIDITE',
  `S1;Ref 1;U1;SST;14/09/2026;15/09/2026;${NIR_A};DUPONT;15/09/2026`,
  `S2;Ref 2;U2;SST;14/09/2026;15/09/2026;${NIR_B};MARTIN;15/09/2026`,
  `S1;Ref 1;U3;SST;14/09/2026;15/09/2026;2991399999999;DURAND;15/09/2026`,
  ';;;;;;;;',
  `S2;Ref 2;U4;SST;14/09/2026;15/09/2026;${NIR_B};PETIT;demain`,
  `S1;Ref 1;U5;Secourisme;14/09/2026;15/09/2026;${NIR_B};LEROY;15/09/2026`,
].join('\r\n');

function imported() {
  const { result, located } = importSheetLocated(
    Buffer.from(CSV),
    { type: 'adf', declarant: 'employer', filename: 'stagiaires.csv' },
    ENV,
  );
  const index = new RowIndex(result.body);
  return { result, index, places: sheetPlaces(located) };
}

describe('sheetPlaces (grid rows ↔ the person’s sheet rows)', () => {
  it('knows the sheet row and cell of every grid row, and the grid row of every sheet row read', () => {
    const { index, places } = imported();
    expect(index.rowCount).toBe(5);
    expect([0, 1, 2, 3, 4].map((r) => sheetRowOf(places, r))).toEqual([2, 4, 7, 3, 6]);
    expect([...places.gridRows]).toEqual([
      [2, 0],
      [4, 1],
      [7, 2],
      [3, 3],
      [6, 4],
    ]);
    expect(cellRef(places, 0, 'NOM_TITULAIRE')).toBe("'stagiaires.csv'!H2");
    expect(cellRef(places, 4, 'DATE_DEBUT_VALIDITE')).toBe("'stagiaires.csv'!I6");
    // A column the sheet does not have, a row past the body, no places: no cell.
    expect(cellRef(places, 1, 'REFERENCE_EMPLOYEUR')).toBeUndefined();
    expect(cellRef(places, 5, 'NIR')).toBeUndefined();
    expect(cellRef(null, 1, 'NIR')).toBeUndefined();
    expect(sheetRowOf(places, null)).toBeNull();
  });

  it('names a sheet as A1 notation does: plain when it can, quoted otherwise', () => {
    const places = sheetPlaces({ sheet: 'Stagiaires', rows: [7], columns: { NIR: 'E' } });
    expect(cellRef(places, 0, 'NIR')).toBe('Stagiaires!E7');
  });
});

describe('problems of an import, placed on grid rows', () => {
  it('places each validation error on its grid row and column, with its sheet row and cell', () => {
    const { result, index, places } = imported();
    const problems = importProblems(result, index, places);
    const nir = problems.find((p) => p.code === 'INVALID_NIR')!;
    expect(nir).toMatchObject({
      severity: 'error',
      column: 'NIR',
      row: 1,
      sheetRow: 4,
      cell: "'stagiaires.csv'!G4",
    });
  });

  it('lists the reading issues first, as warnings, each on the grid row of its sheet row', () => {
    const { result, index, places } = imported();
    const problems = importProblems(result, index, places);
    const reading = problems.filter(
      (p) => p.code === 'UNREADABLE_DATE' || p.code === 'DECLARATION_VALUES_DIFFER',
    );
    expect(problems.slice(0, 2)).toEqual(reading);
    expect(reading).toEqual([
      expect.objectContaining({
        severity: 'warning',
        code: 'UNREADABLE_DATE',
        column: 'DATE_DEBUT_VALIDITE',
        row: 4,
        sheetRow: 6,
        cell: "'stagiaires.csv'!I6",
      }),
      // No validation entry names row 7: the reading issue is placed all the same.
      expect.objectContaining({
        code: 'DECLARATION_VALUES_DIFFER',
        column: 'NOM_FORMATION',
        row: 2,
        sheetRow: 7,
        cell: "'stagiaires.csv'!D7",
      }),
    ]);
    expect(problems.map((p) => p.id)).toEqual(problems.map((_, i) => i));
    // Every problem that names a data row of the sheet is on the grid.
    const dataRows = new Set(places.gridRows.keys());
    for (const p of problems) if (p.sheetRow !== null) expect(dataRows.has(p.sheetRow)).toBe(true);
    expect(problems.filter((p) => p.row === null).every((p) => p.sheetRow === null)).toBe(true);
  });

  it('leaves a problem of the whole file off the grid (the import names it at the header row)', () => {
    const { result, index, places } = imported();
    const whole = {
      ...result,
      issues: [],
      validation: {
        ...result.validation,
        errors: [],
        warnings: [
          { row: 1, cell: "'stagiaires.csv'!1:1", column: null, code: 'NO_DATA_ROWS', message: 'm' },
        ],
      },
    } as typeof result;
    expect(importProblems(whole, index, places)).toEqual([
      expect.objectContaining({ row: null, sheetRow: null, cell: "'stagiaires.csv'!1:1" }),
    ]);
  });
});

describe('problems of a body checked again', () => {
  it('reads the API row as the generated file line, and names the sheet row and cell it was read from', () => {
    const { result, index, places } = imported();
    const nir = kindColumns('adf').find((c) => c.name === 'NIR')!;
    const edited = setCell(result.body, index.at(1), nir, NIR_A);
    const response = validateDeclarations(edited, ENV);
    const problems = validationProblems(response, index, places);
    expect(problems.some((p) => p.code === 'INVALID_NIR')).toBe(false);
    const date = problems.find((p) => p.code === 'INVALID_DATE')!;
    expect(date).toMatchObject({ row: 4, sheetRow: 6, cell: "'stagiaires.csv'!I6" });
    // Every entry on a row of the body has its sheet row.
    for (const p of problems) expect(p.sheetRow).toBe(p.row === null ? null : sheetRowOf(places, p.row));
    expect(problems.some((p) => p.row !== null)).toBe(true);
  });

  it('falls back on the line when an entry has no body path', () => {
    const index = new RowIndex({
      type: 'adf',
      declarant: 'employer',
      spec_version: '2026-02',
      declarations: [{ holders: [{}, {}] }],
    });
    const entry = (row: number | null) => ({
      row,
      column: 'NIR',
      code: 'INVALID_NIR' as const,
      message: 'm',
    });
    const response = {
      ...validateDeclarations(validBody('adf', 'employer'), ENV),
      errors: [entry(3), entry(1), entry(null), entry(9)],
    };
    expect(validationProblems(response, index, null).map((p) => p.row)).toEqual([1, null, null, null]);
  });
});

const problem = (over: Partial<Problem>): Problem => ({
  id: 0,
  severity: 'error',
  code: 'INVALID_NIR',
  column: 'NIR',
  message: '',
  row: 0,
  sheetRow: null,
  ...over,
});

describe('groupProblems', () => {
  const problems = [
    problem({ code: 'INVALID_NIR', column: 'NIR' }),
    problem({ code: 'INVALID_NIR', column: 'NIR' }),
    problem({ code: 'REQUIRED_FIELD', column: 'NOM_TITULAIRE' }),
    problem({ severity: 'warning', code: 'DUPLICATE_HOLDER', column: 'NIR' }),
    problem({ severity: 'warning', code: 'FILING_DEADLINE_PASSED', column: null }),
  ];

  it('counts errors and warnings by code and by column, the most errors first', () => {
    expect(groupProblems(problems, 'code')).toEqual([
      { key: 'INVALID_NIR', errors: 2, warnings: 0 },
      { key: 'REQUIRED_FIELD', errors: 1, warnings: 0 },
      { key: 'DUPLICATE_HOLDER', errors: 0, warnings: 1 },
      { key: 'FILING_DEADLINE_PASSED', errors: 0, warnings: 1 },
    ]);
    expect(groupProblems(problems, 'column')).toEqual([
      { key: 'NIR', errors: 2, warnings: 1 },
      { key: 'NOM_TITULAIRE', errors: 1, warnings: 0 },
      { key: '', errors: 0, warnings: 1 },
    ]);
  });

  it('takes the error counts from the summary when given (every error, not only those listed)', () => {
    expect(
      groupProblems(problems, 'code', { INVALID_NIR: 1500, REQUIRED_FIELD: 1, INVALID_DATE: 3 }),
    ).toEqual([
      { key: 'INVALID_NIR', errors: 1500, warnings: 0 },
      { key: 'INVALID_DATE', errors: 3, warnings: 0 },
      { key: 'REQUIRED_FIELD', errors: 1, warnings: 0 },
      { key: 'DUPLICATE_HOLDER', errors: 0, warnings: 1 },
      { key: 'FILING_DEADLINE_PASSED', errors: 0, warnings: 1 },
    ]);
  });
});

describe('problemsByCell', () => {
  it('keys the problems of a cell, errors first, and leaves out those of no row or column', () => {
    const warning = problem({ id: 1, severity: 'warning', row: 2 });
    const error = problem({ id: 2, row: 2 });
    const map = problemsByCell([
      warning,
      error,
      problem({ id: 3, row: null }),
      problem({ id: 4, column: null }),
    ]);
    expect([...map.keys()]).toEqual([cellKey(2, 'NIR')]);
    expect(map.get(cellKey(2, 'NIR'))).toEqual([error, warning]);
  });
});

describe('changeRow (where a safe fix changed a value)', () => {
  const index = new RowIndex({
    type: 'adf',
    declarant: 'employer',
    spec_version: '2026-02',
    declarations: [{ holders: [{}, {}] }, { holders: [{}] }],
  });
  const change = (field: string, row: number): BodyChange => ({
    row,
    field,
    column: 'NIR',
    rule: 'SEPARATORS_REMOVED',
    from: 'a',
    to: 'b',
  });

  it('reads the body path first, else the first row of the declaration (row: its index, 1-based)', () => {
    expect(changeRow(change('declarations[1].holders[0].nir', 2), index)).toBe(2);
    expect(changeRow(change('declarations[0].holders[1].nir', 1), index)).toBe(1);
    expect(changeRow(change('declarations[0].training.start_date', 1), index)).toBe(0);
    expect(changeRow(change('nir', 2), index)).toBe(2);
    expect(changeRow(change('nir', 9), index)).toBeNull();
  });
});
