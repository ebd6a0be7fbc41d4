import { NIR_A, NIR_B } from '@ppfile/rules/testing/fixtures';
import { importSheet, importSheetLocated, type ImportRequest } from './importer';
import { ENV, sheet } from './testing/workbooks';
import { writeWorkbook, type CellInput } from './xlsx-writer';

const REQ: ImportRequest = { type: 'adf', declarant: 'employer', filename: 'stagiaires.xlsx' };

/** Official columns in an order of the person's: NIR in column B, the declaration's id in D. */
const HEADERS = [
  'NOM_TITULAIRE',
  'NIR',
  'Commentaire',
  'ID_DECLARATION',
  'REFERENCE_DECLARATION',
  'ID_UNIQUE_PARTENAIRE',
  'NOM_FORMATION',
  'DATE_DEBUT_FORMATION',
  'DATE_FIN_FORMATION',
  'DATE_DEBUT_VALIDITE',
];

const row = (name: string, nir: string, id: string, unique: string): CellInput[] => [
  name,
  nir,
  null,
  id,
  `Ref ${id}`,
  unique,
  'SST',
  '14/09/2026',
  '15/09/2026',
  '15/09/2026',
];

/**
 * A title and an empty row above the headers (on row 3), then S1 and S2 interleaved, an empty row
 * skipped and a row whose only cell is unmapped (not a holder either).
 */
const ROWS: CellInput[][] = [
  ['Stagiaires de septembre'],
  [],
  HEADERS,
  row('DUPONT', NIR_A, 'S1', 'U1'),
  row('MARTIN', NIR_B, 'S2', 'U2'),
  [],
  row('DURAND', '2991399999999', 'S1', 'U3'),
  [null, null, 'rien'],
  row('PETIT', NIR_B, 'S2', 'U4'),
  row('LEROY', NIR_A, 'S3', 'U5'),
];

/** Every holder's sheet row, body order: S1's (rows 4, 7), S2's (5, 9), S3's (10). */
const HOLDER_ROWS = [4, 7, 5, 9, 10];

const LETTERS = {
  NOM_TITULAIRE: 'A',
  NIR: 'B',
  ID_DECLARATION: 'D',
  REFERENCE_DECLARATION: 'E',
  ID_UNIQUE_PARTENAIRE: 'F',
  NOM_FORMATION: 'G',
  DATE_DEBUT_FORMATION: 'H',
  DATE_FIN_FORMATION: 'I',
  DATE_DEBUT_VALIDITE: 'J',
};

/** The holders' birth names in body order. */
const names = (body: { declarations: Record<string, unknown>[] }) =>
  body.declarations.flatMap((d) => (d.holders as { birth_name: string }[]).map((h) => h.birth_name));

describe('importSheetLocated: where each holder of the body was in the sheet', () => {
  it('gives every holder’s sheet row in body order (declarations whose rows interleave, a header row on row 3)', () => {
    const bytes = writeWorkbook({ sheets: [{ name: 'Stagiaires', rows: ROWS }] });
    const { result, located } = importSheetLocated(bytes, REQ, ENV);
    expect(result.header_row).toBe(3);
    expect(names(result.body)).toEqual(['DUPONT', 'DURAND', 'MARTIN', 'PETIT', 'LEROY']);
    expect(located).toEqual({ sheet: 'Stagiaires', rows: HOLDER_ROWS, columns: LETTERS });
    // The rows the answer's own cell references name agree: DURAND's NIR (S1's second holder) is B7.
    const nir = result.validation.errors.find((e) => e.code === 'INVALID_NIR')!;
    expect(nir.cell).toBe('Stagiaires!B7');
    expect(nir.field).toBe('declarations[0].holders[1].nir');
  });

  it('leaves the answer as importSheet gives it, to the byte', () => {
    const bytes = writeWorkbook({ sheets: [{ name: 'Stagiaires', rows: ROWS }] });
    const { result } = importSheetLocated(bytes, REQ, ENV);
    expect(JSON.stringify(result)).toBe(JSON.stringify(importSheet(bytes, REQ, ENV)));
    expect(Object.keys(result)).not.toContain('located');
  });

  it('locates a CSV’s rows (its sheet: the file’s name), blank lines included in the count', () => {
    const csv = ROWS.map((r) => r.map((c) => (typeof c === 'string' ? c : '')).join(';'));
    const bytes = Buffer.from(csv.join('\r\n'));
    const req = { ...REQ, filename: 'stagiaires.csv' };
    const { result, located } = importSheetLocated(bytes, req, ENV);
    expect(located).toEqual({ sheet: 'stagiaires.csv', rows: HOLDER_ROWS, columns: LETTERS });
    expect(JSON.stringify(result)).toBe(JSON.stringify(importSheet(bytes, req, ENV)));
  });

  it('skips the template’s label row under the headers, and a second sheet is located by its own name', () => {
    const labels = HEADERS.map((h) => (h === 'Commentaire' ? null : h));
    const bytes = writeWorkbook({
      sheets: [
        { name: 'Notes', rows: [['rien ici']] },
        { name: 'Feuille 2', rows: [HEADERS, labels, row('DUPONT', NIR_A, 'S1', 'U1')] },
      ],
    });
    const { located } = importSheetLocated(bytes, REQ, ENV);
    expect(located.sheet).toBe('Feuille 2');
    expect(located.rows).toEqual([3]);
  });

  it('has no rows for a sheet of headers only, and no letters for the columns not found', () => {
    const { located } = importSheetLocated(sheet([['NIR', 'NOM_TITULAIRE', 'ID_DECLARATION']]), REQ, ENV);
    expect(located).toEqual({
      sheet: 'Declarations',
      rows: [],
      columns: { NOM_TITULAIRE: 'B', NIR: 'A', ID_DECLARATION: 'C' },
    });
  });
});
