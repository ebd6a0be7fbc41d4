import {
  checkFileSize,
  checkRowLimit,
  FIELD_PROBLEMS,
  issueMessage,
  RequestError,
  resolveKind,
  validateDeclarations,
  type ColumnSpec,
  type DeclarationValidationResponse,
  type FileKind,
  type Issue,
  type Lang,
  type Normalization,
  type NormalizationRule,
  type RulesEnvironment,
  ValueNormalizer,
} from '@ppfile/rules';
import { columnLetters, sheetPrefix, type Cell, type SheetRow } from './cells';
import { readDelimited, sniffDelimited } from './delimited-reader';
import { HeaderMatcher, headerKey, type MatchHow } from './headers';
import {
  cutText,
  noHeaderRowMessage,
  sheetIssueMessage,
  someOf,
  type HeaderSearch,
  type SheetIssueCode,
} from './messages';
import { hasEncryptedPackage } from './ole';
import { readCell, type BodyValue } from './read-cell';
import { ReadBudget, unreadable } from './unreadable';
import { XlsxWorkbook, type WorkbookSheet } from './xlsx-reader';

/** The form of POST /v1/declarations/import (API.md §14), as the library takes it. */
export interface ImportRequest {
  type: string;
  declarant: string;
  spec_version?: string;
  strict_references?: boolean;
  /** A sheet's name; default: the first sheet with a recognizable header row. */
  sheet?: string;
  /**
   * `{ "<header text>": "<official column name>" }`, overriding detection; null ignores a header. An
   * object, or its JSON text as a multipart form sends it.
   */
  mapping?: unknown;
  /** The uploaded file's name: the "sheet" of a CSV in cell references. */
  filename: string;
}

type Json = Record<string, unknown>;

export interface DeclarationBody {
  type: string;
  declarant: string;
  spec_version: string;
  declarations: Json[];
}

export interface MappedHeader {
  header: string;
  column: string;
  /** The header's cell, without the sheet (`D1`). */
  cell: string;
  how: MatchHow;
}

export interface SheetIssue {
  cell: string;
  row: number;
  column: string | null;
  code: SheetIssueCode;
  message: string;
}

/** A validation entry with the cell it comes from; `row` is the sheet's row. */
export type CellIssue = Omit<Issue, 'row'> & { row: number; cell: string };
export type CellNormalization = Normalization & { cell: string };

export type ImportValidation = Omit<
  DeclarationValidationResponse,
  'errors' | 'warnings' | 'normalizations'
> & {
  errors: CellIssue[];
  warnings: CellIssue[];
  normalizations: CellNormalization[];
};

/** POST /v1/declarations/import answer (API.md §14). */
export interface ImportResult {
  body: DeclarationBody;
  sheet: string;
  header_row: number;
  rows_read: number;
  declarations: number;
  mapping: MappedHeader[];
  unmapped_headers: string[];
  missing_columns: string[];
  issue_count: number;
  issues: SheetIssue[];
  validation: ImportValidation;
}

/** The header row is looked for among the first 20 rows, and needs three recognizable headers. */
const HEADER_SEARCH_ROWS = 20;
const HEADER_MIN_MATCHES = 3;
const ISSUE_CAP = 1000;
/** Sheet names an unknown `sheet` lists (each cut to Excel's 31 characters). */
const SHEETS_LISTED = 20;
/** Header texts echoed in `mapping` and `unmapped_headers` are cut to this length; at most HEADERS_LISTED unmapped. */
const HEADER_ECHO_CHARS = 255;
const HEADERS_LISTED = 200;
/** Texts of a candidate header row kept to look for near misses in. */
const NEAR_MISS_CELLS = 64;
/**
 * The body an import builds is at most BODY_PER_BYTE times the file's size (and never less than
 * BODY_FLOOR_BYTES), and never more than the 20 MB generate takes: a real sheet makes a body of one
 * to ten times its size; a few KB of zip whose cells all point at one long shared string would make
 * hundreds of MB (issue 32).
 */
const BODY_PER_BYTE = 64;
const BODY_FLOOR_BYTES = 2 * 1024 * 1024;

/**
 * POST /v1/declarations/import: a spreadsheet (XLSX, or CSV/TSV) into the declaration body that
 * POST /v1/files/generate takes, with where each value came from and the body's validation, every
 * entry naming its cell. Pure: the bytes in memory in, data out; nothing is written anywhere.
 * Throws RequestError: INVALID_REQUEST (form, mapping, unknown sheet), UNSUPPORTED_SPEC_VERSION,
 * UNREADABLE_FILE (over the spec's 20 MB, checked first; not a readable XLSX or CSV, past the bounds
 * of ReadBudget, no header row), LINE_LIMIT_EXCEEDED (more data rows than env.maxRows).
 */
export function importSheet(bytes: Uint8Array, req: ImportRequest, env: RulesEnvironment): ImportResult {
  return importSheetLocated(bytes, req, env).result;
}

/**
 * Where an import read its body (not part of the API's answer, which stays as it is): the sheet, the
 * sheet row of each holder, and the column letters of each official column mapped. A page showing the
 * body points its rows and cells back at the person's spreadsheet with it.
 */
export interface SheetLocation {
  /** The sheet read (a CSV's: the file's name), as `ImportResult.sheet`. */
  sheet: string;
  /** The sheet row (1-based) of each holder, in body order (declaration after declaration). */
  rows: number[];
  /** Official column → its column letters in the sheet (`E`, `AB`). */
  columns: Record<string, string>;
}

export interface LocatedImport {
  result: ImportResult;
  located: SheetLocation;
}

/** importSheet, with where each holder and column of the body came from in the sheet. */
export function importSheetLocated(
  bytes: Uint8Array,
  req: ImportRequest,
  env: RulesEnvironment,
): LocatedImport {
  const lang = env.lang ?? 'en';
  const kind = resolveKind(req, lang);
  checkFileSize(bytes.byteLength, kind.spec.limits.maxBytes, lang);
  const mapping = parseMapping(req.mapping, kind, lang);
  const budget = new ReadBudget(lang);
  const bodyLimit = Math.min(
    kind.spec.limits.maxBytes,
    Math.max(BODY_FLOOR_BYTES, BODY_PER_BYTE * bytes.byteLength),
  );
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buf.length === 0) throw unreadable('empty', lang);
  const format = sniffFormat(buf);
  // An .xlsx protected by a password is an OLE file too: its directory tells it from an .xls.
  if (format === 'ole') throw unreadable(hasEncryptedPackage(buf) ? 'encrypted' : 'legacy_xls', lang);
  if (format === 'binary') throw unreadable('not_a_spreadsheet', lang);

  if (format === 'text') {
    const source = sniffDelimited(buf);
    const reader = new SheetReader(kind, mapping, req.filename, false, env, bodyLimit);
    readDelimited(source, budget, (row) => reader.visit(row));
    if (!reader.headerFound) {
      if (!reader.sawCell && source.encoding !== 'mixed') throw unreadable('empty', lang);
      throw noHeaderRow([{ ...reader.searched(false), csv: true }], kind, lang);
    }
    return reader.finishLocated(req);
  }

  const workbook = new XlsxWorkbook(buf, budget);
  let candidates: WorkbookSheet[];
  if (req.sheet !== undefined) {
    const named = workbook.sheets.find((s) => s.name === req.sheet);
    if (!named) {
      const names = someOf(
        workbook.sheets.map((s) => cutText(s.name, 31)),
        SHEETS_LISTED,
      );
      const message = `${FIELD_PROBLEMS.one_of[lang]}: ${names}`;
      throw RequestError.of(
        'INVALID_REQUEST',
        lang,
        { count: 1 },
        { fields: [{ field: 'sheet', message }], field_count: 1 },
      );
    }
    candidates = [named];
  } else {
    candidates = workbook.sheets.filter((s) => !s.hidden);
  }
  const searched: HeaderSearch[] = [];
  for (const sheet of candidates) {
    const reader = new SheetReader(kind, mapping, sheet.name, workbook.date1904, env, bodyLimit);
    workbook.readSheet(sheet, (row) => reader.visit(row));
    if (reader.headerFound) return reader.finishLocated(req);
    searched.push(reader.searched(sheet.hidden));
  }
  // The default takes visible sheets only (API.md §14); a hidden one with the headers is named.
  if (req.sheet === undefined) {
    for (const sheet of workbook.sheets.filter((s) => s.hidden)) {
      const reader = new SheetReader(kind, mapping, sheet.name, workbook.date1904, env, bodyLimit);
      workbook.readSheet(sheet, (row) => reader.visit(row));
      searched.push(reader.searched(true, reader.headerFound ? reader.foundRow : undefined));
      if (reader.headerFound) break;
    }
  }
  throw noHeaderRow(searched, kind, lang);
}

/**
 * UNREADABLE_FILE `no_header_row`, saying what the search found sheet by sheet (issue 33). Near
 * misses are looked for in the one row the message names (64 texts at most).
 */
function noHeaderRow(searched: HeaderSearch[], kind: FileKind, lang: Lang): RequestError {
  const matcher = new HeaderMatcher(kind.spec.tables[kind.type]);
  const nearMiss = (header: string) => matcher.nearMiss(header)?.name;
  return unreadable(
    'no_header_row',
    lang,
    noHeaderRowMessage(searched, requiredColumns(kind), nearMiss, lang),
  );
}

/** The columns required whatever a row holds, for the kind's declarant (API.md §14 `missing_columns`). */
function requiredColumns(kind: FileKind): string[] {
  return kind.spec.tables[kind.type].columns
    .filter((c) => {
      const p = c.presence[kind.declarant];
      const derived = c.json.kind === 'training_presence' || c.json.kind === 'employer_presence';
      return p !== 'never' && p.required && !p.when && !derived;
    })
    .map((c) => c.name);
}

/** UNREADABLE_FILE `body_too_large`: the body the file makes would pass `limit` bytes. */
function bodyTooLarge(limit: number, lang: Lang): RequestError {
  const mb = Math.floor(limit / (1024 * 1024));
  const detail =
    lang === 'fr'
      ? `le corps qu'il produirait dépasserait ${mb} Mo (64 fois la taille du fichier, 20 Mo au plus) : répartissez les lignes sur plusieurs fichiers`
      : `the body it makes would pass ${mb} MB (64 times the file's size, 20 MB at most): split its rows over several files`;
  return RequestError.of('UNREADABLE_FILE', lang, { detail }, { reason: 'body_too_large', limit });
}

function sniffFormat(buf: Buffer): 'xlsx' | 'ole' | 'binary' | 'text' {
  if (buf.length >= 4 && buf.readUInt32LE(0) === 0x04034b50) return 'xlsx';
  if (buf.length >= 8 && buf.readUInt32BE(0) === 0xd0cf11e0 && buf.readUInt32BE(4) === 0xa1b11ae1)
    return 'ole';
  // Text has no NUL byte (UTF-16 is not among the encodings §14 reads).
  if (buf.subarray(0, 8192).includes(0)) return 'binary';
  return 'text';
}

/** The mapping form field: header text → official column of this kind (or null: ignore the header). */
function parseMapping(raw: unknown, kind: FileKind, lang: Lang): Map<string, ColumnSpec | null> {
  const out = new Map<string, ColumnSpec | null>();
  if (raw === undefined || raw === null || raw === '') return out;
  const fields: { field: string; message: string }[] = [];
  // A multipart form carries the mapping as JSON text.
  if (typeof raw === 'string') {
    try {
      raw = JSON.parse(raw) as unknown;
    } catch {
      raw = undefined;
    }
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    fields.push({ field: 'mapping', message: FIELD_PROBLEMS.type_object[lang] });
  } else {
    const columns = kind.spec.tables[kind.type].columns;
    for (const [header, name] of Object.entries(raw as Json)) {
      const column = columns.find((c) => c.name === name);
      if (name === null) out.set(headerKey(header), null);
      else if (column) out.set(headerKey(header), column);
      else {
        fields.push({
          field: `mapping.${header}`,
          message: `${FIELD_PROBLEMS.one_of[lang]}: ${columns.map((c) => c.name).join(', ')}, null`,
        });
      }
    }
  }
  if (fields.length) {
    throw RequestError.of(
      'INVALID_REQUEST',
      lang,
      { count: fields.length },
      { fields, field_count: fields.length },
    );
  }
  return out;
}

interface Declaration {
  /** Its place in the body's declarations. */
  index: number;
  json: Json;
  holders: Json[];
  /** Sheet rows of its holders, in order. */
  rows: number[];
  /** Its first row's declaration-level values, to compare later rows with. */
  signature: Map<string, string>;
}

/** A normalization the reading of a cell made (API.md §5), with the sheet row it comes from. */
interface OwnNormalization extends Normalization {
  row: number;
}

/** The text of a header cell. */
function headerText(cell: Cell): string {
  switch (cell.k) {
    case 'text':
    case 'error':
    case 'iso':
      return cell.v.trim();
    case 'number':
      return String(cell.v);
    case 'bool':
      return cell.v ? 'TRUE' : 'FALSE';
    case 'uncomputed':
      return '';
  }
}

/**
 * One sheet, row by row: finds the header row, then reads each data row into the body at once (the
 * rows are not kept, only the body they make and where each of its holders came from).
 */
class SheetReader {
  headerFound = false;
  /** Whether any row had a non-empty cell (a text file of none is empty). */
  sawCell = false;
  private headerRow = 0;
  /** The row among the first 20 that came closest to a header row, for the refusal's message. */
  private best: { row: number; recognized: string[]; unmatched: string[] } | null = null;
  /** A row that is a header row once the quotes around its texts are taken off (a `|` file from LibreOffice). */
  private quotedRow: number | null = null;
  private readonly matcher: HeaderMatcher;
  private readonly columns: readonly ColumnSpec[];
  /** Sheet column → official column. */
  private byCol = new Map<number, ColumnSpec>();
  private colOf = new Map<string, number>();
  private mapped: MappedHeader[] = [];
  private unmapped: string[] = [];
  private readonly prefix: string;
  private readonly lang: Lang;
  private readonly declarations: Declaration[] = [];
  private readonly byId = new Map<string, Declaration>();
  private rowsRead = 0;
  private bodyBytes = 0;
  private sawData = false;
  private readonly issues: SheetIssue[] = [];
  private issueCount = 0;
  /** The normalizations of §5 the reading of the cells made itself (a d/m/yyyy date), in body order. */
  private readonly ownNormalizations: OwnNormalization[] = [];

  constructor(
    private readonly kind: FileKind,
    private readonly mapping: ReadonlyMap<string, ColumnSpec | null>,
    private readonly sheetName: string,
    private readonly date1904: boolean,
    private readonly env: RulesEnvironment,
    /** Bytes the body may take, counted as JSON text (values, their keys and quotes). */
    private readonly bodyLimit: number,
  ) {
    const table = kind.spec.tables[kind.type];
    this.columns = table.columns;
    this.matcher = new HeaderMatcher(table);
    this.prefix = sheetPrefix(sheetName);
    this.lang = env.lang ?? 'en';
  }

  visit(row: SheetRow): boolean {
    if (row.cells.length) this.sawCell = true;
    if (!this.headerFound) {
      if (row.row > HEADER_SEARCH_ROWS) return false;
      this.tryHeader(row);
      return true;
    }
    if (!this.sawData && this.isLabelRow(row)) return true;
    this.dataRow(row);
    return true;
  }

  private match(text: string): { column: ColumnSpec | null; how: MatchHow } | undefined {
    const key = headerKey(text);
    if (this.mapping.has(key)) return { column: this.mapping.get(key)!, how: 'given' };
    return this.matcher.match(text);
  }

  private tryHeader(row: SheetRow): void {
    const found = row.cells.map(({ col, cell }) => ({ col, text: headerText(cell) }));
    const matches = found.map((h) => ({ ...h, m: h.text === '' ? undefined : this.match(h.text) }));
    // Three different official columns: "Nom", "Nom de famille" and "NOM_TITULAIRE" are one.
    const distinct = new Set(matches.flatMap((h) => (h.m?.column ? [h.m.column.name] : [])));
    if (distinct.size < HEADER_MIN_MATCHES) {
      this.noteCandidate(row.row, distinct, matches);
      return;
    }
    this.headerFound = true;
    this.headerRow = row.row;
    for (const { col, text, m } of matches) {
      if (text === '') continue;
      const column = m?.column;
      // One sheet column per official column: a second header naming it is left out, listed.
      if (!column || this.colOf.has(column.name)) {
        if (this.unmapped.length < HEADERS_LISTED) this.unmapped.push(cutText(text, HEADER_ECHO_CHARS));
        continue;
      }
      this.byCol.set(col, column);
      this.colOf.set(column.name, col);
      this.mapped.push({
        header: cutText(text, HEADER_ECHO_CHARS),
        column: column.name,
        cell: `${columnLetters(col)}${row.row}`,
        how: m.how,
      });
    }
  }

  /** The sheet's row number of its header row (when found). */
  get foundRow(): number {
    return this.headerRow;
  }

  /**
   * A row that is not a header row, kept when it names more columns than the others, with its other
   * texts that may be near misses (header-like: no digit, at most 255 characters; compared with the
   * columns only when the refusal is worded, for the one row it names).
   */
  private noteCandidate(
    row: number,
    distinct: ReadonlySet<string>,
    matches: { text: string; m: { column: ColumnSpec | null } | undefined }[],
  ): void {
    if (this.quotedRow === null && matches.some((h) => h.text.startsWith('"'))) {
      const unquoted = new Set<string>();
      for (const { text } of matches) {
        const inner =
          text.length >= 2 && text.startsWith('"') && text.endsWith('"') ? text.slice(1, -1) : text;
        const column = inner === '' ? undefined : this.match(inner)?.column;
        if (column) unquoted.add(column.name);
      }
      if (unquoted.size >= HEADER_MIN_MATCHES) this.quotedRow = row;
    }
    if (distinct.size === 0 || distinct.size <= (this.best?.recognized.length ?? 0)) return;
    const unmatched: string[] = [];
    for (const { text, m } of matches) {
      if (unmatched.length >= NEAR_MISS_CELLS) break;
      // A text with a digit is data (a date, a code, a NIR), not a header: never quoted.
      if (m === undefined && text !== '' && text.length <= HEADER_ECHO_CHARS && !/\d/.test(text)) {
        unmatched.push(text);
      }
    }
    this.best = {
      row,
      recognized: this.columns.filter((c) => distinct.has(c.name)).map((c) => c.name),
      unmatched,
    };
  }

  /** What the header search of this sheet found, for the refusal's message. */
  searched(hidden: boolean, headerRow?: number): HeaderSearch {
    return {
      sheet: this.sheetName,
      hidden,
      headerRow,
      quotedRow: this.quotedRow ?? undefined,
      best: this.best ?? undefined,
    };
  }

  /** A second header row right under the first — the template's French labels — is not data. */
  private isLabelRow(row: SheetRow): boolean {
    let any = false;
    for (const { col, cell } of row.cells) {
      const column = this.byCol.get(col);
      if (!column) continue;
      const m = this.match(headerText(cell));
      if (m?.column !== column) return false;
      any = true;
    }
    return any;
  }

  /** A value the body will hold, counted as JSON text (with its key and quotes; not its escapes) before it is kept. */
  private spend(column: ColumnSpec, value: BodyValue): void {
    const text =
      typeof value === 'string'
        ? value.length
        : typeof value === 'boolean'
          ? 5
          : value.reduce((n, v) => n + v.length + 3, 2);
    this.bodyBytes += text + column.json.path.length + 6;
    if (this.bodyBytes > this.bodyLimit) throw bodyTooLarge(this.bodyLimit, this.lang);
  }

  private cellRef(col: number, row: number): string {
    return `${this.prefix}!${columnLetters(col)}${row}`;
  }

  private issue(
    code: SheetIssueCode,
    row: number,
    column: ColumnSpec,
    extra: { detail?: string; first_row?: number } = {},
  ): void {
    this.issueCount++;
    if (this.issues.length >= ISSUE_CAP) return;
    const col = this.colOf.get(column.name)!;
    this.issues.push({
      cell: this.cellRef(col, row),
      row,
      column: column.name,
      code,
      message: sheetIssueMessage(code, this.lang, { column: column.name, ...extra }),
    });
  }

  private dataRow(row: SheetRow): void {
    const values = new Map<string, BodyValue>();
    const normalized = new Map<string, NormalizationRule>();
    let filled = false;
    for (const { col, cell } of row.cells) {
      const column = this.byCol.get(col);
      if (!column) continue;
      if (cell.k === 'text' && cell.v.trim() === '') continue;
      filled = true;
      const read = readCell(cell, column, this.date1904);
      if (read.issue) this.issue(read.issue.code, row.row, column, { detail: read.issue.error });
      if (read.value !== undefined) values.set(column.name, read.value);
      if (read.normalized) normalized.set(column.name, read.normalized);
    }
    // Empty rows are skipped (API.md §14), and so are rows whose only cells are unmapped.
    if (!filled) return;
    this.sawData = true;
    this.rowsRead++;
    if (this.env.maxRows !== undefined) checkRowLimit(this.rowsRead, this.env.maxRows, this.lang);

    // Rows are grouped by the value the body's validation will hold: "S1" and "S1 " are one declaration.
    const id = values.get('ID_DECLARATION');
    const key = typeof id === 'string' ? cleanText(id) : '';
    let decl = key !== '' ? this.byId.get(key) : undefined;
    if (!decl) {
      decl = this.openDeclaration(row.row, values, normalized);
      if (key !== '') this.byId.set(key, decl);
    } else {
      for (const column of this.columns) {
        if (column.level !== 'declaration' || !this.colOf.has(column.name)) continue;
        // An empty cell repeats nothing and contradicts nothing: only a value that differs is reported.
        const value = values.get(column.name);
        if (value !== undefined && decl.signature.get(column.name) !== signatureOf(value)) {
          this.issue('DECLARATION_VALUES_DIFFER', row.row, column, { first_row: decl.rows[0] });
        }
      }
    }
    const holder: Json = {};
    for (const column of this.columns) {
      if (column.level !== 'holder') continue;
      const value = values.get(column.name);
      if (value === undefined) continue;
      this.spend(column, value);
      holder[column.json.path] = value;
      const rule = normalized.get(column.name);
      if (rule) {
        const field = `declarations[${decl.index}].holders[${decl.holders.length}].${column.json.path}`;
        this.ownNormalizations.push({ field, column: column.name, rule, row: row.row });
      }
    }
    decl.holders.push(holder);
    decl.rows.push(row.row);
  }

  private openDeclaration(
    row: number,
    values: Map<string, BodyValue>,
    normalized: ReadonlyMap<string, NormalizationRule>,
  ): Declaration {
    const index = this.declarations.length;
    const json: Json = {};
    const signature = new Map<string, string>();
    const presence = this.columns.find((c) => c.json.kind === 'training_presence');
    const withTraining = presence ? values.get(presence.name) : undefined;
    for (const column of this.columns) {
      if (column.level !== 'declaration') continue;
      const value = values.get(column.name);
      signature.set(column.name, signatureOf(value));
      if (value === undefined || column.json.kind === 'training_presence') continue;
      const [head, tail] = column.json.path.split('.') as [string, string | undefined];
      if (tail === undefined) {
        this.spend(column, value);
        json[head] = value;
        continue;
      }
      if (head === 'training' && withTraining === false) {
        this.issue('CELL_IGNORED', row, column);
        continue;
      }
      this.spend(column, value);
      const parent = (json[head] ??= {}) as Json;
      parent[tail] = value;
      const rule = normalized.get(column.name);
      if (rule) {
        const field = `declarations[${index}].${column.json.path}`;
        this.ownNormalizations.push({ field, column: column.name, rule, row });
      }
    }
    // PRESENCE_FORMATION = OUI with no training cell still states a training (its fields then missing).
    if (withTraining === true && json.training === undefined) json.training = {};
    const decl: Declaration = { index, json, holders: [], rows: [], signature };
    this.declarations.push(decl);
    return decl;
  }

  finishLocated(req: ImportRequest): LocatedImport {
    const columns: Record<string, string> = {};
    for (const column of this.columns) {
      const col = this.colOf.get(column.name);
      if (col !== undefined) columns[column.name] = columnLetters(col);
    }
    return {
      result: this.finish(req),
      located: { sheet: this.sheetName, rows: this.declarations.flatMap((d) => d.rows), columns },
    };
  }

  private finish(req: ImportRequest): ImportResult {
    const { spec, type, declarant } = this.kind;
    const body: DeclarationBody = {
      type,
      declarant,
      spec_version: spec.version,
      declarations: this.declarations.map((d) => ({ ...d.json, holders: d.holders })),
    };
    const missing = requiredColumns(this.kind).filter((name) => !this.colOf.has(name));
    return {
      body,
      sheet: this.sheetName,
      header_row: this.headerRow,
      rows_read: this.rowsRead,
      declarations: this.declarations.length,
      mapping: this.mapped,
      unmapped_headers: this.unmapped,
      missing_columns: missing,
      issue_count: this.issueCount,
      // In the sheet's order: a row's cells before the declaration-level comparison found them.
      issues: this.issues.sort(
        (a, b) =>
          a.row - b.row || (this.colOf.get(a.column ?? '') ?? 0) - (this.colOf.get(b.column ?? '') ?? 0),
      ),
      validation: this.validate(body, req),
    };
  }

  /** The body's validation (POST /v1/declarations/validate), each entry pointed back at its cell. */
  private validate(body: DeclarationBody, req: ImportRequest): ImportValidation {
    const sourceRows = this.declarations.flatMap((d) => d.rows);
    const response =
      body.declarations.length === 0
        ? emptyValidation(body.spec_version, this.lang)
        : validateDeclarations(
            req.strict_references === undefined
              ? body
              : { ...body, options: { strict_references: req.strict_references } },
            this.env,
          );
    const at = (row: number | null, column: string | null): { row: number; cell: string } => {
      const src = row === null ? this.headerRow : (sourceRows[row - 2] ?? this.headerRow);
      const col = column === null ? undefined : this.colOf.get(column);
      return { row: src, cell: col === undefined ? `${this.prefix}!${src}:${src}` : this.cellRef(col, src) };
    };
    const point = (i: Issue): CellIssue => {
      const { row, cell } = at(i.row, i.column);
      return { ...i, row, cell };
    };
    const normalization = (n: Normalization): CellNormalization => {
      const m = /^declarations\[(\d+)\](?:\.holders\[(\d+)\])?/.exec(n.field);
      const decl = m ? this.declarations[Number(m[1])] : undefined;
      const src = decl
        ? (decl.rows[m![2] === undefined ? 0 : Number(m![2])] ?? decl.rows[0]!)
        : this.headerRow;
      const col = this.colOf.get(n.column);
      return { ...n, cell: col === undefined ? `${this.prefix}!${src}:${src}` : this.cellRef(col, src) };
    };
    // The reading's own normalizations (only a field with a value has one, so a decl-level column's
    // is only that of a declaration's first row), among the validation's, in the body's order.
    const own = this.ownNormalizations.map((n): CellNormalization => ({
      field: n.field,
      column: n.column,
      rule: n.rule,
      cell: this.cellRef(this.colOf.get(n.column)!, n.row),
    }));
    const normalizations = own.length
      ? sortByField([...response.normalizations.map(normalization), ...own], this.columns).slice(
          0,
          this.kind.spec.limits.maxErrorsListed,
        )
      : response.normalizations.map(normalization);
    return {
      ...response,
      errors: response.errors.map(point),
      warnings: response.warnings.map(point),
      normalization_count: response.normalization_count + own.length,
      normalizations,
    };
  }
}

/**
 * Normalizations in the body's order, as the validation lists them: declaration after declaration,
 * its own fields before its holders', holder after holder, columns in the official order.
 */
function sortByField(list: CellNormalization[], columns: readonly ColumnSpec[]): CellNormalization[] {
  const order = new Map(columns.map((c, i) => [c.name, i]));
  const key = (n: CellNormalization): [number, number, number] => {
    const m = /^declarations\[(\d+)\](?:\.holders\[(\d+)\])?/.exec(n.field);
    return [Number(m?.[1] ?? 0), m?.[2] === undefined ? -1 : Number(m[2]), order.get(n.column) ?? 0];
  };
  return list
    .map((n) => ({ n, k: key(n) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2])
    .map(({ n }) => n);
}

/**
 * libs/rules' own cleanup of a text value (white space trimmed, NFC: the ValueNormalizer of every JSON
 * body), unlogged here: the body keeps the first row's text and its validation lists the cleanup.
 */
const CLEANUP = new ValueNormalizer({ add: () => undefined });
const NO_FIELD = (): string => '';
function cleanText(value: string): string {
  return CLEANUP.text(value, NO_FIELD, '');
}

/** Values compared across a declaration's rows: as the body's validation will hold them (cleaned). */
function signatureOf(value: BodyValue | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return `s${cleanText(value)}`;
  if (typeof value === 'boolean') return value ? 'b1' : 'b0';
  return `a${value.map(cleanText).join('\u0000')}`;
}

/** A header but no data row: nothing to validate; the warning CSV validation gives (NO_DATA_ROWS). */
function emptyValidation(specVersion: string, lang: Lang): DeclarationValidationResponse {
  const warning: Issue = {
    row: null,
    column: null,
    code: 'NO_DATA_ROWS',
    message: issueMessage('NO_DATA_ROWS', lang, {}),
  };
  return {
    valid: true,
    spec_version: specVersion,
    rows_total: 0,
    rows_valid: 0,
    rows_invalid: 0,
    error_count: 0,
    truncated: false,
    errors: [],
    warning_count: 1,
    warnings: [warning],
    normalization_count: 0,
    normalizations: [],
    summary: { by_code: {}, by_column: {} },
  };
}
