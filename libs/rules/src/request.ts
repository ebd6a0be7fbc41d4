import type { RequestErrorCode } from './codes';
import { FIELD_PROBLEMS, requestErrorMessage, type FieldProblem, type Lang, type MessageParams } from './messages';
import type { FormulaPolicy } from './row-checker';
import { CURRENT_SPEC_VERSION, DECLARANTS, FILE_TYPES, SPEC_VERSIONS, findSpec } from './spec';
import type { Declarant, FileType, SpecVersion } from './spec/types';

/**
 * A request the format refuses before (or instead of) a validation response: its code (API.md §6)
 * and a message from the catalogue. What status answers it is the HTTP contract's (libs/contract).
 */
export class RequestError extends Error {
  constructor(
    readonly code: RequestErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'RequestError';
  }

  static of(code: RequestErrorCode, lang: Lang, params: MessageParams, details?: Record<string, unknown>): RequestError {
    return new RequestError(code, requestErrorMessage(code, lang, params), details);
  }
}

export interface GenerationOptions {
  store: boolean;
  retention_hours: number;
  strict_references: boolean;
  formula_policy: FormulaPolicy;
  split_large_declarations: boolean;
}

export const DEFAULT_OPTIONS: Readonly<GenerationOptions> = {
  store: true,
  retention_hours: 24,
  strict_references: true,
  formula_policy: 'reject',
  split_large_declarations: false,
};

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

type FieldKind = 'string' | 'boolean' | 'string[]';

/** JSON shape of SERVICE.md §2.1 and API.md §3 (field → JSON type); objects are described apart. */
const TRAINING_FIELDS: Record<string, FieldKind> = {
  name: 'string',
  start_date: 'string',
  end_date: 'string',
  delivery_mode: 'string',
  trainer_qualification: 'string',
  certifying: 'boolean',
  certification_code: 'string',
  formacodes: 'string[]',
  nsf_codes: 'string[]',
};
const CERTIFICATE_FIELDS: Record<string, FieldKind> = {
  type: 'string',
  name: 'string',
  option_specialty: 'string',
  obtention_mode: 'string',
};
const HOLDER_FIELDS: Record<string, FieldKind> = {
  unique_id: 'string',
  nir: 'string',
  birth_name: 'string',
  employer_siret: 'string',
  employer_agreement: 'boolean',
  employer_reference: 'string',
  validity_start: 'string',
  validity_end: 'string',
};
const JDR_HOLDER_FIELDS: Record<string, FieldKind> = {
  result: 'string',
  mention: 'string',
  proof_url: 'string',
  proof_id: 'string',
};
const DECLARATION_SCALARS: Record<string, FieldKind> = {
  id: 'string',
  reference: 'string',
  transferable_skills: 'string[]',
};
const TOP_LEVEL = new Set(['type', 'declarant', 'spec_version', 'declarations', 'options']);
const FORMULA_POLICIES: readonly FormulaPolicy[] = ['reject', 'warn', 'allow'];
/** details.fields is cut there: a body with thousands of wrong holders needs no longer list. */
const MAX_FIELD_PROBLEMS = 100;

interface FieldIssue {
  field: string;
  message: string;
}

/**
 * Checks the body's structure (types, unknown fields, options) and the spec version. A structure
 * problem is a 400 for the whole request; a value problem is a validation error of a row.
 */
export function parseDeclarationRequest(raw: unknown, lang: Lang): DeclarationRequest {
  const problems: FieldIssue[] = [];
  let problemCount = 0;
  const problem = (field: string, kind: FieldProblem, suffix = ''): void => {
    problemCount++;
    if (problems.length < MAX_FIELD_PROBLEMS) problems.push({ field, message: `${FIELD_PROBLEMS[kind][lang]}${suffix}` });
  };

  if (!isObject(raw)) {
    problem('(body)', 'type_object');
    throw invalid(problems, problemCount, lang);
  }
  for (const key of Object.keys(raw)) if (!TOP_LEVEL.has(key)) problem(key, 'unknown');

  const specVersion = raw.spec_version ?? CURRENT_SPEC_VERSION;
  if (typeof specVersion !== 'string') problem('spec_version', 'type_string');
  const spec = typeof specVersion === 'string' ? findSpec(specVersion) : undefined;
  if (typeof specVersion === 'string' && !spec) {
    throw RequestError.of(
      'UNSUPPORTED_SPEC_VERSION',
      lang,
      { expected: SPEC_VERSIONS.join(', ') },
      { supported: SPEC_VERSIONS },
    );
  }

  const type = raw.type;
  if (type === undefined || type === null) problem('type', 'required');
  else if (!FILE_TYPES.includes(type as FileType)) problem('type', 'one_of', `: ${FILE_TYPES.join(', ')}`);
  const declarant = raw.declarant;
  if (declarant === undefined || declarant === null) problem('declarant', 'required');
  else if (!DECLARANTS.includes(declarant as Declarant)) problem('declarant', 'one_of', `: ${DECLARANTS.join(', ')}`);

  const options = parseOptions(raw.options, problem);

  const declarations = raw.declarations;
  let rowCount = 0;
  if (declarations === undefined || declarations === null) problem('declarations', 'required');
  else if (!Array.isArray(declarations) || declarations.length === 0) problem('declarations', 'non_empty_array');
  else {
    const isJdr = type === 'jdr';
    declarations.forEach((decl, d) => {
      const at = `declarations[${d}]`;
      if (!isObject(decl)) return problem(at, 'type_object');
      for (const [key, value] of Object.entries(decl)) {
        if (key in DECLARATION_SCALARS) checkKind(`${at}.${key}`, value, DECLARATION_SCALARS[key]!, problem);
        else if (key === 'training') checkObject(`${at}.training`, value, TRAINING_FIELDS, problem);
        else if (key === 'certificate' && isJdr) checkObject(`${at}.certificate`, value, CERTIFICATE_FIELDS, problem);
        else if (key !== 'holders') problem(`${at}.${key}`, 'unknown');
      }
      const holders = decl.holders;
      if (!Array.isArray(holders) || holders.length === 0) return problem(`${at}.holders`, 'non_empty_array');
      rowCount += holders.length;
      holders.forEach((holder, h) => {
        if (!isObject(holder)) return problem(`${at}.holders[${h}]`, 'type_object');
        for (const key in holder) {
          const kind = HOLDER_FIELDS[key] ?? (isJdr ? JDR_HOLDER_FIELDS[key] : undefined);
          if (!kind) problem(`${at}.holders[${h}].${key}`, 'unknown');
          else if (!hasKind(holder[key], kind)) checkKind(`${at}.holders[${h}].${key}`, holder[key], kind, problem);
        }
      });
    });
  }

  if (problemCount > 0) throw invalid(problems, problemCount, lang);
  return {
    type: type as FileType,
    declarant: declarant as Declarant,
    spec: spec!,
    declarations: declarations as JsonObject[],
    options,
    rowCount,
  };
}

function parseOptions(raw: unknown, problem: (field: string, kind: FieldProblem, suffix?: string) => void): GenerationOptions {
  const options = { ...DEFAULT_OPTIONS };
  if (raw === undefined || raw === null) return options;
  if (!isObject(raw)) {
    problem('options', 'type_object');
    return options;
  }
  for (const [key, value] of Object.entries(raw)) {
    const at = `options.${key}`;
    // null keeps a known option's default; an unknown option is named all the same (API.md §2).
    if (value === null || value === undefined) {
      if (!(key in DEFAULT_OPTIONS)) problem(at, 'unknown');
      continue;
    }
    switch (key) {
      case 'store':
      case 'strict_references':
      case 'split_large_declarations':
        if (typeof value === 'boolean') options[key] = value;
        else problem(at, 'type_boolean');
        break;
      case 'retention_hours':
        if (Number.isInteger(value) && (value as number) >= 1 && (value as number) <= 24) {
          options.retention_hours = value as number;
        } else problem(at, 'range', ' 1 … 24');
        break;
      case 'formula_policy':
        if (FORMULA_POLICIES.includes(value as FormulaPolicy)) options.formula_policy = value as FormulaPolicy;
        else problem(at, 'one_of', `: ${FORMULA_POLICIES.join(', ')}`);
        break;
      default:
        problem(at, 'unknown');
    }
  }
  return options;
}

function checkObject(
  at: string,
  value: unknown,
  fields: Record<string, FieldKind>,
  problem: (field: string, kind: FieldProblem) => void,
): void {
  if (value === null || value === undefined) return;
  if (!isObject(value)) return problem(at, 'type_object');
  for (const [key, v] of Object.entries(value)) {
    const kind = fields[key];
    if (kind) checkKind(`${at}.${key}`, v, kind, problem);
    else problem(`${at}.${key}`, 'unknown');
  }
}

/** Fast path of checkKind for the common, well-typed value (no path string is built). */
function hasKind(value: unknown, kind: FieldKind): boolean {
  if (value === null || value === undefined) return true;
  return kind === 'string' ? typeof value === 'string' : kind === 'boolean' ? typeof value === 'boolean' : false;
}

function checkKind(at: string, value: unknown, kind: FieldKind, problem: (field: string, kind: FieldProblem) => void): void {
  if (value === null || value === undefined) return;
  switch (kind) {
    case 'string':
      if (typeof value !== 'string') problem(at, 'type_string');
      return;
    case 'boolean':
      if (typeof value !== 'boolean') problem(at, 'type_boolean');
      return;
    case 'string[]':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) problem(at, 'type_string_array');
      return;
  }
}

function invalid(fields: FieldIssue[], count: number, lang: Lang): RequestError {
  return RequestError.of('INVALID_REQUEST', lang, { count }, { fields, field_count: count });
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Parses a JSON text, turning a syntax error into INVALID_JSON. */
export function parseJsonBody(text: string, lang: Lang): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw RequestError.of('INVALID_JSON', lang, {});
  }
}

export function checkRowLimit(rows: number, limit: number, lang: Lang): void {
  if (rows > limit) throw RequestError.of('LINE_LIMIT_EXCEEDED', lang, { limit }, { limit, rows });
}
