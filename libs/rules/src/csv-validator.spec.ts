/**
 * The streaming CSV reader (API.md §4 "Reading an uploaded CSV"): file-level problems, line
 * splitting, line endings, and chunk independence.
 */
import { createCsvValidator } from './api';
import type { FileValidationResponse } from './csv-validator';
import {
  body,
  checkCsv,
  colIndex,
  columnsOf,
  csvBytes,
  csvFile,
  csvText,
  generatedRows,
  holderOf,
  holders,
  KINDS,
  located,
  testEnv,
  training,
  withCells,
} from './testing/format-helpers';
import { generateFile } from './api';

const ADF = columnsOf('adf');
const validRows = (): string[][] => generatedRows(body('adf', 'employer', 2));

function rejected(r: FileValidationResponse, errors: { row: number | null; code: string }[]): void {
  expect(r.valid).toBe(false);
  expect(r.file_rejected).toBe(true);
  expect(located(r.errors)).toEqual(errors.map((e) => ({ ...e, column: null })));
  expect(r.error_count).toBe(errors.length);
  expect([r.rows_total, r.rows_valid, r.rows_invalid]).toEqual([0, 0, 0]);
  expect(r.warnings).toEqual([]);
}

describe('a generated file', () => {
  it.each(KINDS)('of kind %s / %s validates with no issue', (type, declarant) => {
    const file = generateFile(body(type, declarant, 3), testEnv());
    const r = checkCsv(file.content, type, declarant, { filename: file.filename });
    expect(r).toEqual({
      valid: true,
      spec_version: '2026-02',
      file_rejected: false,
      rows_total: 3,
      rows_valid: 3,
      rows_invalid: 0,
      error_count: 0,
      truncated: false,
      errors: [],
      warning_count: 0,
      warnings: [],
      summary: { by_code: {}, by_column: {} },
    });
  });
});

describe('EMPTY_FILE', () => {
  it('no bytes at all', () => {
    const r = checkCsv(Buffer.alloc(0), 'adf', 'employer');
    rejected(r, [{ row: null, code: 'EMPTY_FILE' }]);
    expect(r.errors[0]!.message).toBe('The file is empty: it has no header line.');
    expect(r.summary).toEqual({ by_code: { EMPTY_FILE: 1 }, by_column: {} });
  });

  it.each(['\r\n', '\n', '\r\n\r\n'])('an empty first line (%j)', (text) => {
    rejected(checkCsv(Buffer.from(text), 'adf', 'employer'), [{ row: null, code: 'EMPTY_FILE' }]);
  });
});

describe('INVALID_ENCODING', () => {
  it('bytes that are not UTF-8 in a data line', () => {
    const rows = validRows();
    rows[1] = withCells('adf', rows[1]!, { NOM_TITULAIRE: 'HÉLÈNE' });
    const utf8 = csvFile('adf', rows);
    const latin1 = Buffer.from(utf8.toString('utf8'), 'latin1');
    const r = checkCsv(latin1, 'adf', 'employer');
    rejected(r, [{ row: null, code: 'INVALID_ENCODING' }]);
    expect(r.errors[0]!.message).toContain('bytes that are not UTF-8');
  });

  it('bytes that are not UTF-8 on the last line, without a final line break', () => {
    const bytes = Buffer.concat([csvFile('adf', validRows()), Buffer.from([0x41, 0xff, 0x42])]);
    rejected(checkCsv(bytes, 'adf', 'employer'), [{ row: null, code: 'INVALID_ENCODING' }]);
  });

  it('a byte-order mark', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), csvFile('adf', validRows())]);
    const r = checkCsv(bytes, 'adf', 'employer');
    rejected(r, [{ row: null, code: 'INVALID_ENCODING' }]);
    expect(r.errors[0]!.message).toContain('byte-order mark');
  });

  it('UTF-16 with its BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(csvText([ADF]), 'utf16le')]);
    rejected(checkCsv(bytes, 'adf', 'employer'), [{ row: null, code: 'INVALID_ENCODING' }]);
  });
});

describe('INVALID_SEPARATOR', () => {
  it.each([';', ',', '\t'])('a header separated by %j', (separator) => {
    const text = csvText([ADF.join(separator), ...validRows().map((r) => r.join(separator))]);
    const r = checkCsv(Buffer.from(text), 'adf', 'employer');
    rejected(r, [{ row: 1, code: 'INVALID_SEPARATOR' }]);
  });
});

describe('INVALID_HEADER (rows are then not analysed)', () => {
  const header = (names: string[]) =>
    checkCsv(csvBytes([names, ...validRows().map((r) => r.map(() => 'x'))]), 'adf', 'employer');

  it('two columns swapped', () => {
    const names = [...ADF];
    [names[1], names[2]] = [names[2]!, names[1]!];
    const r = header(names);
    rejected(r, [{ row: 1, code: 'INVALID_HEADER' }]);
    expect(r.errors[0]!.message).toBe(
      'The header does not match the official columns for this file kind (20 columns expected; first difference at column 2, expected REFERENCE_DECLARATION).',
    );
  });

  it('a missing last column', () => {
    const r = header(ADF.slice(0, -1));
    rejected(r, [{ row: 1, code: 'INVALID_HEADER' }]);
    expect(r.errors[0]!.message).toContain('column 20, expected DATE_FIN_VALIDITE');
  });

  it('an extra column', () => {
    const r = header([...ADF, 'COMMENTAIRE']);
    rejected(r, [{ row: 1, code: 'INVALID_HEADER' }]);
    expect(r.errors[0]!.message).toContain('column 21, expected (end of line)');
  });

  it('lower-case names', () => {
    rejected(header(ADF.map((n) => n.toLowerCase())), [{ row: 1, code: 'INVALID_HEADER' }]);
  });

  it('the header of the other file type', () => {
    const jdr = generateFile(body('jdr', 'employer'), testEnv()).content;
    rejected(checkCsv(jdr, 'adf', 'employer'), [{ row: 1, code: 'INVALID_HEADER' }]);
  });
});

describe('INVALID_FILENAME', () => {
  const file = () => csvFile('adf', validRows());

  it.each([
    ['201 characters', `${'a'.repeat(197)}.csv`],
    ...['@', '<', '>', ':', '"', '/', '\\', '|', '?', '*', '%'].map((c) => [
      `the character ${c}`,
      `export${c}1.csv`,
    ]),
    ['a .txt extension', 'export.txt'],
    ['no extension', 'export'],
    ['.csv not at the end', 'export.csv.bak'],
  ])('%s', (_name, filename) => {
    const r = checkCsv(file(), 'adf', 'employer', { filename });
    rejected(r, [{ row: null, code: 'INVALID_FILENAME' }]);
  });

  it.each([`${'a'.repeat(196)}.csv`, 'ppfile_adf_20261122_1a2b3c4d.csv', 'Export SST (2026) é.csv'])(
    'accepts %j',
    (filename) => {
      expect(checkCsv(file(), 'adf', 'employer', { filename }).valid).toBe(true);
    },
  );

  it('counts characters, not bytes', () => {
    expect(checkCsv(file(), 'adf', 'employer', { filename: `${'é'.repeat(196)}.csv` }).valid).toBe(true);
  });

  it('is reported together with a header problem', () => {
    const r = checkCsv(csvBytes([ADF.join(';')]), 'adf', 'employer', { filename: 'a?.csv' });
    rejected(r, [
      { row: null, code: 'INVALID_FILENAME' },
      { row: 1, code: 'INVALID_SEPARATOR' },
    ]);
  });
});

describe('COLUMN_COUNT (column null)', () => {
  it('a line with one field too few or too many', () => {
    const rows = generatedRows(body('adf', 'employer', 3));
    rows[1] = rows[1]!.slice(0, -1);
    rows[2] = [...rows[2]!, 'extra'];
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([
      { row: 3, column: null, code: 'COLUMN_COUNT' },
      { row: 4, column: null, code: 'COLUMN_COUNT' },
    ]);
    expect(r.errors.map((e) => e.message)).toEqual([
      'The line has 19 fields; the header has 20.',
      'The line has 21 fields; the header has 20.',
    ]);
    expect([r.file_rejected, r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([false, 3, 2, 1]);
    expect(r.summary).toEqual({ by_code: { COLUMN_COUNT: 2 }, by_column: {} });
  });

  it('an empty line in the middle', () => {
    const [r1, r2] = validRows();
    const r = checkCsv(csvBytes([ADF, r1!, '', r2!]), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 3, column: null, code: 'COLUMN_COUNT' }]);
    expect(r.errors[0]!.message).toBe('The line has 0 fields; the header has 20.');
    expect([r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([3, 1, 2]);
  });

  it('a final empty line is ignored', () => {
    const r = checkCsv(csvBytes([ADF, ...validRows(), '']), 'adf', 'employer');
    expect(r.valid).toBe(true);
    expect(r.rows_total).toBe(2);
    expect(r.warnings).toEqual([]);
  });

  it('of two empty lines at the end, only the last is final', () => {
    const r = checkCsv(csvBytes([ADF, ...validRows(), '', '']), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 4, column: null, code: 'COLUMN_COUNT' }]);
  });

  it('a last line without a line break is read', () => {
    const text = csvText([ADF, ...validRows()]).slice(0, -2);
    const r = checkCsv(Buffer.from(text), 'adf', 'employer');
    expect([r.valid, r.rows_total]).toEqual([true, 2]);
    expect(r.warnings).toEqual([]);
  });
});

describe('LF_LINE_ENDINGS', () => {
  it('warns once, for the whole file, when lines end with LF only', () => {
    const r = checkCsv(csvFile('adf', validRows(), '\n'), 'adf', 'employer');
    expect(r.valid).toBe(true);
    expect(r.rows_total).toBe(2);
    expect(located(r.warnings)).toEqual([{ row: null, column: null, code: 'LF_LINE_ENDINGS' }]);
    expect(r.warnings[0]!.message).toBe('Lines end with LF only; the official format uses CRLF.');
  });

  it('warns for a single LF-only line among CRLF lines', () => {
    const [r1, r2] = validRows();
    const text = `${ADF.join('|')}\r\n${r1!.join('|')}\n${r2!.join('|')}\r\n`;
    expect(located(checkCsv(Buffer.from(text), 'adf', 'employer').warnings)).toEqual([
      { row: null, column: null, code: 'LF_LINE_ENDINGS' },
    ]);
  });

  it('reads LF-only lines like CRLF ones (same errors)', () => {
    const rows = validRows();
    rows[1] = withCells('adf', rows[1]!, { NIR: '123' });
    const crlf = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    const lf = checkCsv(csvFile('adf', rows, '\n'), 'adf', 'employer');
    expect(lf.errors).toEqual(crlf.errors);
    expect(located(lf.errors)).toEqual([{ row: 3, column: 'NIR', code: 'INVALID_NIR' }]);
  });
});

describe('cells', () => {
  it('a CR inside a cell is an INVALID_CHARACTER, a trailing CR is the line ending', () => {
    const rows = validRows();
    rows[0] = withCells('adf', rows[0]!, { REFERENCE_EMPLOYEUR: 'RH\r7' });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 2, column: 'REFERENCE_EMPLOYEUR', code: 'INVALID_CHARACTER' }]);
  });

  it('splits on | only: quotes are ordinary characters', () => {
    const rows = validRows();
    rows[0] = withCells('adf', rows[0]!, { REFERENCE_EMPLOYEUR: '"RH' });
    rows[1] = withCells('adf', rows[1]!, { REFERENCE_EMPLOYEUR: '7"' });
    expect(checkCsv(csvFile('adf', rows), 'adf', 'employer').valid).toBe(true);
  });

  it('a header-only file has no rows (warning NO_DATA_ROWS)', () => {
    const r = checkCsv(csvBytes([ADF]), 'adf', 'employer');
    expect([r.valid, r.file_rejected, r.rows_total]).toEqual([true, false, 0]);
    expect(r.warnings.map((w) => w.code)).toEqual(['NO_DATA_ROWS']);
  });
});

describe('summary and caps', () => {
  it('counts every error by code and column, past the 1,000 listed', () => {
    const b = body('adf', 'employer', 400);
    const rows = [0, 1, 2].flatMap((d) =>
      generatedRows(b).map((row, i) =>
        withCells('adf', row, { ID_DECLARATION: `D${d}`, ID_UNIQUE_PARTENAIRE: `D${d}-${i}`, NIR: 'X' }),
      ),
    );
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(r.error_count).toBe(1200);
    expect(r.errors).toHaveLength(1000);
    expect(r.truncated).toBe(true);
    expect(r.errors[999]!.row).toBe(1001);
    expect(r.summary).toEqual({ by_code: { INVALID_NIR: 1200 }, by_column: { NIR: 1200 } });
    expect([r.rows_total, r.rows_invalid]).toEqual([1200, 1200]);
  });
});

describe('streaming: chunks give the same response as the whole file', () => {
  /** A file of ~170 KB with multi-byte characters, errors, warnings and an empty line. */
  function bigFile(eol: string): Buffer {
    const b = body('jdr', 'training_organization', 480);
    training(b).nsf_codes = ['344z'];
    holders(b).forEach((h, i) => {
      h.birth_name = ['ÉLÉONORE', 'NÚÑEZ-€', 'ŁUKASZ😀', 'ÅSA'][i % 4];
      h.mention = 'Très bien — félicitations ✓';
    });
    holderOf(b, 7).birth_name = '=CMD';
    b.options = { formula_policy: 'allow' };
    const rows = generatedRows(b);
    rows[10] = withCells('jdr', rows[10]!, { NIR: '9550814168025' });
    rows[20] = withCells('jdr', rows[20]!, {
      ID_UNIQUE_PARTENAIRE: rows[19]![colIndex('jdr', 'ID_UNIQUE_PARTENAIRE')]!,
    });
    rows[30] = withCells('jdr', rows[30]!, { NOM_TITULAIRE: 'É\rX' });
    rows[40] = rows[40]!.slice(0, 20);
    rows[50] = withCells('jdr', rows[50]!, { NOM_FORMATION: 'Autre' });
    const lines: (string[] | string)[] = [columnsOf('jdr'), ...rows];
    lines.splice(300, 0, '');
    lines.push('');
    return csvBytes(lines, eol);
  }

  function streamed(content: Buffer, size: number): FileValidationResponse {
    const v = createCsvValidator({ type: 'jdr', declarant: 'training_organization' }, testEnv());
    for (let i = 0; i < content.length; i += size) {
      // A copy that is wiped after the call: the validator may not keep the caller's memory.
      const chunk = Buffer.from(content.subarray(i, i + size));
      v.write(chunk);
      chunk.fill(0x7c);
    }
    return v.end();
  }

  const whole = (content: Buffer) => checkCsv(content, 'jdr', 'training_organization');

  it.each(['\r\n', '\n'])('line ending %j', (eol) => {
    const content = bigFile(eol);
    expect(content.length).toBeGreaterThan(2 * 65536);
    const expected = whole(content);
    expect(expected.file_rejected).toBe(false);
    expect(expected.error_count).toBeGreaterThanOrEqual(5);
    expect(new Set(expected.warnings.map((w) => w.code))).toEqual(
      new Set([
        'REFERENCE_NOT_VERIFIED',
        'FORMULA_NOT_ALLOWED',
        ...(eol === '\n' ? ['LF_LINE_ENDINGS'] : []),
      ]),
    );
    expect(located(expected.errors).slice(0, 5)).toEqual([
      { row: 12, column: 'NIR', code: 'INVALID_NIR' },
      { row: 22, column: 'ID_UNIQUE_PARTENAIRE', code: 'DUPLICATE_UNIQUE_ID' },
      { row: 32, column: 'NOM_TITULAIRE', code: 'INVALID_CHARACTER' },
      { row: 42, column: null, code: 'COLUMN_COUNT' },
      { row: 52, column: 'NOM_FORMATION', code: 'INCONSISTENT_DECLARATION' },
    ]);
    for (const size of [1, 2, 3, 7, 4096, 65536]) expect(streamed(content, size)).toEqual(expected);
  });

  it('a line longer than the slices the validator decodes (64 KiB) is read whole', () => {
    const rows = generatedRows(body('jdr', 'training_organization', 3));
    rows[0] = withCells('jdr', rows[0]!, { NOM_FORMATION: 'é'.repeat(150_000) });
    const content = csvBytes([columnsOf('jdr'), ...rows], '\r\n');
    const expected = whole(content);
    expect(located(expected.errors)).toContainEqual({
      row: 2,
      column: 'NOM_FORMATION',
      code: 'FIELD_TOO_LONG',
    });
    for (const size of [4096, 65536, 1 << 20]) expect(streamed(content, size)).toEqual(expected);
  });

  it('chunks of 7 bytes do split multi-byte characters and CRLF pairs', () => {
    const content = bigFile('\r\n');
    let splitsChar = false;
    let splitsCrlf = false;
    for (let i = 7; i < content.length; i += 7) {
      if ((content[i]! & 0xc0) === 0x80) splitsChar = true;
      if (content[i - 1] === 0x0d && content[i] === 0x0a) splitsCrlf = true;
    }
    expect([splitsChar, splitsCrlf]).toEqual([true, true]);
  });

  it('a rejected file is rejected the same way in chunks', () => {
    const bom = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      csvFile('jdr', generatedRows(body('jdr', 'training_organization'))),
    ]);
    const latin = Buffer.concat([
      csvFile('jdr', generatedRows(body('jdr', 'training_organization'))),
      Buffer.from([0xe9, 0x0d, 0x0a]),
    ]);
    for (const content of [bom, latin, Buffer.alloc(0)]) {
      const expected = whole(content);
      expect(expected.file_rejected).toBe(true);
      for (const size of [1, 7, 65536]) expect(streamed(content, size)).toEqual(expected);
    }
  });

  it('counts the complete lines read so far (header included), however the file is cut', () => {
    const v = createCsvValidator({ type: 'adf', declarant: 'employer' }, testEnv());
    const bytes = Buffer.from(csvFile('adf', validRows()));
    const lines = bytes.toString('latin1').split('\n').length - 1;
    const cut = bytes.indexOf(10, bytes.indexOf(10) + 1) + 3; // into the third line
    v.write(bytes.subarray(0, cut));
    expect(v.linesRead).toBe(2);
    v.write(bytes.subarray(cut));
    expect(v.linesRead).toBe(lines);
  });

  it('end() may be called once', () => {
    const v = createCsvValidator({ type: 'adf', declarant: 'employer' }, testEnv());
    v.write(csvFile('adf', validRows()));
    expect(v.end().valid).toBe(true);
    expect(() => v.end()).toThrow();
  });
});
