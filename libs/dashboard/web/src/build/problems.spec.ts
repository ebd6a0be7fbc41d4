import { describe, expect, it } from '@jest/globals';
import { validateDeclarations } from '@ppfile/rules';
import { NIR_A, NIR_B, validBody } from '@ppfile/rules/testing/fixtures';
import { ENV, importOf } from '@ppfile/sheets/testing/workbooks';
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
  validationProblems,
  type Problem,
} from './problems';

/**
 * A sheet whose rows are not in body order: declaration S2's rows are interleaved with S1's, and an
 * empty row is skipped. Row 4 (S1's second holder, grid row 1) has a wrong NIR; row 6 (S2's second
 * holder, grid row 3) an unreadable validity date. A sheet named after a file is quoted in references.
 */
const CSV = [
  'ID_DECLARATION;REFERENCE_DECLARATION;ID_UNIQUE_PARTENAIRE;NOM_FORMATION;DATE_DEBUT_FORMATION;DATE_FIN_FORMATION;NIR;NOM_TITULAIRE;DATE_DEBUT_VALIDITE',
  `S1;Ref 1;U1;SST;14/09/2026;15/09/2026;${NIR_A};DUPONT;15/09/2026`,
  `S2;Ref 2;U2;SST;14/09/2026;15/09/2026;${NIR_B};MARTIN;15/09/2026`,
  `S1;Ref 1;U3;SST;14/09/2026;15/09/2026;2991399999999;DURAND;15/09/2026`,
  ';;;;;;;;',
  `S2;Ref 2;U4;SST;14/09/2026;15/09/2026;${NIR_B};PETIT;demain`,
].join('\r\n');

function imported() {
  const result = importOf(Buffer.from(CSV), { filename: 'stagiaires.csv' });
  const index = new RowIndex(result.body);
  return { result, index, places: sheetPlaces(result, index) };
}

describe('problems of an import, placed on grid rows', () => {
  it('places each validation error on its grid row and column, with its sheet cell', () => {
    const { result, index, places } = imported();
    expect(index.rowCount).toBe(4);
    const problems = importProblems(result, index, places);
    const nir = problems.find((p) => p.code === 'INVALID_NIR')!;
    expect(nir).toMatchObject({ severity: 'error', column: 'NIR', row: 1, cell: "'stagiaires.csv'!G4" });
    // The anchor the error gives: grid row 1 was the sheet's row 4, and its NIR is in column G.
    expect(cellRef(places, 1, 'NIR')).toBe("'stagiaires.csv'!G4");
    expect(cellRef(places, 1, 'REFERENCE_EMPLOYEUR')).toBeUndefined();
  });

  it('lists the reading issues first, as warnings, placed when the answer located their row', () => {
    const { result, index, places } = imported();
    const problems = importProblems(result, index, places);
    const date = problems.find((p) => p.code === 'UNREADABLE_DATE')!;
    expect(problems[0]).toBe(date);
    expect(date).toMatchObject({
      severity: 'warning',
      column: 'DATE_DEBUT_VALIDITE',
      cell: "'stagiaires.csv'!I6",
    });
    // The date left out makes a REQUIRED_FIELD error at the same cell: that locates sheet row 6.
    expect(date.row).toBe(3);
    expect(problems.map((p) => p.id)).toEqual(problems.map((_, i) => i));
  });
});

describe('problems of a body checked again', () => {
  it('reads the API row as the generated file line, and names the sheet cell the import located', () => {
    const { result, index, places } = imported();
    const nir = kindColumns('adf').find((c) => c.name === 'NIR')!;
    const edited = setCell(result.body, index.at(1), nir, NIR_A);
    const response = validateDeclarations(edited, ENV);
    const problems = validationProblems(response, index, places);
    expect(problems.some((p) => p.code === 'INVALID_NIR')).toBe(false);
    const date = problems.find((p) => p.code === 'INVALID_DATE')!;
    expect(date).toMatchObject({ row: 3, column: 'DATE_DEBUT_VALIDITE', cell: "'stagiaires.csv'!I6" });
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
