import type { Cell } from './cells';
import { minimalParts, zipOf } from './testing/workbooks';
import { ReadBudget } from './unreadable';
import { isDateFormat, XlsxWorkbook } from './xlsx-reader';

const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function rowsOf(parts: Record<string, string | Uint8Array>): { row: number; cells: [number, Cell][] }[] {
  const workbook = new XlsxWorkbook(zipOf(parts), new ReadBudget('en'));
  const out: { row: number; cells: [number, Cell][] }[] = [];
  workbook.readSheet(workbook.sheets[0]!, (r) => {
    out.push({ row: r.row, cells: r.cells.map((c) => [c.col, c.cell]) });
    return true;
  });
  return out;
}

describe('XlsxWorkbook: what other producers write', () => {
  it('reads rich-text shared strings without their phonetic runs, prefixed elements, rows and cells without r', () => {
    const parts = minimalParts('', {
      'xl/sharedStrings.xml':
        '<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:si><x:r><x:t>DU</x:t></x:r>' +
        '<x:r><x:rPr><x:b/></x:rPr><x:t xml:space="preserve">PONT </x:t></x:r><x:rPh><x:t>デュポン</x:t></x:rPh></x:si>' +
        '<x:si><x:t>B&amp;B</x:t></x:si></x:sst>',
    });
    parts['xl/_rels/workbook.xml.rels'] = (parts['xl/_rels/workbook.xml.rels'] as string).replace(
      '</Relationships>',
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="/xl/sharedStrings.xml"/></Relationships>`,
    );
    parts['xl/worksheets/sheet1.xml'] =
      '<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>' +
      '<x:row><x:c t="s"><x:v>0</x:v></x:c><x:c t="s"><x:v>1</x:v></x:c><x:c r="E1" t="str"><x:f>A1</x:f><x:v>DU</x:v></x:c></x:row>' +
      '<x:row r="4"><x:c t="d"><x:v>2026-09-15T00:00:00</x:v></x:c><x:c t="b"><x:v>1</x:v></x:c><x:c/><x:c><x:v>1.5E+2</x:v></x:c></x:row>' +
      '</x:sheetData></x:worksheet>';
    expect(rowsOf(parts)).toEqual([
      {
        row: 1,
        cells: [
          [0, { k: 'text', v: 'DUPONT ' }],
          [1, { k: 'text', v: 'B&B' }],
          [4, { k: 'text', v: 'DU' }],
        ],
      },
      {
        row: 4,
        cells: [
          [0, { k: 'iso', v: '2026-09-15T00:00:00' }],
          [1, { k: 'bool', v: true }],
          [3, { k: 'number', v: 150, date: false, raw: '1.5E+2' }],
        ],
      },
    ]);
  });

  it('knows a date format from its code, built-in or custom', () => {
    for (const code of [
      'dd/mm/yyyy',
      'd-mmm-yy',
      '[$-40C]dddd d mmmm yyyy',
      'yyyy-mm-dd;@',
      'DD/MM/YYYY\\ hh:mm',
    ]) {
      expect([code, isDateFormat(code)]).toEqual([code, true]);
    }
    for (const code of ['General', '0.00', '#,##0 "jours"', '[Red]0', '@', '00000']) {
      expect([code, isDateFormat(code)]).toEqual([code, false]);
    }
  });
});
