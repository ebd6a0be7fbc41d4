import { resolveKind, validateCsv, type RulesEnvironment } from './api';
import type { FileValidationResponse } from './csv-validator';
import { ValueNormalizer, type NormalizationRule, type NormalizationSink } from './json-rows';
import { checkRowLimit } from './request';
import type { ColumnSpec } from './spec/types';
import { decodeText } from './text-decoding';

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

/** The changes list stops where the other lists do; change_count stays exact. */
class ChangeLog implements NormalizationSink {
  readonly entries: FileChange[] = [];
  count = 0;
  row = 0;
  constructor(private readonly cap: number) {}

  add(_field: unknown, column: string, rule: NormalizationRule): void {
    this.push({ row: this.row, column, rule });
  }

  file(rule: FileFixRule): void {
    this.push({ row: null, column: null, rule });
  }

  private push(change: FileChange): void {
    this.count++;
    if (this.entries.length < this.cap) this.entries.push(change);
  }
}

const NO_FIELD = (): string => '';

/**
 * POST /v1/files/fix: an official CSV with only the normalizations of SERVICE.md §2.6 / API.md §5
 * applied, each made by the one ValueNormalizer the JSON path uses (json-rows.ts) — dates written
 * YYYY-MM-DD become dd/mm/yyyy, enumerations and NSF/RS codes take their case, separators and a
 * correct key leave NIRs and SIRETs, white space at either end goes, text is NFC — plus the file's
 * encoding and line endings. Never changed: a code that does not exist, a name, an impossible date,
 * a wrong key; they stay errors of `validation`, the validation of the fixed content. A file whose
 * header or column count is wrong cannot be mended: the answer is then its validation, no content.
 * Throws RequestError (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION, LINE_LIMIT_EXCEEDED).
 */
export function fixCsv(bytes: Uint8Array, req: FixRequest, env: RulesEnvironment): FixResponse {
  const lang = env.lang ?? 'en';
  const { spec, type } = resolveKind(req, lang);
  const columns = spec.tables[type].columns;
  const log = new ChangeLog(spec.limits.maxErrorsListed);
  const validationRequest = {
    type: req.type,
    declarant: req.declarant,
    spec_version: spec.version,
    strict_references: req.strict_references,
  };

  const decoded = decodeText(bytes);
  if (decoded.encoding === 'utf-8-bom') log.file('BOM_REMOVED');
  if (decoded.encoding === 'windows-1252') log.file('REENCODED_AS_UTF8');
  const lines = decoded.text.split('\n');
  // A final line break ends the last line; it does not open an empty one (API.md §4).
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  let lfOnly = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.endsWith('\r')) lines[i] = line.slice(0, -1);
    else if (i < lines.length - 1 || decoded.text.endsWith('\n')) lfOnly = true;
  }
  if (lfOnly) log.file('CRLF_LINE_ENDINGS');

  const mended = (): string => lines.map((l) => `${l}\r\n`).join('');
  const header = columns.map((c) => c.name).join('|');
  const broken = lines[0] !== header || lines.slice(1).some((l) => l.split('|').length !== columns.length);
  if (broken) {
    // Validated as re-encoded, so that the refusal names the header or the rows, not the encoding.
    const validation = validateCsv(Buffer.from(mended(), 'utf8'), validationRequest, env);
    return { changes: [], change_count: 0, validation };
  }
  if (env.maxRows !== undefined) checkRowLimit(lines.length - 1, env.maxRows, lang);

  const values = new ValueNormalizer(log);
  for (let i = 1; i < lines.length; i++) {
    log.row = i + 1;
    const cells = lines[i]!.split('|');
    for (let c = 0; c < columns.length; c++) cells[c] = fixCell(values, columns[c]!, cells[c]!);
    lines[i] = cells.join('|');
  }
  const content = mended();
  const validation = validateCsv(Buffer.from(content, 'utf8'), validationRequest, env);
  return { content, changes: log.entries, change_count: log.count, validation };
}

/** One cell, through the normalization its column's type takes in a JSON body. */
function fixCell(values: ValueNormalizer, column: ColumnSpec, cell: string): string {
  switch (column.type) {
    case 'text':
    case 'url':
      return values.text(cell, NO_FIELD, column.name);
    case 'enum':
      return values.enumValue(cell, NO_FIELD, column);
    case 'date':
      return values.date(cell, NO_FIELD, column.name);
    case 'nir':
      return values.nir(cell, NO_FIELD, column.name);
    case 'siret':
      return values.siret(cell, NO_FIELD, column.name);
    case 'codes':
      return cell
        .split('/')
        .map((code) => values.code(code, NO_FIELD, column.name, column.list!))
        .join('/');
  }
}
