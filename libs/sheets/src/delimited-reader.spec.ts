import { NIR_A, NIR_B } from '@ppfile/rules/testing/fixtures';
import { sniffDelimited } from './delimited-reader';
import { importOf } from './testing/workbooks';

const HEADER = [
  'Session',
  'Référence',
  'ID unique',
  'Formation',
  'Date de début',
  'Date de fin',
  'NIR',
  'Nom de naissance',
  'Début de validité',
];
const ROW_A = ['S1', 'Session 1', 'U1', 'SST', '14/09/2026', '15/09/2026', NIR_A, 'BÉRANGER', '15/09/2026'];
const ROW_B = ['S1', 'Session 1', 'U2', 'SST', '14/09/2026', '15/09/2026', NIR_B, 'GARÇON', '15/09/2026'];

const csv = (sep: string, rows: string[][], eol = '\r\n') => rows.map((r) => r.join(sep)).join(eol) + eol;
const windows1252 = (text: string) => Buffer.from([...text].map((c) => c.charCodeAt(0)));

describe('import of CSV and TSV (API.md §14)', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['|', 'pipe'],
    ['\t', 'tab'],
  ])('detects the separator %j (%s) and reads the rows', (sep) => {
    const text = csv(sep, [HEADER, ROW_A, ROW_B]);
    expect(sniffDelimited(Buffer.from(text)).separator).toBe(sep);
    const r = importOf(Buffer.from(text), { filename: 'stagiaires.csv' });
    expect(r.sheet).toBe('stagiaires.csv');
    expect(r.rows_read).toBe(2);
    expect(r.validation.valid).toBe(true);
    const holders = r.body.declarations[0]!.holders as Record<string, string>[];
    expect(holders.map((h) => h.birth_name)).toEqual(['BÉRANGER', 'GARÇON']);
  });

  it('detects UTF-8 with a BOM and Windows-1252', () => {
    const text = csv(';', [HEADER, ROW_A]);
    for (const bytes of [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      windows1252(text),
    ]) {
      const r = importOf(bytes, { filename: 'export.csv' });
      expect((r.body.declarations[0]!.holders as Record<string, string>[])[0]!.birth_name).toBe('BÉRANGER');
      expect(r.mapping[0]).toMatchObject({ header: 'Session', column: 'ID_DECLARATION', cell: 'A1' });
    }
    expect(sniffDelimited(windows1252(text)).encoding).toBe('windows-1252');
  });

  it('reads quoted fields (separators, quotes and line breaks inside) and names cells after the file', () => {
    const header = [...HEADER, 'Codes ROME'];
    const rows = [
      header.join(','),
      [...ROW_A.slice(0, 3), '"SST, recyclage ""2026"""', ...ROW_A.slice(4), '"115650\n121885"'].join(','),
      [...ROW_B.slice(0, 6), '9550814168025', ...ROW_B.slice(7), ''].join(','),
    ].join('\r\n');
    const r = importOf(Buffer.from(rows), { filename: 'stagiaires 2026.csv' });
    const decl = r.body.declarations[0]!;
    expect((decl.training as Record<string, string>).name).toBe('SST, recyclage "2026"');
    expect(decl.transferable_skills).toEqual(['115650', '121885']);
    expect(r.issues).toEqual([
      expect.objectContaining({ cell: "'stagiaires 2026.csv'!D3", code: 'DECLARATION_VALUES_DIFFER' }),
    ]);
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({
        cell: "'stagiaires 2026.csv'!G3",
        row: 3,
        column: 'NIR',
        code: 'INVALID_NIR',
      }),
    );
  });

  it('with `|` (the official format), a quote is an ordinary character', () => {
    const r = importOf(Buffer.from(csv('|', [HEADER, ['"S1"', ...ROW_A.slice(1)]])), { filename: 'f.csv' });
    expect(r.body.declarations[0]!.id).toBe('"S1"');
  });
});
