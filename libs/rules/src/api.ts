import { createHash, randomBytes } from 'node:crypto';
import { CsvWriter } from './csv-writer';
import { CsvFileValidator, type CsvValidationOptions, type FileValidationResponse } from './csv-validator';
import { generatedFileName } from './file-name';
import { IssueCollector, type Issue, type IssueSummary } from './issues';
import { JsonRowMapper, NormalizationLog, type Normalization } from './json-rows';
import type { Lang } from './catalogue';
import { FIELD_PROBLEMS } from './messages';
import type { ReferenceLists } from './references';
import { checkRowLimit, parseDeclarationRequest, RequestError, type DeclarationRequest } from './request';
import type { GenerationOptions } from './request-shape';
import { RowChecker } from './row-checker';
import { CURRENT_SPEC_VERSION, DECLARANTS, FILE_TYPES, SPEC_VERSIONS, findSpec } from './format';
import type { Declarant, FileType, SpecVersion } from './format/types';
import { parisDay, type DayNumber } from './values/dates';

/** What every entry point needs besides the input: a pure function of these (STYLE.md). */
export interface RulesEnvironment {
  refs: ReferenceLists;
  /** The validation day (Europe/Paris); today when absent. */
  today?: DayNumber;
  /** The day that dates a generated file's name (Europe/Paris); today when absent. */
  generationDay?: DayNumber;
  lang?: Lang;
  /** Rows allowed in one request (50,000 live, 50 test); unlimited when absent. */
  maxRows?: number;
}

/** POST /v1/declarations/validate response (SERVICE.md §2.4, API.md §4–§5). */
export interface DeclarationValidationResponse {
  valid: boolean;
  spec_version: string;
  rows_total: number;
  rows_valid: number;
  rows_invalid: number;
  error_count: number;
  truncated: boolean;
  errors: Issue[];
  warning_count: number;
  warnings: Issue[];
  normalization_count: number;
  normalizations: Normalization[];
  summary: IssueSummary;
}

export interface GeneratedFile {
  type: FileType;
  declarant: Declarant;
  spec_version: string;
  options: GenerationOptions;
  rows: number;
  declarations: number;
  filename: string;
  sha256: string;
  content: Buffer;
  warning_count: number;
  warnings: Issue[];
  normalization_count: number;
  normalizations: Normalization[];
}

interface CheckedDeclarations {
  request: DeclarationRequest;
  /** The file's bytes, when asked for and every row is valid. */
  content: Buffer | null;
  declarations: number;
  response: DeclarationValidationResponse;
}

function checkDeclarations(raw: unknown, env: RulesEnvironment, write: boolean): CheckedDeclarations {
  return checkRequest(parseRequest(raw, env), env, write);
}

/** Structure check and row limit: what a caller may do before spending anything (quota, storage). */
export function parseRequest(
  raw: unknown,
  env: Pick<RulesEnvironment, 'lang' | 'maxRows'>,
): DeclarationRequest {
  const lang = env.lang ?? 'en';
  const request = parseDeclarationRequest(raw, lang);
  if (env.maxRows !== undefined) checkRowLimit(request.rowCount, env.maxRows, lang);
  return request;
}

function checkRequest(
  request: DeclarationRequest,
  env: RulesEnvironment,
  write: boolean,
): CheckedDeclarations {
  const lang = env.lang ?? 'en';
  const { spec, options } = request;
  const table = spec.tables[request.type];
  const cap = spec.limits.maxErrorsListed;
  const log = new NormalizationLog(cap);
  const issues = new IssueCollector(lang, cap);
  const checker = new RowChecker({
    input: 'json',
    spec,
    table,
    declarant: request.declarant,
    refs: env.refs,
    today: env.today ?? parisDay(),
    strictReferences: options.strict_references,
    formulaPolicy: options.formula_policy,
    issues,
    fieldOf: JsonRowMapper.fieldOf,
  });
  const writer = write ? new CsvWriter(table, request.rowCount) : null;
  // JSON rows occupy lines 2… of the file that would be generated (API.md §4).
  let line = 2;
  new JsonRowMapper(table, request, log).forEachRow((cells, loc) => {
    checker.addRow(line++, cells, loc);
    writer?.add(cells);
  });
  const counts = checker.finish();
  const { errors, warnings } = issues.sorted();
  return {
    request,
    content: writer && issues.errorCount === 0 ? writer.toBuffer() : null,
    declarations: counts.declarations,
    response: {
      valid: issues.errorCount === 0,
      spec_version: spec.version,
      rows_total: counts.rows_total,
      rows_valid: counts.rows_valid,
      rows_invalid: counts.rows_invalid,
      error_count: issues.errorCount,
      truncated: issues.truncated,
      errors,
      warning_count: issues.warningCount,
      warnings,
      normalization_count: log.count,
      normalizations: log.entries,
      summary: issues.summary(),
    },
  };
}

/** POST /v1/declarations/validate. Throws RequestError for a malformed request. */
export function validateDeclarations(raw: unknown, env: RulesEnvironment): DeclarationValidationResponse {
  return checkDeclarations(raw, env, false).response;
}

/**
 * POST /v1/files/generate, minus storage: the file's bytes and metadata. When any row is invalid no
 * file is produced: throws RequestError VALIDATION_FAILED whose details are the validation response.
 */
export function generateFile(
  raw: unknown,
  env: RulesEnvironment & { randomHex?: (chars: number) => string },
): GeneratedFile {
  return generateFromRequest(parseRequest(raw, env), env);
}

/** generateFile for a body already checked by parseRequest. */
export function generateFromRequest(
  request: DeclarationRequest,
  env: RulesEnvironment & { randomHex?: (chars: number) => string },
): GeneratedFile {
  const checked = checkRequest(request, env, true);
  const { response } = checked;
  if (!response.valid) {
    throw RequestError.of(
      'VALIDATION_FAILED',
      env.lang ?? 'en',
      { count: response.rows_invalid },
      {
        ...response,
      },
    );
  }
  const content = checked.content!;
  const randomHex =
    env.randomHex ??
    ((chars: number) =>
      randomBytes(Math.ceil(chars / 2))
        .toString('hex')
        .slice(0, chars));
  return {
    type: request.type,
    declarant: request.declarant,
    spec_version: request.spec.version,
    options: request.options,
    rows: response.rows_total,
    declarations: checked.declarations,
    filename: generatedFileName(request.type, env.generationDay ?? parisDay(), randomHex(8)),
    sha256: createHash('sha256').update(content).digest('hex'),
    content,
    warning_count: response.warning_count,
    warnings: response.warnings,
    normalization_count: response.normalization_count,
    normalizations: response.normalizations,
  };
}

export interface CsvValidationRequest {
  type: string;
  declarant: string;
  spec_version?: string;
  strict_references?: boolean;
  filename?: string;
}

/** The kind of file a form names (type, declarant, spec version), as the multipart operations read it. */
export interface FileKind {
  spec: SpecVersion;
  type: FileType;
  declarant: Declarant;
}

/**
 * Checks the form fields that name a kind of file (POST /v1/files/validate, /v1/files/fix,
 * /v1/declarations/import, the template). Throws RequestError (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION).
 */
export function resolveKind(
  req: { type: string; declarant: string; spec_version?: string },
  lang: Lang,
): FileKind {
  const fields: { field: string; message: string }[] = [];
  if (!FILE_TYPES.includes(req.type as FileType)) {
    fields.push({ field: 'type', message: `${FIELD_PROBLEMS.one_of[lang]}: ${FILE_TYPES.join(', ')}` });
  }
  if (!DECLARANTS.includes(req.declarant as Declarant)) {
    fields.push({ field: 'declarant', message: `${FIELD_PROBLEMS.one_of[lang]}: ${DECLARANTS.join(', ')}` });
  }
  if (fields.length) {
    throw RequestError.of(
      'INVALID_REQUEST',
      lang,
      { count: fields.length },
      { fields, field_count: fields.length },
    );
  }
  const version = req.spec_version ?? CURRENT_SPEC_VERSION;
  const spec = findSpec(version);
  if (!spec) {
    throw RequestError.of(
      'UNSUPPORTED_SPEC_VERSION',
      lang,
      { expected: SPEC_VERSIONS.join(', ') },
      {
        supported: SPEC_VERSIONS,
      },
    );
  }
  return { spec, type: req.type as FileType, declarant: req.declarant as Declarant };
}

/**
 * Creates the streaming validator for POST /v1/files/validate after checking the form fields.
 * Throws RequestError (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION).
 */
export function createCsvValidator(
  req: CsvValidationRequest,
  env: RulesEnvironment,
  rewrite?: CsvValidationOptions['rewrite'],
): CsvFileValidator {
  const lang = env.lang ?? 'en';
  const { spec, type, declarant } = resolveKind(req, lang);
  const opts: CsvValidationOptions = {
    spec,
    type,
    declarant,
    refs: env.refs,
    today: env.today ?? parisDay(),
    strictReferences: req.strict_references ?? true,
    lang,
    filename: req.filename,
    maxRows: env.maxRows,
    rewrite,
  };
  return new CsvFileValidator(opts);
}

/** Validates a whole CSV held in memory. */
export function validateCsv(
  content: Uint8Array,
  req: CsvValidationRequest,
  env: RulesEnvironment,
): FileValidationResponse {
  const validator = createCsvValidator(req, env);
  validator.write(content);
  return validator.end();
}
