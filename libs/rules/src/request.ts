import type { Lang } from './catalogue';
import type { FormatErrorCode } from './codes';
import {
  FIELD_PROBLEMS,
  fileTooLargeDetail,
  mixedEncodingDetail,
  formatErrorMessage,
  type FieldProblem,
  type MessageParams,
} from './messages';
import {
  DECLARATION_BODY_SHAPE,
  defaultOptions,
  shapeField,
  shapeFields,
  type FieldShape,
  type GenerationOptions,
  type ObjectShape,
} from './request-shape';
import { findSpec } from './format';
import type { Declarant, FileType, SpecVersion } from './format/types';

/**
 * A request the format refuses before (or instead of) a validation response: its code (one of
 * FORMAT_ERROR_CODES, API.md §6) and a message from the catalogue. What status answers it is the HTTP contract's (libs/contract).
 */
export class RequestError extends Error {
  constructor(
    readonly code: FormatErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RequestError';
  }

  static of(
    code: FormatErrorCode,
    lang: Lang,
    params: MessageParams,
    details?: Record<string, unknown>,
  ): RequestError {
    return new RequestError(code, formatErrorMessage(code, lang, params), details);
  }

  /** As plain data, to cross a thread boundary (a rules thread, a generation thread). */
  toPlain(): PlainRequestError {
    return { code: this.code, message: this.message, details: this.details };
  }

  static fromPlain(plain: PlainRequestError): RequestError {
    return new RequestError(plain.code, plain.message, plain.details);
  }
}

/** A RequestError as plain data (structured-clone safe). */
export interface PlainRequestError {
  code: FormatErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export const DEFAULT_OPTIONS: Readonly<GenerationOptions> = defaultOptions();

type JsonObject = Record<string, unknown>;

/** A body whose structure has been checked: every known field has the right JSON type. */
export interface DeclarationRequest {
  type: FileType;
  declarant: Declarant;
  spec: SpecVersion;
  declarations: JsonObject[];
  options: GenerationOptions;
  /** Number of holders, i.e. of rows of the file. */
  rowCount: number;
}

/** The fields that the parser handles apart, read from the one description (request-shape.ts). */
const BODY = DECLARATION_BODY_SHAPE;
const SPEC_VERSION = stringField(BODY, 'spec_version');
const TYPE = stringField(BODY, 'type');
const DECLARANT = stringField(BODY, 'declarant');
const DECLARATIONS = objectField(BODY, 'declarations');
const OPTIONS = objectField(BODY, 'options');
const HOLDERS = objectField(DECLARATIONS.shape, 'holders');
/** details.fields is cut there: a body with thousands of wrong holders needs no longer list. */
const MAX_FIELD_PROBLEMS = 100;

interface FieldIssue {
  field: string;
  message: string;
}

/** A suffix is text in both languages when it holds words. */
type Problem = (field: string, kind: FieldProblem, suffix?: string | Record<Lang, string>) => void;

/**
 * Checks the body's structure (types, unknown fields, options) and the spec version against the
 * request shape. A structure problem is a 400 for the whole request; a value problem is a
 * validation error of a row.
 */
export function parseDeclarationRequest(raw: unknown, lang: Lang): DeclarationRequest {
  const problems: FieldIssue[] = [];
  let problemCount = 0;
  const problem: Problem = (field, kind, suffix = '') => {
    problemCount++;
    const tail = typeof suffix === 'string' ? suffix : suffix[lang];
    if (problems.length < MAX_FIELD_PROBLEMS)
      problems.push({ field, message: `${FIELD_PROBLEMS[kind][lang]}${tail}` });
  };

  if (!isObject(raw)) {
    problem('(body)', 'type_object');
    throw invalid(problems, problemCount, lang);
  }
  // The top level has no file-type restriction: either lookup holds all of its fields.
  const topLevel = shapeFields(BODY, 'adf');
  for (const key of Object.keys(raw)) if (!topLevel.has(key)) problem(key, 'unknown');

  const specVersion = raw[SPEC_VERSION.name] ?? SPEC_VERSION.default;
  if (typeof specVersion !== 'string') problem(SPEC_VERSION.name, 'type_string');
  const spec = typeof specVersion === 'string' ? findSpec(specVersion) : undefined;
  if (typeof specVersion === 'string' && !spec) {
    throw RequestError.of(
      'UNSUPPORTED_SPEC_VERSION',
      lang,
      { expected: SPEC_VERSION.values!.join(', ') },
      { supported: SPEC_VERSION.values },
    );
  }

  const type = checkOneOf(raw, TYPE, problem) as FileType | undefined;
  const declarant = checkOneOf(raw, DECLARANT, problem) as Declarant | undefined;

  const options = parseOptions(raw[OPTIONS.name], problem);

  const declarations = raw[DECLARATIONS.name];
  let rowCount = 0;
  if (declarations === undefined || declarations === null) problem(DECLARATIONS.name, 'required');
  else if (!Array.isArray(declarations) || declarations.length === 0)
    problem(DECLARATIONS.name, 'non_empty_array');
  else {
    // A body whose type is missing or wrong is checked as an adf body (its problem is named above).
    const fileType: FileType = type === 'jdr' ? 'jdr' : 'adf';
    const declarationFields = shapeFields(DECLARATIONS.shape, fileType);
    const holderFields = shapeFields(HOLDERS.shape, fileType);
    declarations.forEach((decl, d) => {
      const at = `${DECLARATIONS.name}[${d}]`;
      if (!isObject(decl)) return problem(at, 'type_object');
      for (const [key, value] of Object.entries(decl)) {
        const field = declarationFields.get(key);
        if (!field) problem(`${at}.${key}`, 'unknown');
        // Arrays of objects (the holders) are checked below, element by element.
        else if (field.kind !== 'object[]') checkField(`${at}.${key}`, value, field, fileType, problem);
      }
      const holders = decl[HOLDERS.name];
      if (!Array.isArray(holders) || holders.length === 0)
        return problem(`${at}.${HOLDERS.name}`, 'non_empty_array');
      rowCount += holders.length;
      // The hot loop of a large body: no path string is built for a well-typed field.
      holders.forEach((holder, h) => {
        if (!isObject(holder)) return problem(`${at}.${HOLDERS.name}[${h}]`, 'type_object');
        for (const key in holder) {
          const field = holderFields.get(key);
          if (!field) problem(`${at}.${HOLDERS.name}[${h}].${key}`, 'unknown');
          else if (!hasKind(holder[key], field)) {
            checkField(`${at}.${HOLDERS.name}[${h}].${key}`, holder[key], field, fileType, problem);
          }
        }
      });
    });
  }

  if (problemCount > 0) throw invalid(problems, problemCount, lang);
  return {
    type: type!,
    declarant: declarant!,
    spec: spec!,
    declarations: declarations as JsonObject[],
    options,
    rowCount,
  };
}

/** A required field of exact values: missing (or null) is `required`, anything else not listed `one_of`. */
function checkOneOf(raw: JsonObject, field: StringField, problem: Problem): string | undefined {
  const value = raw[field.name];
  if (value === undefined || value === null) problem(field.name, 'required');
  else if (!field.values!.includes(value as string))
    problem(field.name, 'one_of', `: ${field.values!.join(', ')}`);
  return value as string | undefined;
}

function parseOptions(raw: unknown, problem: Problem): GenerationOptions {
  const options = { ...DEFAULT_OPTIONS };
  if (raw === undefined || raw === null) return options;
  const at = OPTIONS.name;
  if (!isObject(raw)) {
    problem(at, 'type_object');
    return options;
  }
  const fields = shapeFields(OPTIONS.shape, 'adf');
  const set = options as Record<string, unknown>;
  for (const [key, value] of Object.entries(raw)) {
    const option = fields.get(key);
    // null keeps a known option's default; an unknown option is named all the same (API.md §2).
    if (!option) problem(`${at}.${key}`, 'unknown');
    else if (value === null || value === undefined) continue;
    else if (option.kind === 'boolean') {
      if (typeof value === 'boolean') set[key] = value;
      else problem(`${at}.${key}`, 'type_boolean');
    } else if (option.kind === 'integer') {
      const n = value as number;
      if (Number.isInteger(n) && n >= option.minimum && n <= option.maximum) set[key] = n;
      else {
        const { en, fr } = FIELD_PROBLEMS.range_to;
        problem(`${at}.${key}`, 'range', {
          en: ` ${option.minimum} ${en} ${option.maximum}`,
          fr: ` ${option.minimum} ${fr} ${option.maximum}`,
        });
      }
    } else if (option.kind === 'string' && option.values) {
      if (option.values.includes(value as string)) set[key] = value;
      else problem(`${at}.${key}`, 'one_of', `: ${option.values.join(', ')}`);
    } else throw new Error(`request shape: option ${key} of kind ${option.kind} has no parser`);
  }
  return options;
}

/** A field of a declaration or below; null or absent is always fine here (the spec's presence rules judge it). */
function checkField(at: string, value: unknown, field: FieldShape, type: FileType, problem: Problem): void {
  if (value === null || value === undefined) return;
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') problem(at, 'type_string');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problem(at, 'type_boolean');
      return;
    case 'string[]':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) problem(at, 'type_string_array');
      return;
    case 'object': {
      if (!isObject(value)) return problem(at, 'type_object');
      const fields = shapeFields(field.shape, type);
      for (const [key, v] of Object.entries(value)) {
        const inner = fields.get(key);
        if (inner) checkField(`${at}.${key}`, v, inner, type, problem);
        else problem(`${at}.${key}`, 'unknown');
      }
      return;
    }
    case 'integer':
    case 'object[]':
      throw new Error(`request shape: no ${field.kind} field is parsed below the top level (${at})`);
  }
}

/** Fast path of checkField for the common, well-typed value (no path string is built). */
function hasKind(value: unknown, field: FieldShape): boolean {
  if (value === null || value === undefined) return true;
  return field.kind === 'string'
    ? typeof value === 'string'
    : field.kind === 'boolean'
      ? typeof value === 'boolean'
      : false;
}

type StringField = Extract<FieldShape, { kind: 'string' }>;
type ObjectField = Extract<FieldShape, { kind: 'object' | 'object[]' }>;

function stringField(shape: ObjectShape, name: string): StringField {
  const field = shapeField(shape, name);
  if (field.kind !== 'string') throw new Error(`request shape: ${shape.name}.${name} is not a string`);
  return field;
}

function objectField(shape: ObjectShape, name: string): ObjectField {
  const field = shapeField(shape, name);
  if (field.kind !== 'object' && field.kind !== 'object[]') {
    throw new Error(`request shape: ${shape.name}.${name} is not an object`);
  }
  return field;
}

function invalid(fields: FieldIssue[], count: number, lang: Lang): RequestError {
  return RequestError.of('INVALID_REQUEST', lang, { count }, { fields, field_count: count });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a JSON body — its text, or its bytes as UTF-8 (RFC 8259 §8.1) — turning a syntax error into
 * INVALID_JSON. A leading byte-order mark is ignored, as RFC 8259 allows. Bytes that are not UTF-8
 * become U+FFFD, which the row checker refuses in any value, naming the field (INVALID_CHARACTER).
 * The one parse of a declaration body: the gateway (event loop and rules threads), the worker's
 * queued generations and the CLI.
 */
export function parseJsonBody(input: string | Uint8Array, lang: Lang): unknown {
  const decoded =
    typeof input === 'string'
      ? input
      : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('utf8');
  const text = decoded.charCodeAt(0) === 0xfeff ? decoded.slice(1) : decoded;
  try {
    return JSON.parse(text);
  } catch {
    throw RequestError.of('INVALID_JSON', lang, {});
  }
}

export function checkRowLimit(rows: number, limit: number, lang: Lang): void {
  if (rows > limit) throw RequestError.of('LINE_LIMIT_EXCEEDED', lang, { limit }, { limit, rows });
}

/**
 * The bytes of one uploaded file, checked before any of them is decoded or inflated (API.md §14:
 * ≤ 20 MB, the spec's `limits.maxBytes`): the import and the fix refuse a larger one at once, whoever
 * calls them (the gateway's body reader refuses it first with 413 PAYLOAD_TOO_LARGE; the CLI reads
 * no further). PAYLOAD_TOO_LARGE is an HTTP code (libs/contract), not one of the format's
 * (FORMAT_ERROR_CODES): the format's answer is UNREADABLE_FILE, `details.reason` `too_large`.
 */
export function checkFileSize(byteLength: number, limit: number, lang: Lang): void {
  if (byteLength > limit) {
    throw RequestError.of(
      'UNREADABLE_FILE',
      lang,
      { detail: fileTooLargeDetail(limit, lang) },
      { reason: 'too_large', limit },
    );
  }
}

/**
 * The import's refusal of a text file whose bytes mix UTF-8 and bytes that are not (text-decoding.ts
 * MixedEncoding): UNREADABLE_FILE, `details.reason` `mixed_encoding`, the message naming the first
 * line holding such a byte — its number only, never its content (a NIR, a name). The line is not a
 * key of `details`: the contract's 400 details take none (libs/contract errorDetailsSchema). The fix
 * answers INVALID_ENCODING on that line instead, as validate answers a file that is not UTF-8.
 */
export function mixedEncodingError(line: number, lang: Lang): RequestError {
  return RequestError.of(
    'UNREADABLE_FILE',
    lang,
    { detail: mixedEncodingDetail(line, lang) },
    { reason: 'mixed_encoding' },
  );
}
