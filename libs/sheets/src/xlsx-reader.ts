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

/** A custom format shows a date when, quoted text, escapes and [colour/locale] parts removed, it has d, m or y. */
export function isDateFormat(code: string): boolean {
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .split(';')[0]!;
  if (/general/i.test(bare)) return false;
  return /[dmy]/i.test(bare);
}

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
    if (names.some((n) => n.endsWith('vbaproject.bin'))) throw unreadable('macros', lang);
    if (names.some((n) => n.startsWith('xl/externallinks/'))) throw unreadable('external_links', lang);
    const types = this.zip.text('[Content_Types].xml');
    if (types === null) throw unreadable('not_xlsx', lang);
    if (/macroEnabled/i.test(types)) throw unreadable('macros', lang);

    const root = this.relationships('_rels/.rels');
    const workbookPart = root.find((r) => r.type.endsWith('/officeDocument'))?.target ?? 'xl/workbook.xml';
    const dir = workbookPart.includes('/') ? workbookPart.slice(0, workbookPart.lastIndexOf('/') + 1) : '';
    const rels = this.relationships(`${dir}_rels/${workbookPart.slice(dir.length)}.rels`, dir);
    if (rels.some((r) => r.type.endsWith('/externalLink') || r.external)) {
      throw unreadable('external_links', lang);
    }
    this.sharedStringsPart = rels.find((r) => r.type.endsWith('/sharedStrings'))?.target ?? null;
    this.stylesPart = rels.find((r) => r.type.endsWith('/styles'))?.target ?? null;
    const byId = new Map(rels.map((r) => [r.id, r.target]));

    const found = this.parse(workbookPart, {
      open: (name, attrs) => {
        if (name === 'workbookPr') {
          const v = attrs.date1904;
          this.date1904 = v === '1' || v === 'true';
        } else if (name === 'sheet') {
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

    const finishCell = (): void => {
      if (!hasValue) return;
      let cell: Cell;
      switch (type) {
        case 's': {
          const s = strings[Number(value)];
          cell = s === undefined ? { k: 'error', v: '#REF!' } : { k: 'text', v: s };
          break;
        }
        case 'inlineStr':
        case 'str':
          cell = { k: 'text', v: value };
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
          const n = Number(value);
          cell =
            value.trim() === '' || !Number.isFinite(n)
              ? { k: 'error', v: '#VALUE!' }
              : { k: 'number', v: n, date: dates[style] === true };
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
              rowNumber = Number.isInteger(r) && r > rowNumber ? r : rowNumber + 1;
              cells = [];
              col = -1;
              return;
            }
            case 'c': {
              budget.cell();
              const ref = attrs.r;
              const c = ref === undefined ? -1 : columnOfRef(ref);
              col = c >= 0 ? c : col + 1;
              type = attrs.t ?? 'n';
              style = attrs.s === undefined ? 0 : Number(attrs.s);
              value = '';
              hasValue = false;
              return;
            }
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
          if (capture !== null) value += t;
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
        if (inText) current += t;
      },
      close: (name) => {
        if (name === 't') inText = false;
        else if (name === 'rPh') inPhonetic = false;
        else if (name === 'si') {
          // A string no cell can use is still a string held: as many as cells at most.
          this.budget.sharedStrings(strings.length + 1);
          strings.push(current);
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

  /** Streams a part through the XML parser; false when the package has no such part. */
  private parse(part: string, handlers: XmlHandlers): boolean {
    const parser = xmlParser(this.budget.lang, handlers);
    const decoder = new TextDecoder('utf-8');
    const found = this.zip.read(part, (chunk) => parser.write(decoder.decode(chunk, { stream: true })));
    if (found) parser.write(decoder.decode()).close();
    return found;
  }
}

/** A relationship's target, relative to the part's folder or absolute (`/xl/...`), as a part name. */
function resolvePart(base: string, target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : base + target;
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '..') out.pop();
    else if (segment !== '.' && segment !== '') out.push(segment);
  }
  return out.join('/');
}
