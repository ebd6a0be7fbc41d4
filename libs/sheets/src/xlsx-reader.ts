import { SaxesParser } from 'saxes';
import { columnOfRef, type Cell, type RowVisitor } from './cells';
import { unreadable, type ReadBudget } from './unreadable';
import { ZipArchive } from './zip';

export interface WorkbookSheet {
  readonly name: string;
  /** Its part in the package, e.g. `xl/worksheets/sheet1.xml`. */
  readonly part: string;
  readonly hidden: boolean;
}

interface XmlHandlers {
  open?: (name: string, attrs: Record<string, string>) => void;
  close?: (name: string) => void;
  text?: (text: string) => void;
}

/** Thrown when a row visitor answers false, to stop the parser (not a failure). */
class StopReading extends Error {}

/** `x:c` → `c`: producers may prefix SpreadsheetML's elements. */
function local(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

/**
 * A streaming XML parser over saxes. A DOCTYPE is refused (no entity of a workbook needs one; it is
 * how "billion laughs" starts), and so is anything not well-formed.
 */
function xmlParser(lang: ReadBudget['lang'], h: XmlHandlers): SaxesParser {
  const parser = new SaxesParser({ position: false });
  parser.on('doctype', () => {
    throw unreadable('bad_xml', lang);
  });
  parser.on('error', () => {
    throw unreadable('bad_xml', lang);
  });
  if (h.open) {
    const open = h.open;
    parser.on('opentag', (tag) => open(local(tag.name), tag.attributes as Record<string, string>));
  }
  if (h.close) {
    const close = h.close;
    parser.on('closetag', (tag) => close(local(tag.name)));
  }
  if (h.text) {
    parser.on('text', h.text);
    parser.on('cdata', h.text);
  }
  return parser;
}

/** The error values of spreadsheets (ECMA-376 §18.17.4 and Excel's newer ones). */
const ERROR_VALUES: ReadonlySet<string> = new Set([
  '#NULL!',
  '#DIV/0!',
  '#VALUE!',
  '#REF!',
  '#NAME?',
  '#NUM!',
  '#N/A',
  '#GETTING_DATA',
  '#SPILL!',
  '#CALC!',
  '#FIELD!',
  '#BLOCKED!',
  '#CONNECT!',
  '#BUSY!',
  '#UNKNOWN!',
]);

/** Built-in number formats that show a date (ECMA-376 part 1, §18.8.30, and the East Asian ones). */
const BUILTIN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51, 52, 53, 54,
  55, 56, 57, 58, 71, 72, 73, 74, 75, 76, 77, 78, 79, 80, 81,
]);

/** Excel keeps a number format to 255 characters; a longer one is no format of a spreadsheet program. */
const MAX_FORMAT_CODE = 255;

/**
 * A custom format shows a date when its first section, quoted text, escapes and [colour/locale]
 * parts removed, has d, m or y. One pass (issue 32: the regular expressions it replaces took
 * quadratic time over a format of unclosed `[`, and held the gateway for minutes).
 */
export function isDateFormat(code: string): boolean {
  if (code.length > MAX_FORMAT_CODE) return false;
  let bare = '';
  for (let i = 0; i < code.length; i++) {
    const c = code[i]!;
    if (c === ';') break;
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '"' || c === '[') {
      const end = code.indexOf(c === '"' ? '"' : ']', i + 1);
      // An unclosed quote or bracket is an ordinary character, as it was.
      if (end >= 0) {
        i = end;
        continue;
      }
    }
    bare += c;
  }
  if (/general/i.test(bare)) return false;
  return /[dmy]/i.test(bare);
}

/** A package's content types ([Content_Types].xml): by part name, else by extension (OPC, ECMA-376 part 2 §10.1.2). */
class ContentTypes {
  readonly overrides = new Map<string, string>();
  readonly defaults = new Map<string, string>();

  of(part: string): string | null {
    const name = part.toLowerCase();
    const override = this.overrides.get(name);
    if (override !== undefined) return override;
    const dot = name.lastIndexOf('.');
    return dot < 0 ? null : (this.defaults.get(name.slice(dot + 1)) ?? null);
  }
}

/**
 * A string as SpreadsheetML stores it (ECMA-376 part 1, §22.9.2.19 ST_Xstring): `_xHHHH_` is the
 * UTF-16 code unit HHHH — Excel writes a carriage return in a cell as `_x000D_` — and `_x005F_`
 * an underscore, so `_x005F_x000D_` is the text `_x000D_`. One pass, no regular expression.
 */
export function decodeXString(text: string): string {
  let at = text.indexOf('_x');
  if (at < 0) return text;
  let out = '';
  let from = 0;
  while (at >= 0) {
    if (at + 6 < text.length && text.charCodeAt(at + 6) === 0x5f && isHex4(text, at + 2)) {
      out += text.slice(from, at) + String.fromCharCode(parseInt(text.slice(at + 2, at + 6), 16));
      from = at + 7;
      at = text.indexOf('_x', from);
    } else {
      at = text.indexOf('_x', at + 1);
    }
  }
  return out + text.slice(from);
}

function isHex4(text: string, at: number): boolean {
  for (let i = at; i < at + 4; i++) {
    const c = text.charCodeAt(i);
    const hex = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
    if (!hex) return false;
  }
  return true;
}

/**
 * The encoding of an XML part from its first bytes (XML 1.0 appendix F): UTF-16 with a byte-order
 * mark or `<?` in two bytes, else UTF-8. Both are legal XML, and some producers write UTF-16 parts.
 */
function xmlEncoding(head: Uint8Array): 'utf-8' | 'utf-16le' | 'utf-16be' {
  const [a, b] = head;
  if ((a === 0xff && b === 0xfe) || (a === 0x3c && b === 0x00)) return 'utf-16le';
  if ((a === 0xfe && b === 0xff) || (a === 0x00 && b === 0x3c)) return 'utf-16be';
  return 'utf-8';
}

/** The largest row and column of a sheet (Excel's: 1,048,576 rows, 16,384 columns). */
const MAX_ROW = 1_048_576;
const MAX_COLUMN = 16_383;
/** Characters handed to the XML parser at a time, so that its bounds are checked often. */
const XML_SLICE = 64 * 1024;

/**
 * An XLSX workbook (ECMA-376 SpreadsheetML) read from memory: its sheets, its date system, shared
 * strings and the styles that say which numbers are dates; each sheet is then streamed row by row.
 * Refused (UNREADABLE_FILE): macro-enabled packages, links to other workbooks, encrypted packages,
 * a DOCTYPE in any part, and anything past the budget.
 */
export class XlsxWorkbook {
  readonly sheets: WorkbookSheet[] = [];
  date1904 = false;
  private readonly zip: ZipArchive;
  private sharedStringsPart: string | null = null;
  private stylesPart: string | null = null;
  private sharedStrings: string[] | null = null;
  private dateStyles: boolean[] | null = null;

  constructor(
    bytes: Buffer,
    private readonly budget: ReadBudget,
  ) {
    const lang = budget.lang;
    this.zip = new ZipArchive(bytes, budget);
    const names = this.zip.names().map((n) => n.toLowerCase());
    if (names.some((n) => n.startsWith('xl/externallinks/'))) throw unreadable('external_links', lang);
    const types = this.contentTypes();
    if (types === null) throw unreadable('not_xlsx', lang);

    const root = this.relationships('_rels/.rels');
    const workbookPart = root.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
    // Decided on the workbook part's own content type (issue 33): SheetJS declares a Default for
    // `.bin` with "macroEnabled" in it in every file it writes, macros or not. An .xlsb's is
    // `application/vnd.ms-excel.sheet.binary.macroEnabled.main`: binary records, no XML to read.
    const workbookType = types.of(workbookPart);
    if (workbookType === null ? /\.bin$/i.test(workbookPart) : /sheet\.binary\./i.test(workbookType)) {
      throw unreadable('xlsb', lang);
    }
    // .xlsm, .xltm, .xlam: `application/vnd.ms-excel.sheet.macroEnabled.main+xml` and its kin.
    if (workbookType !== null && /macroEnabled/i.test(workbookType)) throw unreadable('macros', lang);
    const dir = workbookPart.includes('/') ? workbookPart.slice(0, workbookPart.lastIndexOf('/') + 1) : '';
    const rels = this.relationships(`${dir}_rels/${workbookPart.slice(dir.length)}.rels`, dir);
    if (rels.some((r) => r.type.endsWith('/externalLink') || r.external)) {
      throw unreadable('external_links', lang);
    }
    // A vbaProject.bin the workbook relates to: its macros, whatever the content type says.
    if (rels.some((r) => r.type.endsWith('/vbaProject') || /(?:^|\/)vbaproject\.bin$/i.test(r.target))) {
      throw unreadable('macros', lang);
    }
    this.sharedStringsPart = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? null;
    this.stylesPart = rels.find((r) => r.type.endsWith('/styles'))?.target ?? null;
    const byId = new Map(rels.map((r) => [r.id, r.target]));
    let listed = 0;

    const found = this.parse(workbookPart, {
      open: (name, attrs) => {
        if (name === 'workbookPr') {
          const v = attrs.date1904;
          this.date1904 = v === '1' || v === 'true';
        } else if (name === 'sheet') {
          if (++listed > budget.limits.maxSheets) throw unreadable('too_many_sheets', lang);
          const idKey = Object.keys(attrs).find((k) => k === 'id' || k.endsWith(':id'));
          const part = idKey ? byId.get(attrs[idKey]!) : undefined;
          if (part && attrs.name !== undefined) {
            this.sheets.push({
              name: attrs.name,
              part,
              hidden: attrs.state === 'hidden' || attrs.state === 'veryHidden',
            });
          }
        }
      },
    });
    if (!found || this.sheets.length === 0) throw unreadable('not_xlsx', lang);
  }

  /**
   * Streams a sheet's rows to `visit` (which returns false to stop). Every cell element, a value or
   * only a format, is a cell the workbook holds (ReadBudget.cell), so an empty-cell bomb stops at the
   * bound.
   */
  readSheet(sheet: WorkbookSheet, visit: RowVisitor): void {
    const strings = this.loadSharedStrings();
    const dates = this.loadDateStyles();
    const budget = this.budget;
    let rowNumber = 0;
    let cells: { col: number; cell: Cell }[] = [];
    let col = -1;
    let type = 'n';
    let style = 0;
    let capture: 'v' | 't' | null = null;
    let inInline = false;
    let inPhonetic = false;
    let value = '';
    let hasValue = false;
    let formula = false;

    const finishCell = (): void => {
      // A formula saved without its result (openpyxl, exceljs, a workbook in manual calculation): no
      // `<v>`, or an empty one where the result is no text (an empty text result is `t="str"`).
      const empty = value.trim() === '';
      if (formula && (!hasValue || (empty && type !== 'str' && type !== 'inlineStr'))) {
        cells.push({ col, cell: { k: 'uncomputed' } });
        return;
      }
      if (!hasValue) return;
      let cell: Cell;
      switch (type) {
        case 's': {
          if (empty) return;
          const s = strings[Number(value)];
          cell = s === undefined ? { k: 'error', v: '#REF!' } : { k: 'text', v: s };
          break;
        }
        case 'inlineStr':
        case 'str':
          cell = { k: 'text', v: decodeXString(value) };
          break;
        case 'b':
          cell = { k: 'bool', v: value.trim() === '1' || value.trim() === 'true' };
          break;
        case 'e':
          // Only a known error value is named in a message: a cell's text never is (it may be personal).
          cell = { k: 'error', v: ERROR_VALUES.has(value.trim()) ? value.trim() : '#VALUE!' };
          break;
        case 'd':
          cell = { k: 'iso', v: value };
          break;
        default: {
          // An empty `<v/>` without a formula holds nothing.
          if (empty) return;
          const n = Number(value);
          cell = !Number.isFinite(n)
            ? { k: 'error', v: '#VALUE!' }
            : { k: 'number', v: n, date: dates[style] === true, raw: value.trim() };
        }
      }
      cells.push({ col, cell });
    };

    try {
      this.parse(sheet.part, {
        open: (name, attrs) => {
          switch (name) {
            case 'row': {
              const r = Number(attrs.r);
              rowNumber = Number.isInteger(r) && r > rowNumber && r <= MAX_ROW ? r : rowNumber + 1;
              cells = [];
              col = -1;
              return;
            }
            case 'c': {
              budget.cell();
              const ref = attrs.r;
              const c = ref === undefined ? -1 : columnOfRef(ref);
              col = c >= 0 && c <= MAX_COLUMN ? c : col + 1;
              type = attrs.t ?? 'n';
              style = attrs.s === undefined ? 0 : Number(attrs.s);
              value = '';
              hasValue = false;
              formula = false;
              return;
            }
            case 'f':
              formula = true;
              return;
            case 'v':
              capture = 'v';
              hasValue = true;
              return;
            case 'is':
              inInline = true;
              hasValue = true;
              return;
            case 'rPh':
              inPhonetic = true;
              return;
            case 't':
              if (inInline && !inPhonetic) capture = 't';
              return;
          }
        },
        text: (t) => {
          if (capture !== null) value = budget.cellText(value + t);
        },
        close: (name) => {
          switch (name) {
            case 'v':
            case 't':
              capture = null;
              return;
            case 'is':
              inInline = false;
              return;
            case 'rPh':
              inPhonetic = false;
              return;
            case 'c':
              finishCell();
              return;
            case 'row':
              if (!visit({ row: rowNumber, cells })) throw new StopReading();
              return;
          }
        },
      });
    } catch (e) {
      if (!(e instanceof StopReading)) throw e;
    }
  }

  private loadSharedStrings(): string[] {
    if (this.sharedStrings) return this.sharedStrings;
    const strings: string[] = [];
    this.sharedStrings = strings;
    if (this.sharedStringsPart === null) return strings;
    let current = '';
    let inText = false;
    let inPhonetic = false;
    this.parse(this.sharedStringsPart, {
      open: (name) => {
        if (name === 'si') current = '';
        else if (name === 'rPh') inPhonetic = true;
        else if (name === 't' && !inPhonetic) inText = true;
      },
      text: (t) => {
        if (inText) current = this.budget.cellText(current + t);
      },
      close: (name) => {
        if (name === 't') inText = false;
        else if (name === 'rPh') inPhonetic = false;
        else if (name === 'si') {
          // A string no cell can use is still a string held: as many as cells at most.
          this.budget.sharedStrings(strings.length + 1);
          strings.push(decodeXString(current));
        }
      },
    });
    return strings;
  }

  /** For each cell style (cellXfs index), whether its number format shows a date. */
  private loadDateStyles(): boolean[] {
    if (this.dateStyles) return this.dateStyles;
    const dates: boolean[] = [];
    this.dateStyles = dates;
    if (this.stylesPart === null) return dates;
    const custom = new Map<number, boolean>();
    let inCellXfs = false;
    this.parse(this.stylesPart, {
      open: (name, attrs) => {
        if (name === 'numFmt') custom.set(Number(attrs.numFmtId), isDateFormat(attrs.formatCode ?? ''));
        else if (name === 'cellXfs') inCellXfs = true;
        else if (name === 'xf' && inCellXfs) {
          const id = Number(attrs.numFmtId ?? 0);
          dates.push(custom.get(id) ?? BUILTIN_DATE_FORMATS.has(id));
        }
      },
      close: (name) => {
        if (name === 'cellXfs') inCellXfs = false;
      },
    });
    return dates;
  }

  /** [Content_Types].xml, or null when the package has none (then it is no workbook). */
  private contentTypes(): ContentTypes | null {
    const types = new ContentTypes();
    const found = this.parse('[Content_Types].xml', {
      open: (name, attrs) => {
        const type = attrs.ContentType?.trim();
        if (type === undefined) return;
        if (name === 'Override' && attrs.PartName !== undefined) {
          types.overrides.set(partOf(attrs.PartName).toLowerCase(), type);
        } else if (name === 'Default' && attrs.Extension !== undefined) {
          types.defaults.set(attrs.Extension.toLowerCase(), type);
        }
      },
    });
    return found ? types : null;
  }

  private relationships(
    part: string,
    base = '',
  ): { id: string; type: string; target: string; external: boolean }[] {
    const out: { id: string; type: string; target: string; external: boolean }[] = [];
    this.parse(part, {
      open: (name, attrs) => {
        if (name !== 'Relationship') return;
        const external = attrs.TargetMode === 'External';
        const target = attrs.Target ?? '';
        out.push({
          id: attrs.Id ?? '',
          type: attrs.Type ?? '',
          target: external ? target : resolvePart(base, target),
          external,
        });
      },
    });
    return out;
  }

  /**
   * Streams a part through the XML parser; false when the package has no such part. Bounded as it
   * streams (ReadBudget): elements in all, their depth, and what the parser holds between two events
   * — the text is handed over in slices, and a slice after which nothing happened adds to a run
   * that may not pass maxXmlTokenChars (a 100 MB attribute or run of spaces stops at 1 MiB).
   */
  private parse(part: string, handlers: XmlHandlers): boolean {
    const budget = this.budget;
    let depth = 0;
    let event = false;
    let quiet = 0;
    const parser = xmlParser(budget.lang, {
      open: (name, attrs) => {
        event = true;
        budget.element(++depth);
        handlers.open?.(name, attrs);
      },
      close: (name) => {
        event = true;
        depth--;
        handlers.close?.(name);
      },
      text: (t) => {
        event = true;
        handlers.text?.(t);
      },
    });
    const feed = (text: string): void => {
      for (let i = 0; i < text.length; i += XML_SLICE) {
        const slice = text.length <= XML_SLICE ? text : text.slice(i, i + XML_SLICE);
        parser.write(slice);
        quiet = event ? 0 : quiet + slice.length;
        event = false;
        if (quiet > budget.limits.maxXmlTokenChars) throw unreadable('xml_token_too_long', budget.lang);
      }
    };
    // The encoding is known from the part's first bytes (held until there are two of them).
    let decoder: InstanceType<typeof TextDecoder> | null = null;
    let head: Uint8Array | null = null;
    const decode = (chunk: Uint8Array, last: boolean): void => {
      if (decoder === null) {
        const bytes = head === null ? chunk : Buffer.concat([head, chunk]);
        if (bytes.length < 2 && !last) {
          head = bytes;
          return;
        }
        decoder = new TextDecoder(xmlEncoding(bytes));
        chunk = bytes;
      }
      feed(last ? decoder.decode(chunk) : decoder.decode(chunk, { stream: true }));
    };
    const found = this.zip.read(part, (chunk) => decode(chunk, false));
    if (found) {
      decode(new Uint8Array(0), true);
      parser.close();
    }
    return found;
  }
}

/** A part name as [Content_Types].xml writes it (`/xl/workbook.xml`), as the zip names it. */
function partOf(name: string): string {
  return resolvePart('', name);
}

/**
 * A relationship's target, relative to the part's folder or absolute (`/xl/...`), as a part name;
 * `\` is read as `/`, as some Excel builds write it.
 */
function resolvePart(base: string, target: string): string {
  const slashed = target.replaceAll('\\', '/');
  const path = slashed.startsWith('/') ? slashed.slice(1) : base + slashed;
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}
