import { isUtf8 } from 'node:buffer';
import { fileNameProblem } from './file-name';
import { FixedFile, type FixedFileSink } from './fixed-file';
import { IssueCollector, type Issue, type IssueSummary } from './issues';
import type { Lang } from './catalogue';
import type { ReferenceLists } from './references';
import { checkRowLimit } from './request';
import { RowChecker } from './row-checker';
import type { Declarant, FileType, SpecVersion } from './format/types';
import type { DayNumber } from './values/dates';

export interface CsvValidationOptions {
  spec: SpecVersion;
  type: FileType;
  declarant: Declarant;
  refs: ReferenceLists;
  today: DayNumber;
  strictReferences: boolean;
  lang: Lang;
  /** The name the file would be filed under (checked against the portal's rule), if known. */
  filename?: string;
  /** Rows allowed in one request (API.md §6 LINE_LIMIT_EXCEEDED); none when absent. */
  maxRows?: number;
  /** POST /v1/files/fix (csv-fixer.ts): the file is validated as it is rewritten. */
  rewrite?: CsvRewrite;
}

/**
 * `row` rewrites each data row before it is checked: it answers the row's cells as they are to be
 * (a new array, as many) or null when none changes. The file's lines are kept as rewritten, written
 * with CRLF (fixed-file.ts), so that the validation is the one of the fixed file (no LF_LINE_ENDINGS
 * warning). `source`: the bytes written, when they are UTF-8 (without a BOM), or null when not.
 */
export interface CsvRewrite {
  row: (line: number, cells: readonly string[]) => readonly string[] | null;
  source: Buffer | null;
  /** Where the fixed file's bytes go as they are made, instead of rewrittenBytes(). */
  sink?: FixedFileSink;
}

/** POST /v1/files/validate response (SERVICE.md §2.4, API.md §4). */
export interface FileValidationResponse {
  valid: boolean;
  spec_version: string;
  file_rejected: boolean;
  rows_total: number;
  rows_valid: number;
  rows_invalid: number;
  error_count: number;
  truncated: boolean;
  errors: Issue[];
  warning_count: number;
  warnings: Issue[];
  summary: IssueSummary;
}

const LF = 10;
/** Bytes decoded at once by write(), whatever the chunk written. */
const DECODE_SLICE = 1 << 16;

/**
 * Validates an official CSV file as it streams in, line by line (API.md §4 "Reading an uploaded
 * CSV"): fields are split on `|` only, a final empty line is ignored, trailing CR is stripped.
 * Memory stays proportional to one chunk plus what cross-row checks must remember (unique ids,
 * one row per declaration). File-level problems reject the file: its rows are then not reported.
 * Throws RequestError LINE_LIMIT_EXCEEDED past `maxRows`.
 */
export class CsvFileValidator {
  private readonly fileIssues: IssueCollector;
  private readonly issues: IssueCollector;
  private readonly checker: RowChecker;
  private readonly names: readonly string[];
  private pending: Buffer | null = null;
  private lineNo = 0;
  private dataRows = 0;
  private rejected = false;
  private lfOnly = false;
  private deferredEmptyLine = 0;
  private ended = false;
  /** With rewrite: the fixed file as its lines are read, header included; dropped once it cannot be rewritten. */
  private rewritten: FixedFile | null;
  private rewriteBroken = false;

  constructor(private readonly opts: CsvValidationOptions) {
    const cap = opts.spec.limits.maxErrorsListed;
    this.fileIssues = new IssueCollector(opts.lang, cap);
    this.issues = new IssueCollector(opts.lang, cap);
    const table = opts.spec.tables[opts.type];
    this.names = table.columns.map((c) => c.name);
    this.rewritten = opts.rewrite ? new FixedFile(opts.rewrite.source, opts.rewrite.sink) : null;
    this.checker = new RowChecker({
      input: 'csv',
      spec: opts.spec,
      table,
      declarant: opts.declarant,
      refs: opts.refs,
      today: opts.today,
      strictReferences: opts.strictReferences,
      formulaPolicy: 'warn_only',
      issues: this.issues,
    });
    if (opts.filename !== undefined) {
      const reason = fileNameProblem(opts.filename);
      if (reason) this.reject('INVALID_FILENAME', null, { reason });
    }
  }

  /** Whether a line ended with LF alone. */
  get lfLineEndings(): boolean {
    return this.lfOnly;
  }

  /** With rewrite, after end(): whether the file could be rewritten (its header and every row split). */
  get rewritable(): boolean {
    return this.rewritten !== null && !this.rejected && !this.rewriteBroken;
  }

  /**
   * With rewrite, when rewritable: the fixed file's bytes, UTF-8, every line ending CRLF (with a
   * sink, the last of them go to it and the answer is empty).
   */
  rewrittenBytes(): Buffer {
    return this.rewritten!.finish();
  }

  /** Complete lines read so far, the header included (a progress display's count). */
  get linesRead(): number {
    return this.lineNo;
  }

  write(chunk: Uint8Array): void {
    if (this.rejected && this.lineNo > 0) return;
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    // The lines the chunk completes are UTF-8 or not as a whole, before any of them is read (as when
    // the chunk was decoded at once): a wrong header, a refused file name or too many rows in its
    // first slices do not hide bytes that are not UTF-8 further on.
    if (!this.completesUtf8(bytes)) return this.notUtf8();
    // Decoded a slice at a time: each slice's text dies young, where a whole upload's text would be
    // tens of megabytes of fresh memory (bench/sheets.bench.ts: 123 ms → 20 ms for 16.8 MB). A slice
    // ends after a line feed, so that a line longer than a slice is one slice, not pieces joined
    // again and again.
    for (let at = 0; at < bytes.length;) {
      let end = Math.min(at + DECODE_SLICE, bytes.length);
      if (end < bytes.length) {
        const lf = bytes.lastIndexOf(LF, end - 1);
        end = lf >= at ? lf + 1 : bytes.indexOf(LF, end) + 1 || bytes.length;
      }
      this.writeSlice(bytes.subarray(at, end));
      at = end;
    }
  }

  /** Whether the pending line and the lines of `bytes` up to its last LF are UTF-8 (LF never splits a character). */
  private completesUtf8(bytes: Buffer): boolean {
    const last = bytes.lastIndexOf(LF);
    if (last < 0) return true;
    const first = bytes.indexOf(LF) + 1;
    const head = this.pending
      ? Buffer.concat([this.pending, bytes.subarray(0, first)])
      : bytes.subarray(0, first);
    return isUtf8(head) && isUtf8(bytes.subarray(first, last + 1));
  }

  private writeSlice(bytes: Buffer): void {
    if (this.rejected && this.lineNo > 0) return;
    const data = this.pending ? Buffer.concat([this.pending, bytes]) : bytes;
    const last = data.lastIndexOf(LF);
    if (last < 0) {
      this.pending = Buffer.from(data);
      return;
    }
    // Keep a copy of the unfinished line only, so that the caller's chunk can be released.
    this.pending = last + 1 < data.length ? Buffer.from(data.subarray(last + 1)) : null;
    this.decode(data.subarray(0, last + 1), true);
  }

  end(): FileValidationResponse {
    if (this.ended) throw new Error('CsvFileValidator.end() called twice');
    this.ended = true;
    if (this.pending && !(this.rejected && this.lineNo > 0)) this.decode(this.pending, false);
    this.pending = null;
    if (this.lineNo === 0 && !this.rejected) this.reject('EMPTY_FILE', null);
    else if (this.lineNo === 0) this.fileIssues.error('EMPTY_FILE', null, null);

    if (this.rejected) {
      const { errors } = this.fileIssues.sorted();
      return {
        valid: false,
        spec_version: this.opts.spec.version,
        file_rejected: true,
        rows_total: 0,
        rows_valid: 0,
        rows_invalid: 0,
        error_count: this.fileIssues.errorCount,
        truncated: false,
        errors,
        warning_count: 0,
        warnings: [],
        summary: this.fileIssues.summary(),
      };
    }
    const counts = this.checker.finish();
    if (this.lfOnly && !this.rewritten) this.issues.warning('LF_LINE_ENDINGS', null, null);
    if (counts.rows_total === 0) this.issues.warning('NO_DATA_ROWS', null, null);
    const { errors, warnings } = this.issues.sorted();
    return {
      valid: this.issues.errorCount === 0,
      spec_version: this.opts.spec.version,
      file_rejected: false,
      rows_total: counts.rows_total,
      rows_valid: counts.rows_valid,
      rows_invalid: counts.rows_invalid,
      error_count: this.issues.errorCount,
      truncated: this.issues.truncated,
      errors,
      warning_count: this.issues.warningCount,
      warnings,
      summary: this.issues.summary(),
    };
  }

  /** `bytes` ends with LF when `terminated`; UTF-8 is checked on whole lines only (LF never splits a character). */
  private decode(bytes: Buffer, terminated: boolean): void {
    if (!isUtf8(bytes)) return this.notUtf8();
    this.lines(bytes.toString('utf8'), terminated);
  }

  private notUtf8(): void {
    this.reject('INVALID_ENCODING', null, { reason: 'utf8' });
    if (this.lineNo === 0) this.lineNo = 1;
  }

  /**
   * The whole file at once as text already decoded (the fix reads Windows-1252 and removes a BOM
   * itself, csv-fixer.ts); instead of write(), not with it.
   */
  writeText(text: string): void {
    if (this.pending || this.lineNo > 0) throw new Error('CsvFileValidator.writeText() takes the whole file');
    this.lines(text, false);
  }

  /**
   * The fix's verdict on bytes that mix UTF-8 and bytes that are not (text-decoding.ts
   * MixedEncoding): the file is refused as validate refuses bytes that are not UTF-8, naming the
   * first `line` holding one; instead of write(), not with it.
   */
  mixedEncoding(line: number): void {
    if (this.pending || this.lineNo > 0)
      throw new Error('CsvFileValidator.mixedEncoding() takes the whole file');
    this.reject('INVALID_ENCODING', line, { reason: 'mixed' });
    this.lineNo = 1;
  }

  private lines(text: string, terminated: boolean): void {
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      this.line(text, start, nl, true);
      if (this.rejected) return;
      start = nl + 1;
    }
    if (!terminated && start < text.length) this.line(text, start, text.length, false);
  }

  private line(text: string, start: number, end: number, terminated: boolean): void {
    this.lineNo++;
    let stop = end;
    if (stop > start && text.charCodeAt(stop - 1) === 13) stop--;
    else if (terminated) this.lfOnly = true;
    const line = text.slice(start, stop);
    if (this.lineNo === 1) {
      this.keep(line);
      return this.header(line);
    }
    if (this.rejected) return;
    if (line === '') {
      // Only a final empty line is harmless; we learn it was final when nothing follows.
      if (this.deferredEmptyLine) this.emptyLine(this.deferredEmptyLine);
      this.deferredEmptyLine = this.lineNo;
      // A lone CR ending the file (no LF after it) is no line of the fixed file: it ends with the LF before.
      if (terminated) this.keep(line);
      return;
    }
    if (this.deferredEmptyLine) {
      this.emptyLine(this.deferredEmptyLine);
      this.deferredEmptyLine = 0;
    }
    this.countRow();
    const cells = line.split('|');
    if (cells.length !== this.names.length) {
      this.issues.error('COLUMN_COUNT', this.lineNo, null, undefined, {
        count: cells.length,
        expected: String(this.names.length),
      });
      this.checker.addBrokenRow();
      // A row that cannot be split is not mended: the fixed file is not produced.
      this.rejectRewrite();
      return;
    }
    if (this.rewritten && !this.rewriteBroken) {
      const fixed = this.opts.rewrite!.row(this.lineNo, cells);
      if (fixed === null) this.rewritten.line(line);
      else {
        this.rewritten.row(fixed, cells);
        return this.checker.addRow(this.lineNo, fixed);
      }
    }
    this.checker.addRow(this.lineNo, cells);
  }

  /** With rewrite: a line the fixed file holds as read. */
  private keep(line: string): void {
    if (this.rewritten && !this.rewriteBroken) this.rewritten.line(line);
  }

  private rejectRewrite(): void {
    if (this.rewritten) this.rewritten = new FixedFile(null);
    this.rewriteBroken = true;
  }

  private emptyLine(lineNo: number): void {
    this.rejectRewrite();
    this.countRow();
    this.issues.error('COLUMN_COUNT', lineNo, null, undefined, {
      count: 0,
      expected: String(this.names.length),
    });
    this.checker.addBrokenRow();
  }

  private countRow(): void {
    this.dataRows++;
    if (this.opts.maxRows !== undefined) checkRowLimit(this.dataRows, this.opts.maxRows, this.opts.lang);
  }

  private header(line: string): void {
    if (line === '') return this.reject('EMPTY_FILE', null);
    // A BOM opening the file is an encoding matter; anywhere else it is a character of a cell
    // (INVALID_CHARACTER, values/text.ts).
    if (line.charCodeAt(0) === 0xfeff) return this.reject('INVALID_ENCODING', null, { reason: 'bom' });
    if (!line.includes('|')) return this.reject('INVALID_SEPARATOR', 1);
    const cells = line.split('|');
    const diff = this.names.findIndex((name, i) => cells[i] !== name);
    if (diff >= 0 || cells.length !== this.names.length) {
      const position = diff >= 0 ? diff + 1 : this.names.length + 1;
      this.reject('INVALID_HEADER', 1, {
        count: this.names.length,
        position,
        expected: this.names[position - 1] ?? '(end of line)',
      });
    }
  }

  private reject(
    code: 'EMPTY_FILE' | 'INVALID_ENCODING' | 'INVALID_SEPARATOR' | 'INVALID_HEADER' | 'INVALID_FILENAME',
    row: number | null,
    params?: Parameters<IssueCollector['error']>[4],
  ): void {
    this.rejected = true;
    this.fileIssues.error(code, row, null, undefined, params);
  }
}
