import type { Issue } from '@ppfile/rules';
import { csvCell, errorReportCsv, errorReportHref, groupIssues } from './error-report';

const issue = (row: number | null, column: string | null, code: string, message: string): Issue =>
  ({ row, column, code, message }) as Issue;

describe('error report CSV', () => {
  it('has the header row,column,code,message, a BOM, CRLF, and one line per error', () => {
    const csv = errorReportCsv([
      issue(2, 'NIR', 'INVALID_NIR', 'The NIR is not valid.'),
      issue(null, null, 'EMPTY_FILE', 'The file is empty.'),
    ]);
    expect(csv).toBe(
      '\uFEFFrow,column,code,message\r\n2,NIR,INVALID_NIR,The NIR is not valid.\r\n,,EMPTY_FILE,The file is empty.\r\n',
    );
  });

  it('quotes commas, quotes and line breaks (RFC 4180)', () => {
    expect(csvCell('a, b')).toBe('"a, b"');
    expect(csvCell('say "x"')).toBe('"say ""x"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(null)).toBe('');
  });

  it('defuses cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1')).toBe("'-1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell(-1)).toBe('-1');
  });

  it('is offered as a data: URL that decodes to the same bytes (nothing kept on the server)', () => {
    const errors = [
      issue(3, 'DATE_DEBUT', 'INVALID_DATE', 'La date n’est pas valide, au format JJ/MM/AAAA.'),
    ];
    const href = errorReportHref(errors);
    expect(href.startsWith('data:text/csv;charset=utf-8,')).toBe(true);
    expect(decodeURIComponent(href.slice(href.indexOf(',') + 1))).toBe(errorReportCsv(errors));
  });
});

describe('groupIssues', () => {
  it('groups by code and by column with the summary’s counts, the listed rows and a first message', () => {
    const errors = [
      issue(2, 'NIR', 'INVALID_NIR', 'bad nir'),
      issue(2, 'DATE_DEBUT', 'INVALID_DATE', 'bad date'),
      issue(4, 'NIR', 'INVALID_NIR', 'bad nir again'),
      issue(null, null, 'DUPLICATE_HEADER', 'file level'),
    ];
    const { byCode, byColumn } = groupIssues({
      errors,
      // 1,200 NIR errors in all: only some listed.
      summary: {
        by_code: { INVALID_NIR: 1200, INVALID_DATE: 1, DUPLICATE_HEADER: 1, REQUIRED_FIELD: 3 },
        by_column: { NIR: 1200, DATE_DEBUT: 1 },
      },
    });
    expect(byCode).toEqual([
      { key: 'INVALID_NIR', count: 1200, rows: [2, 4], example: 'bad nir' },
      { key: 'REQUIRED_FIELD', count: 3, rows: [], example: '' },
      { key: 'DUPLICATE_HEADER', count: 1, rows: [], example: 'file level' },
      { key: 'INVALID_DATE', count: 1, rows: [2], example: 'bad date' },
    ]);
    expect(byColumn).toEqual([
      { key: 'NIR', count: 1200, rows: [2, 4], example: 'bad nir' },
      { key: 'DATE_DEBUT', count: 1, rows: [2], example: 'bad date' },
      { key: null, count: 1, rows: [], example: 'file level' },
    ]);
  });
});
