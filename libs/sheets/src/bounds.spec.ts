/**
 * The third hostile review (issue 32): workbooks of a few KB that expanded, once read, to work and
 * answers of minutes and hundreds of MB. Each is now refused by a bound on what the file expands
 * to — one cell, the sheets, the elements, their depth, one XML token, the body built — with a clear
 * 400 UNREADABLE_FILE and its reason; and the cells it reads are read exactly (numbers, dates).
 */
import { NIR_A, NIR_A_KEY } from '@ppfile/rules/testing/fixtures';
import { columnOfRef, serialToDay } from './cells';
import { expandedSize } from './zip';
import { importOf, minimalParts, sheet, zipOf } from './testing/workbooks';
import { ReadBudget, SHEET_LIMITS } from './unreadable';
import { isDateFormat, XlsxWorkbook } from './xlsx-reader';
import { writeWorkbook } from './xlsx-writer';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER = `<row r="1">${inline('A1', 'ID_DECLARATION')}${inline('B1', 'NIR')}${inline('C1', 'NOM_TITULAIRE')}</row>`;

/** The reason of the UNREADABLE_FILE an import of `bytes` throws (fails when it is imported). */
function reasonOf(bytes: Uint8Array): unknown {
  try {
    importOf(bytes);
  } catch (e) {
    const error = e as { code?: string; details?: { reason?: unknown } };
    expect(error.code).toBe('UNREADABLE_FILE');
    return error.details?.reason;
  }
  throw new Error('the workbook was imported');
}

/** The parts of a workbook with a shared-string table of `strings`. */
function withSharedStrings(sheetData: string, strings: string[]): Record<string, string | Uint8Array> {
  const parts = minimalParts(sheetData, {
    'xl/sharedStrings.xml': `<sst xmlns="${MAIN}">${strings.map((s) => `<si><t>${s}</t></si>`).join('')}</sst>`,
  });
  parts['xl/_rels/workbook.xml.rels'] = (parts['xl/_rels/workbook.xml.rels'] as string).replace(
    '</Relationships>',
    `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
  );
  return parts;
}

/** Rows 2… whose NOM_TITULAIRE cell points at shared string 0. */
function rowsPointingAtString0(count: number): string {
  let out = HEADER;
  for (let r = 2; r < count + 2; r++) {
    out += `<row r="${r}">${inline(`A${r}`, 'S1')}${inline(`B${r}`, NIR_A + NIR_A_KEY)}<c r="C${r}" t="s"><v>0</v></c></row>`;
  }
  return out;
}

describe('number formats (finding 1: a 2 KB workbook froze the gateway)', () => {
  it('reads a format of a million unclosed [ at once, as no date (it took minutes)', () => {
    expect(isDateFormat('['.repeat(1 << 20))).toBe(false);
    expect(isDateFormat(`${'['.repeat(200_000)}dd/mm/yyyy`)).toBe(false);
  });

  it('still tells a date format from the others, quoted text, escapes and [parts] aside', () => {
    expect(isDateFormat('dd/mm/yyyy')).toBe(true);
    expect(isDateFormat('[$-40C]d mmmm yyyy;@')).toBe(true);
    expect(isDateFormat('[Red][<=100]0.00;"day"0')).toBe(false);
    expect(isDateFormat('"dmy"0\\d')).toBe(false);
    expect(isDateFormat('0;dd/mm/yy')).toBe(false);
    expect(isDateFormat('General')).toBe(false);
    expect(isDateFormat('[h]:mm')).toBe(true);
    expect(isDateFormat('"unclosed d')).toBe(true);
  });

  it('imports a workbook whose styles hold such a format (a 3 KB upload)', () => {
    const parts = minimalParts(
      `${HEADER}<row r="2">${inline('A2', 'S1')}<c r="B2"><v>${NIR_A}${NIR_A_KEY}</v></c></row>`,
      {
        'xl/styles.xml': `<styleSheet xmlns="${MAIN}"><numFmts count="1"><numFmt numFmtId="164" formatCode="${'['.repeat(1 << 20)}"/></numFmts><cellXfs count="1"><xf numFmtId="164"/></cellXfs></styleSheet>`,
      },
    );
    parts['xl/_rels/workbook.xml.rels'] = (parts['xl/_rels/workbook.xml.rels'] as string).replace(
      '</Relationships>',
      `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    const bytes = zipOf(parts);
    expect(bytes.length).toBeLessThan(8 * 1024);
    const r = importOf(bytes);
    expect((r.body.declarations[0] as { holders: { nir: string }[] }).holders[0]!.nir).toBe(
      NIR_A + NIR_A_KEY,
    );
  });
});

describe('what a few KB expand to (finding 2)', () => {
  it('a shared string of 1 MiB that 50 rows point at (5 KB): refused, cell_too_long', () => {
    const bytes = zipOf(withSharedStrings(rowsPointingAtString0(50), ['A'.repeat(1 << 20)]));
    expect(bytes.length).toBeLessThan(8 * 1024);
    expect(reasonOf(bytes)).toBe('cell_too_long');
  });

  it('one inline cell of 150 MiB (a run of text past 1 MiB), or of 32,768 characters: refused; 32,767 are read', () => {
    const big = zipOf(minimalParts(`${HEADER}<row r="2">${inline('C2', 'A'.repeat(150 << 20))}</row>`));
    expect(reasonOf(big)).toBe('xml_token_too_long');
    expect(
      reasonOf(zipOf(minimalParts(`${HEADER}<row r="2">${inline('C2', 'A'.repeat(32_768))}</row>`))),
    ).toBe('cell_too_long');
    const fits = importOf(
      zipOf(
        minimalParts(`${HEADER}<row r="2">${inline('A2', 'S1')}${inline('C2', 'A'.repeat(32_767))}</row>`),
      ),
    );
    expect(fits.rows_read).toBe(1);
  });

  it('a CSV field of 32,768 characters: cell_too_long, as in a workbook', () => {
    const csv = (name: string) =>
      Buffer.from(`ID_DECLARATION;NIR;NOM_TITULAIRE\r\nS1;${NIR_A}${NIR_A_KEY};${name}\r\n`);
    expect(importOf(csv('A'.repeat(32_767)), { filename: 'x.csv' }).rows_read).toBe(1);
    let reason: unknown;
    try {
      importOf(csv('A'.repeat(32_768)), { filename: 'x.csv' });
    } catch (e) {
      reason = (e as { details?: { reason?: unknown } }).details?.reason;
    }
    expect(reason).toBe('cell_too_long');
  });

  it('a string of 32,767 characters that 2,000 cells point at (a few KB): the body would pass its bound, body_too_large', () => {
    const bytes = zipOf(withSharedStrings(rowsPointingAtString0(2_000), ['A'.repeat(32_767)]));
    expect(bytes.length).toBeLessThan(64 * 1024);
    let error: { code?: string; message?: string; details?: { reason?: string; limit?: number } } = {};
    try {
      importOf(bytes, {}, { maxRows: 50_000 });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('UNREADABLE_FILE');
    expect(error.details).toEqual({ reason: 'body_too_large', limit: 2 * 1024 * 1024 });
    expect(error.message).toContain('2 MB');
  });

  it('the body of an ordinary sheet is not bounded below its 2 MB floor, nor a real one below 64 times its size', () => {
    const rows: string[][] = [['ID_DECLARATION', 'NIR', 'NOM_TITULAIRE']];
    for (let i = 0; i < 5_000; i++) rows.push([`S${i}`, NIR_A + NIR_A_KEY, `NOM-${i}-${'X'.repeat(200)}`]);
    const r = importOf(sheet(rows), {}, { maxRows: 50_000 });
    expect(r.rows_read).toBe(5_000);
    expect(JSON.stringify(r.body).length).toBeGreaterThan(1024 * 1024);
  });

  it('what a workbook expands to is known from its zip directory, before any work (where the work runs: expandedSize)', () => {
    const bytes = zipOf(withSharedStrings(rowsPointingAtString0(50), ['A'.repeat(1 << 20)]));
    expect(bytes.length).toBeLessThan(8 * 1024);
    expect(expandedSize(bytes)).toBeGreaterThan(1 << 20);
    expect(expandedSize(Buffer.from('a;b\n'))).toBe(4);
    const broken = Buffer.from(bytes.subarray(0, bytes.length - 30));
    expect(expandedSize(broken)).toBe(broken.length);
    expect(expandedSize(Buffer.from('PK\x03\x04 not a zip at all'))).toBe(21);
  });

  it('a run of 190 MB of white space, or an attribute of 100 MB: xml_token_too_long, stopped at 1 MiB', () => {
    const spaces = zipOf(minimalParts(`${HEADER}${' '.repeat(190 << 20)}`));
    expect(reasonOf(spaces)).toBe('xml_token_too_long');
    const attribute = zipOf(minimalParts(`${HEADER}<row r="2" x="${'a'.repeat(100 << 20)}"/>`));
    expect(reasonOf(attribute)).toBe('xml_token_too_long');
  });

  it('elements nested 2,000,000 deep: too_deep', () => {
    const deep = zipOf(minimalParts(`${'<x>'.repeat(2_000_000)}${'</x>'.repeat(2_000_000)}`));
    expect(reasonOf(deep)).toBe('too_deep');
    // SpreadsheetML's own depth is read: worksheet, sheetData, row, c, is, r, t.
    const rich = `${HEADER}<row r="2"><c r="C2" t="inlineStr"><is><r><t>DU</t></r><r><t>PONT</t></r></is></c>${inline('A2', 'S1')}</row>`;
    expect(importOf(zipOf(minimalParts(rich))).rows_read).toBe(1);
  });

  it('non-cell elements past the bound: too_many_elements (counted in every part read)', () => {
    const parts = minimalParts(`${HEADER}${'<x/>'.repeat(2_000)}`);
    const limits = { ...SHEET_LIMITS, maxElements: 1_000 };
    const workbook = new XlsxWorkbook(zipOf(parts), new ReadBudget('en', limits));
    expect(() => workbook.readSheet(workbook.sheets[0]!, () => true)).toThrow(
      expect.objectContaining({ details: { reason: 'too_many_elements' } }),
    );
    // 10,000,000 in all by default: ten times the cells a workbook may hold.
    expect(SHEET_LIMITS.maxElements).toBe(10_000_000);
  });

  it('100,000 <sheet> entries (pointing at a missing part): too_many_sheets, before any is read', () => {
    const parts = minimalParts(HEADER);
    const many = Array.from(
      { length: 100_000 },
      (_, i) => `<sheet name="S${i}" sheetId="${i + 2}" r:id="rId9"/>`,
    );
    parts['xl/workbook.xml'] = (parts['xl/workbook.xml'] as string).replace(
      '</sheets>',
      `${many.join('')}</sheets>`,
    );
    expect(reasonOf(zipOf(parts))).toBe('too_many_sheets');
  });

  it('an unknown sheet= lists 20 sheet names at most, each cut to 31 characters', () => {
    const sheets = Array.from({ length: 60 }, (_, i) => ({
      name: `Feuille ${i} ${'x'.repeat(20)}`,
      rows: [['a']],
    }));
    const bytes = writeWorkbook({ sheets });
    let message = '';
    try {
      importOf(bytes, { sheet: 'Absente' });
    } catch (e) {
      message = (e as { details: { fields: { message: string }[] } }).details.fields[0]!.message;
    }
    expect(message).toContain('Feuille 0');
    expect(message).not.toContain('Feuille 20');
    expect(message).toContain('…');
    expect(message.length).toBeLessThan(1_000);
  });

  it('header texts are echoed cut to 255 characters', () => {
    const rows = [
      ['ID_DECLARATION', 'NIR', 'NOM_TITULAIRE', 'C'.repeat(10_000)],
      ['S1', NIR_A + NIR_A_KEY, 'DUPONT'],
    ];
    const r = importOf(sheet(rows));
    expect(r.unmapped_headers).toEqual([`${'C'.repeat(255)}…`]);
  });
});

describe('a sheet found after a long one, in a deflated workbook (issue 33: "a damaged zip archive")', () => {
  it('a notes sheet of 30 rows, then the Passeport sheet: imported', () => {
    const notes = { name: 'Notes', rows: Array.from({ length: 30 }, (_, i) => [`note ${i}`]) };
    const data = {
      name: 'Declarations',
      rows: [
        ['ID_DECLARATION', 'NIR', 'NOM_TITULAIRE'],
        ['S1', NIR_A + NIR_A_KEY, 'DUPONT'],
      ],
    };
    const bytes = writeWorkbook({ sheets: [notes, data] });
    const r = importOf(bytes);
    expect([r.sheet, r.rows_read]).toEqual(['Declarations', 1]);
  });
});

describe('cells read exactly (finding 6)', () => {
  const numberRow = (v: string) =>
    zipOf(
      minimalParts(
        `${HEADER}<row r="2">${inline('A2', 'S1')}<c r="B2"><v>${v}</v></c>${inline('C2', 'DUPONT')}</row>`,
      ),
    );
  const nirOf = (v: string) => {
    const r = importOf(numberRow(v));
    return {
      nir: (r.body.declarations[0] as { holders: { nir?: string }[] }).holders[0]!.nir,
      codes: r.issues.map((i) => i.code),
    };
  };

  it('a NIR number that is not exactly a whole number the file writes is UNREADABLE_NUMBER', () => {
    expect(nirOf('9007199254740993').codes).toEqual([]);
    expect(nirOf('9007199254740993').nir).toBe('9007199254740993');
    expect(nirOf('2550814168025.0000001').codes).toEqual(['UNREADABLE_NUMBER']);
    expect(nirOf(`${NIR_A}${NIR_A_KEY}`)).toEqual({ nir: NIR_A + NIR_A_KEY, codes: [] });
    expect(nirOf('2.55081416802512E14')).toEqual({ nir: '255081416802512', codes: [] });
    expect(nirOf('1.5').codes).toEqual(['UNREADABLE_NUMBER']);
    expect(nirOf('-2550814168025').codes).toEqual(['UNREADABLE_NUMBER']);
  });

  it('date serials out of the calendar (1e15, 1e308) are UNREADABLE_DATE, never NaN/NaN/NaN', () => {
    expect(serialToDay(1e15, false)).toBeNull();
    expect(serialToDay(1e308, false)).toBeNull();
    expect(serialToDay(2_958_465, false)).toBeNull(); // 31/12/9999: past the years read (≤ 2999)
    expect(serialToDay(46_280, false)).toBe(20260915);
    const parts = minimalParts(
      `${HEADER}<row r="2">${inline('A2', 'S1')}${inline('C2', 'DUPONT')}<c r="D2" s="1"><v>1e15</v></c><c r="E2" s="1"><v>1E308</v></c></row>`,
      {
        'xl/styles.xml': `<styleSheet xmlns="${MAIN}"><cellXfs count="2"><xf numFmtId="0"/><xf numFmtId="14"/></cellXfs></styleSheet>`,
      },
    );
    parts['xl/worksheets/sheet1.xml'] = (parts['xl/worksheets/sheet1.xml'] as string).replace(
      inline('C1', 'NOM_TITULAIRE'),
      `${inline('C1', 'NOM_TITULAIRE')}${inline('D1', 'DATE_DEBUT_FORMATION')}${inline('E1', 'DATE_FIN_FORMATION')}`,
    );
    parts['xl/_rels/workbook.xml.rels'] = (parts['xl/_rels/workbook.xml.rels'] as string).replace(
      '</Relationships>',
      `<Relationship Id="rId3" Type="${REL}/styles" Target="styles.xml"/></Relationships>`,
    );
    const r = importOf(zipOf(parts));
    expect(r.issues.map((i) => [i.cell, i.code])).toEqual([
      ['Declarations!D2', 'UNREADABLE_DATE'],
      ['Declarations!E2', 'UNREADABLE_DATE'],
    ]);
    expect(JSON.stringify(r)).not.toContain('NaN');
  });

  it('cell references past XFD are not columns', () => {
    expect(columnOfRef('XFD1')).toBe(16_383);
    expect(columnOfRef('ABCD1')).toBe(-1);
    expect(columnOfRef(`${'Z'.repeat(1000)}1`)).toBe(-1);
  });
});
