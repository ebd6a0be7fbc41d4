import { strToU8, zipSync, type Zippable } from 'fflate';
import { columnLetters } from './cells';

/**
 * A cell to write. Plain values: text (a shared string), number, boolean; `null` leaves it empty.
 * Objects: a date serial in the workbook's date system shown dd/mm/yyyy, text in a cell formatted
 * as text, an error value, a formula with its cached value.
 */
export type CellInput =
  | string
  | number
  | boolean
  | null
  | undefined
  | { date: number }
  | { text: string }
  | { inline: string }
  | { error: string }
  | { formula: string; value: string | number | boolean | { error: string } | { date: number } };

export interface ColumnFormat {
  width?: number;
  /** The whole column's format: dates dd/mm/yyyy, or text (what is typed stays text). */
  format?: 'date' | 'text';
}

export interface SheetInput {
  name: string;
  rows: CellInput[][];
  /** The sheet row of rows[0] (default 1). */
  firstRow?: number;
  columns?: ColumnFormat[];
  /** Drop-down lists: a range (`E3:E50002`) and its values. */
  lists?: { range: string; values: readonly string[] }[];
  /** Rows kept in view while scrolling (the template's two header rows). */
  frozenRows?: number;
  /** Rows shown bold (the headers). */
  boldRows?: number;
  hidden?: boolean;
}

export interface WorkbookInput {
  sheets: SheetInput[];
  date1904?: boolean;
}

/** Cell styles (cellXfs): 0 default, 1 date dd/mm/yyyy, 2 text, 3 bold text (headers). */
const STYLE = { none: 0, date: 1, text: 2, bold: 3 } as const;
const DATE_FORMAT_ID = 164;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const NS_MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const NS_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const NS_PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';

function esc(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // eslint-disable-next-line no-control-regex -- XML 1.0 cannot hold these control characters
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/**
 * A minimal SpreadsheetML writer (ECMA-376): the workbook parts Excel and LibreOffice need, shared
 * strings, four cell styles, column formats, frozen header rows and list validations (drop-downs).
 * Used by the template and by the tests, which build every cell kind an import must read.
 */
export function writeWorkbook(input: WorkbookInput): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const shared = (text: string): number => {
    let i = index.get(text);
    if (i === undefined) {
      i = strings.length;
      strings.push(text);
      index.set(text, i);
    }
    return i;
  };

  const files: Zippable = {};
  input.sheets.forEach((sheet, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(sheetXml(sheet, shared));
  });
  const sheetsXml = input.sheets
    .map(
      (s, i) =>
        `<sheet name="${esc(s.name)}" sheetId="${i + 1}"${s.hidden ? ' state="hidden"' : ''} r:id="rId${i + 1}"/>`,
    )
    .join('');
  const n = input.sheets.length;
  files['[Content_Types].xml'] = strToU8(
    `${XML_HEAD}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      input.sheets
        .map(
          (_, i) =>
            `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
        )
        .join('') +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
      '</Types>',
  );
  files['_rels/.rels'] = strToU8(
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
      `<Relationship Id="rId1" Type="${NS_REL}/officeDocument" Target="xl/workbook.xml"/>` +
      '</Relationships>',
  );
  files['xl/workbook.xml'] = strToU8(
    `${XML_HEAD}<workbook xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">` +
      `<workbookPr${input.date1904 ? ' date1904="1"' : ''}/>` +
      `<bookViews><workbookView activeTab="0"/></bookViews><sheets>${sheetsXml}</sheets></workbook>`,
  );
  files['xl/_rels/workbook.xml.rels'] = strToU8(
    `${XML_HEAD}<Relationships xmlns="${NS_PKG_REL}">` +
      input.sheets
        .map(
          (_, i) =>
            `<Relationship Id="rId${i + 1}" Type="${NS_REL}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`,
        )
        .join('') +
      `<Relationship Id="rId${n + 1}" Type="${NS_REL}/styles" Target="styles.xml"/>` +
      `<Relationship Id="rId${n + 2}" Type="${NS_REL}/sharedStrings" Target="sharedStrings.xml"/>` +
      '</Relationships>',
  );
  files['xl/styles.xml'] = strToU8(STYLES_XML);
  files['xl/sharedStrings.xml'] = strToU8(
    `${XML_HEAD}<sst xmlns="${NS_MAIN}" count="${strings.length}" uniqueCount="${strings.length}">` +
      strings.map((s) => `<si><t xml:space="preserve">${esc(s)}</t></si>`).join('') +
      '</sst>',
  );
  // A fixed date keeps the bytes of a workbook the same from one run to the next.
  return Buffer.from(zipSync(files, { level: 6, mtime: new Date('2026-01-01T00:00:00Z') }));
}

const STYLES_XML =
  `${XML_HEAD}<styleSheet xmlns="${NS_MAIN}">` +
  `<numFmts count="1"><numFmt numFmtId="${DATE_FORMAT_ID}" formatCode="dd/mm/yyyy"/></numFmts>` +
  '<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>' +
  '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
  '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
  '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
  '<cellXfs count="4">' +
  '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>' +
  `<xf numFmtId="${DATE_FORMAT_ID}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>` +
  '<xf numFmtId="49" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>' +
  '<xf numFmtId="49" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyNumberFormat="1"/>' +
  '</cellXfs>' +
  '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
  '</styleSheet>';

function sheetXml(sheet: SheetInput, shared: (text: string) => number): string {
  const first = sheet.firstRow ?? 1;
  const columns = sheet.columns ?? [];
  const colStyle = (c: number): number => {
    const f = columns[c]?.format;
    return f === 'date' ? STYLE.date : f === 'text' ? STYLE.text : STYLE.none;
  };
  const rows = sheet.rows
    .map((cells, i) => {
      const r = first + i;
      const bold = r <= (sheet.boldRows ?? 0);
      const xml = cells
        .map((value, c) => cellXml(value, `${columnLetters(c)}${r}`, bold ? STYLE.bold : colStyle(c), shared))
        .join('');
      return xml === '' ? '' : `<row r="${r}">${xml}</row>`;
    })
    .join('');
  const cols = columns.length
    ? `<cols>${columns
        .map((c, i) => {
          const style = colStyle(i);
          return `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? 14}" customWidth="1"${style ? ` style="${style}"` : ''}/>`;
        })
        .join('')}</cols>`
    : '';
  const frozen = sheet.frozenRows
    ? `<sheetViews><sheetView workbookViewId="0"><pane ySplit="${sheet.frozenRows}" topLeftCell="A${sheet.frozenRows + 1}" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>`
    : '';
  const lists = sheet.lists?.length
    ? `<dataValidations count="${sheet.lists.length}">${sheet.lists
        .map(
          (l) =>
            `<dataValidation type="list" allowBlank="1" showInputMessage="1" showErrorMessage="1" sqref="${l.range}"><formula1>"${esc(l.values.join(','))}"</formula1></dataValidation>`,
        )
        .join('')}</dataValidations>`
    : '';
  return `${XML_HEAD}<worksheet xmlns="${NS_MAIN}" xmlns:r="${NS_REL}">${frozen}${cols}<sheetData>${rows}</sheetData>${lists}</worksheet>`;
}

function cellXml(value: CellInput, ref: string, style: number, shared: (text: string) => number): string {
  const s = style ? ` s="${style}"` : '';
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return `<c r="${ref}"${s} t="s"><v>${shared(value)}</v></c>`;
  if (typeof value === 'number') return `<c r="${ref}"${s}><v>${value}</v></c>`;
  if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
  if ('date' in value) return `<c r="${ref}" s="${STYLE.date}"><v>${value.date}</v></c>`;
  if ('text' in value) return `<c r="${ref}" s="${STYLE.text}" t="s"><v>${shared(value.text)}</v></c>`;
  if ('inline' in value) {
    return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${esc(value.inline)}</t></is></c>`;
  }
  if ('error' in value) return `<c r="${ref}"${s} t="e"><v>${esc(value.error)}</v></c>`;
  const f = `<f>${esc(value.formula)}</f>`;
  const v = value.value;
  if (typeof v === 'string') return `<c r="${ref}"${s} t="str">${f}<v>${esc(v)}</v></c>`;
  if (typeof v === 'number') return `<c r="${ref}"${s}>${f}<v>${v}</v></c>`;
  if (typeof v === 'boolean') return `<c r="${ref}"${s} t="b">${f}<v>${v ? 1 : 0}</v></c>`;
  if ('date' in v) return `<c r="${ref}" s="${STYLE.date}">${f}<v>${v.date}</v></c>`;
  return `<c r="${ref}"${s} t="e">${f}<v>${esc(v.error)}</v></c>`;
}
