import { createCsvValidator, resolveKind, type RulesEnvironment } from './api';
import type { FileValidationResponse } from './csv-validator';
import { checkFileSize } from './request';
import type { FixedFileSink } from './fixed-file';
import { ValueNormalizer, type NormalizationRule, type NormalizationSink } from './json-rows';
import type { ColumnSpec } from './format/types';
import { decodeWindows1252, textEncoding } from './text-decoding';
import { hasFrDateShape } from './values/dates';

/**
 * What fixing a file may change besides values (API.md §14 "Fix"): the bytes of a UTF-8 BOM,
 * Windows-1252 re-encoded as UTF-8, LF line endings written CRLF. Listed with `row: null`.
 */
export const FILE_FIX_RULES = ['BOM_REMOVED', 'REENCODED_AS_UTF8', 'CRLF_LINE_ENDINGS'] as const;
export type FileFixRule = (typeof FILE_FIX_RULES)[number];

/** One change of a fixed file: its line (header = 1; null for the file as a whole), column, rule. */
export interface FileChange {
  row: number | null;
  column: string | null;
  rule: NormalizationRule | FileFixRule;
}

/** POST /v1/files/fix answer (API.md §14); `content` is absent when the file cannot be mended. */
export interface FixResponse {
  content?: string;
  changes: FileChange[];
  change_count: number;
  validation: FileValidationResponse;
}

export interface FixRequest {
  type: string;
  declarant: string;
  spec_version?: string;
  strict_references?: boolean;
}

/** The changes list stops where the other lists do (the file's own changes first); change_count stays exact. */
class ChangeLog implements NormalizationSink {
  private readonly fileChanges: FileChange[] = [];
  private readonly cellChanges: FileChange[] = [];
  count = 0;
  row = 0;
  constructor(private readonly cap: number) {}

  add(_field: unknown, column: string, rule: NormalizationRule): void {
    this.count++;
    if (this.cellChanges.length < this.cap) this.cellChanges.push({ row: this.row, column, rule });
  }

  file(rule: FileFixRule): void {
    this.count++;
    this.fileChanges.push({ row: null, column: null, rule });
  }

  get entries(): FileChange[] {
    return [...this.fileChanges, ...this.cellChanges].slice(0, this.cap);
  }
}

const NO_FIELD = (): string => '';

/** Cells of codes that no normalization would change: digits (and NSF's lower-case letter), RS upper-case. */
const CLEAN_CODES: Readonly<Record<string, RegExp>> = {
  rome: /^\d+(?:\/\d+)*$/,
  formacode: /^\d+(?:\/\d+)*$/,
  nsf: /^\d+[a-z]?(?:\/\d+[a-z]?)*$/,
  rs: /^RS\d+$/,
};

/**
 * POST /v1/files/fix: an official CSV with only the normalizations of SERVICE.md §2.6 / API.md §5
 * applied, each made by the one ValueNormalizer the JSON path uses (json-rows.ts) — dates written
 * YYYY-MM-DD become dd/mm/yyyy, enumerations and NSF/RS codes take their case, separators and a
 * correct key leave NIRs and SIRETs, white space at either end goes, text is NFC — plus the file's
 * encoding and line endings. Never changed: a code that does not exist, a name, an impossible date,
 * a wrong key; they stay errors of `validation`, the validation of the fixed content. A file whose
 * header or column count is wrong cannot be mended: the answer is then its validation, no content;
 * nor can one whose bytes mix UTF-8 and bytes that are not (INVALID_ENCODING on the first line
 * holding one: text-decoding.ts MixedEncoding).
 * Throws RequestError (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION, LINE_LIMIT_EXCEEDED, and
 * UNREADABLE_FILE for a file over the spec's byte limit, before anything is decoded).
 */
export function fixCsv(bytes: Uint8Array, req: FixRequest, env: RulesEnvironment): FixResponse {
  const { fixed, changes, change_count, validation } = fixCsvFile(bytes, req, env);
  if (fixed === undefined) return { changes, change_count, validation };
  return { content: fixed.toString('utf8'), changes, change_count, validation };
}

/** fixCsv's answer with the fixed file as bytes: no string of it is made. */
export interface FixedCsvFile extends Omit<FixResponse, 'content'> {
  /** Whether the file could be mended: its bytes are `fixed`, or went to the sink. */
  mended: boolean;
  /** The fixed file, UTF-8; absent when it could not be mended or when its bytes went to the sink. */
  fixed?: Buffer;
}

/**
 * fixCsv without the string: the fixed file's bytes, or, given `sink`, those bytes handed to it a
 * block at a time as the rows are read (`ppfile fix -o` writes them to the file). When the answer
 * is not `mended`, what the sink was given is no file and must be thrown away.
 */
export function fixCsvFile(
  bytes: Uint8Array,
  req: FixRequest,
  env: RulesEnvironment,
  sink?: FixedFileSink,
): FixedCsvFile {
  const lang = env.lang ?? 'en';
  const { spec, type } = resolveKind(req, lang);
  checkFileSize(bytes.byteLength, spec.limits.maxBytes, lang);
  const columns = spec.tables[type].columns;
  const log = new ChangeLog(spec.limits.maxErrorsListed);
  const verdict = textEncoding(bytes);
  const { body, encoding } = verdict;
  if (encoding === 'utf-8-bom') log.file('BOM_REMOVED');
  if (encoding === 'windows-1252') log.file('REENCODED_AS_UTF8');

  // One pass: each row is fixed, then checked as the fixed file's row (the validator's own reading).
  const values = new ValueNormalizer(log);
  const row = (line: number, cells: readonly string[]): string[] | null => {
    log.row = line;
    let fixedRow: string[] | null = null;
    for (let c = 0; c < columns.length; c++) {
      const cell = cells[c]!;
      const fixed = fixCell(values, columns[c]!, cell);
      if (fixed !== cell) (fixedRow ??= cells.slice())[c] = fixed;
    }
    return fixedRow;
  };
  const kind = {
    type: req.type,
    declarant: req.declarant,
    spec_version: spec.version,
    strict_references: req.strict_references,
  };
  // UTF-8 is read as validate reads it, a slice at a time; Windows-1252 is decoded whole first.
  // Bytes that mix both are refused (INVALID_ENCODING on the first line that is not UTF-8): reading
  // them either way would rewrite names, which the portal matches to the NIR.
  const utf8 = encoding === 'utf-8' || encoding === 'utf-8-bom';
  const validator = createCsvValidator(kind, env, { row, source: utf8 ? body : null, sink });
  if (verdict.encoding === 'mixed') validator.mixedEncoding(verdict.line);
  else if (utf8) validator.write(body);
  else validator.writeText(decodeWindows1252(body));
  const validation = validator.end();
  // A file whose header or rows cannot be split answers as validate does: no content, no change.
  if (!validator.rewritable) return { mended: false, changes: [], change_count: 0, validation };
  if (validator.lfLineEndings || (body.length > 0 && body[body.length - 1] !== 0x0a))
    log.file('CRLF_LINE_ENDINGS');
  const fixed = validator.rewrittenBytes();
  const changes = log.entries;
  return sink
    ? { mended: true, changes, change_count: log.count, validation }
    : { mended: true, fixed, changes, change_count: log.count, validation };
}

/** One cell, through the normalization its column's type takes in a JSON body. */
function fixCell(values: ValueNormalizer, column: ColumnSpec, cell: string): string {
  if (cell === '') return cell;
  switch (column.type) {
    case 'text':
    case 'url':
      return values.text(cell, NO_FIELD, column.name);
    case 'enum':
      return values.enumValue(cell, NO_FIELD, column);
    case 'date':
      // A date already written dd/mm/yyyy is what the file wants (an impossible one stays an error).
      if (hasFrDateShape(cell)) return cell;
      return values.date(cell, NO_FIELD, column.name);
    case 'nir':
      return values.nir(cell, NO_FIELD, column.name);
    case 'siret':
      return values.siret(cell, NO_FIELD, column.name);
    case 'codes':
      // The common case, codes already as the file wants them, is left without splitting.
      if (CLEAN_CODES[column.list!]?.test(cell)) return cell;
      return cell
        .split('/')
        .map((code) => values.code(code, NO_FIELD, column.name, column.list!))
        .join('/');
  }
}
