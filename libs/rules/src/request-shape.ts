import type { ReferenceListName } from './references';
import type { FormulaPolicy } from './row-checker';
import {
  CURRENT_LIMITS,
  CURRENT_SPEC_VERSION,
  DECLARANTS,
  FILE_TYPES,
  SPEC_VERSIONS,
  findSpec,
} from './format';
import type { ColumnSpec, ColumnType, Condition, FileType, SpecVersion } from './format/types';

/**
 * The JSON body of POST /v1/files/generate and /v1/declarations/validate (SERVICE.md §2.1,
 * API.md §2–§3), described once: which objects, which fields, of which JSON kind. The parser
 * (request.ts) checks a body against it, and declarationBodyJsonSchema() derives the OpenAPI schema
 * from it. What a field's value must be (length, allowed values, format) is not here: it is the spec
 * table's, read from the column that the field fills (its `json.path`).
 *
 * Everywhere, null stands for an absent field.
 */

/** JSON kind of a field, as the parser checks it. */
export type FieldKind = 'string' | 'boolean' | 'integer' | 'string[]' | 'object' | 'object[]';

interface FieldBase {
  readonly name: string;
  /** The parser refuses the body without it. Value rules of the spec may require more (per row). */
  readonly required?: boolean;
  /** Only in bodies of these file types; in the others it is an unknown field. */
  readonly types?: readonly FileType[];
  /** What the spec columns cannot say. */
  readonly description?: string;
}

export type FieldShape =
  | (FieldBase & {
      readonly kind: 'string';
      /** Exact values (top-level fields and options); a column's values come from the spec. */
      readonly values?: readonly string[];
      readonly default?: string;
    })
  | (FieldBase & { readonly kind: 'boolean'; readonly default?: boolean })
  | (FieldBase & {
      readonly kind: 'integer';
      readonly minimum: number;
      readonly maximum: number;
      readonly default?: number;
    })
  | (FieldBase & { readonly kind: 'string[]' })
  /** object[]: a non-empty array of such objects. */
  | (FieldBase & { readonly kind: 'object' | 'object[]'; readonly shape: ObjectShape });

export interface ObjectShape {
  readonly name: string;
  /**
   * The spec columns that this object's fields fill: their level, and the JSON path of the object
   * within the declaration or holder ('' for the declaration or holder itself). A field fills the
   * column whose `json.path` is `prefix + name`.
   */
  readonly columns?: { readonly level: ColumnSpec['level']; readonly prefix: string };
  /** The presence condition (spec/types.ts) that holds whenever this object is given. */
  readonly given?: Condition;
  readonly fields: readonly FieldShape[];
}

export const FORMULA_POLICIES: readonly FormulaPolicy[] = ['reject', 'warn', 'allow'];

/** The options of a body (API.md §2), every one set: a body that omits one gets its default. */
export interface GenerationOptions {
  store: boolean;
  retention_hours: number;
  strict_references: boolean;
  formula_policy: FormulaPolicy;
  split_large_declarations: boolean;
}

type OptionShape<T> = [T] extends [boolean]
  ? { readonly kind: 'boolean'; readonly default: T }
  : [T] extends [number]
    ? { readonly kind: 'integer'; readonly minimum: number; readonly maximum: number; readonly default: T }
    : { readonly kind: 'string'; readonly values: readonly T[]; readonly default: T };

/** options (API.md §2): null or absent keeps the default. */
const OPTION_FIELDS: {
  readonly [K in keyof GenerationOptions]: OptionShape<GenerationOptions[K]> & Omit<FieldBase, 'name'>;
} = {
  store: {
    kind: 'boolean',
    default: true,
    description: 'keep the generated file for download (generate only)',
  },
  retention_hours: {
    kind: 'integer',
    minimum: 1,
    maximum: CURRENT_LIMITS.maxRetentionHours,
    default: CURRENT_LIMITS.maxRetentionHours,
    description: 'how long a stored file is kept',
  },
  strict_references: {
    kind: 'boolean',
    default: true,
    description: 'a code missing from a complete reference list is an error (else a warning)',
  },
  formula_policy: {
    kind: 'string',
    values: FORMULA_POLICIES,
    default: 'reject',
    description:
      'free text that a spreadsheet would take for a formula (=, +, -, @): error, warning or accepted',
  },
  split_large_declarations: {
    kind: 'boolean',
    default: false,
    description: 'split a declaration of more holders than the format allows into several',
  },
};

export const OPTIONS_SHAPE: ObjectShape = {
  name: 'options',
  fields: Object.entries(OPTION_FIELDS).map(([name, option]) => ({ name, ...option })),
};

/** The options of a body that gives none. */
export function defaultOptions(): GenerationOptions {
  return Object.fromEntries(
    Object.entries(OPTION_FIELDS).map(([name, o]) => [name, o.default]),
  ) as unknown as GenerationOptions;
}

const TRAINING_SHAPE: ObjectShape = {
  name: 'training',
  columns: { level: 'declaration', prefix: 'training.' },
  given: 'training',
  fields: [
    { name: 'name', kind: 'string' },
    { name: 'start_date', kind: 'string' },
    { name: 'end_date', kind: 'string' },
    { name: 'delivery_mode', kind: 'string' },
    { name: 'trainer_qualification', kind: 'string' },
    { name: 'certifying', kind: 'boolean' },
    { name: 'certification_code', kind: 'string' },
    { name: 'formacodes', kind: 'string[]' },
    { name: 'nsf_codes', kind: 'string[]' },
  ],
};

const CERTIFICATE_SHAPE: ObjectShape = {
  name: 'certificate',
  columns: { level: 'declaration', prefix: 'certificate.' },
  fields: [
    { name: 'type', kind: 'string' },
    { name: 'name', kind: 'string' },
    { name: 'option_specialty', kind: 'string' },
    { name: 'obtention_mode', kind: 'string' },
  ],
};

const HOLDER_SHAPE: ObjectShape = {
  name: 'holder',
  columns: { level: 'holder', prefix: '' },
  fields: [
    { name: 'unique_id', kind: 'string' },
    { name: 'nir', kind: 'string' },
    { name: 'birth_name', kind: 'string' },
    { name: 'employer_siret', kind: 'string' },
    { name: 'employer_agreement', kind: 'boolean' },
    { name: 'employer_reference', kind: 'string' },
    { name: 'validity_start', kind: 'string' },
    { name: 'validity_end', kind: 'string' },
    { name: 'result', kind: 'string', types: ['jdr'] },
    { name: 'mention', kind: 'string', types: ['jdr'] },
    { name: 'proof_url', kind: 'string', types: ['jdr'] },
    { name: 'proof_id', kind: 'string', types: ['jdr'] },
  ],
};

const DECLARATION_SHAPE: ObjectShape = {
  name: 'declaration',
  columns: { level: 'declaration', prefix: '' },
  fields: [
    { name: 'id', kind: 'string' },
    { name: 'reference', kind: 'string' },
    { name: 'transferable_skills', kind: 'string[]' },
    { name: 'training', kind: 'object', shape: TRAINING_SHAPE, description: 'the training block' },
    {
      name: 'certificate',
      kind: 'object',
      shape: CERTIFICATE_SHAPE,
      types: ['jdr'],
      description: 'the certificate',
    },
    {
      name: 'holders',
      kind: 'object[]',
      shape: HOLDER_SHAPE,
      required: true,
      description: 'one row of the file per holder',
    },
  ],
};

export const DECLARATION_BODY_SHAPE: ObjectShape = {
  name: 'body',
  fields: [
    { name: 'type', kind: 'string', values: FILE_TYPES, required: true, description: 'file type' },
    { name: 'declarant', kind: 'string', values: DECLARANTS, required: true },
    {
      name: 'spec_version',
      kind: 'string',
      values: SPEC_VERSIONS,
      default: CURRENT_SPEC_VERSION,
      description: 'format version (GET /v1/spec/{version})',
    },
    {
      name: 'declarations',
      kind: 'object[]',
      shape: DECLARATION_SHAPE,
      required: true,
      description: 'one declaration per training session',
    },
    { name: 'options', kind: 'object', shape: OPTIONS_SHAPE },
  ],
};

/** A field of a shape, by name (for the code that handles it apart). Throws if the shape has none. */
export function shapeField(shape: ObjectShape, name: string): FieldShape {
  const field = shape.fields.find((f) => f.name === name);
  if (!field) throw new Error(`request shape: ${shape.name} has no field ${name}`);
  return field;
}

export function fieldAppliesTo(field: FieldShape, type: FileType): boolean {
  return field.types === undefined || field.types.includes(type);
}

const LOOKUPS = new WeakMap<ObjectShape, Readonly<Record<FileType, ReadonlyMap<string, FieldShape>>>>();

/**
 * The fields of a shape in a body of this file type, by name. A Map, so that a JSON key such as
 * "constructor" or "__proto__" is looked up as what it is: an unknown field.
 */
export function shapeFields(shape: ObjectShape, type: FileType): ReadonlyMap<string, FieldShape> {
  let lookup = LOOKUPS.get(shape);
  if (!lookup) {
    const byType = (t: FileType) =>
      new Map(shape.fields.filter((f) => fieldAppliesTo(f, t)).map((f) => [f.name, f]));
    lookup = { adf: byType('adf'), jdr: byType('jdr') };
    LOOKUPS.set(shape, lookup);
  }
  return lookup[type];
}

/** The spec column that a field of a shape fills in a file of this type, if any. */
export function fieldColumn(
  spec: SpecVersion,
  type: FileType,
  owner: ObjectShape,
  field: FieldShape,
): ColumnSpec | undefined {
  const at = owner.columns;
  if (!at || !fieldAppliesTo(field, type)) return undefined;
  const path = at.prefix + field.name;
  return spec.tables[type].columns.find((c) => c.level === at.level && c.json.path === path);
}

// ---------------------------------------------------------------------------------------------
// JSON Schema (OpenAPI 3.0 schema object) derived from the shape and a spec.

/** The subset of an OpenAPI 3.0 schema object that the derivation writes. */
export interface JsonSchema {
  type?: 'object' | 'array' | 'string' | 'boolean' | 'integer';
  nullable?: boolean;
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  maxLength?: number;
  pattern?: string;
  enum?: (string | null)[];
  anyOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  default?: string | number | boolean;
  example?: string;
}

/**
 * Characters other than a letter's two cases that the server's normalization of an enumerated value
 * (NFC, trim, the case of a–z: json-rows.ts) turns into these upper-case letters: only the Kelvin
 * sign, which NFC writes K (one character by Unicode's canonical equivalence). Not the dotless ı,
 * the long ſ, ß or the ligatures, which toUpperCase would turn into letters (values/text.ts
 * asciiUpperCase). The spec test scans every code point against this table.
 */
export const UPPER_CASE_FOLDS: Readonly<Record<string, string>> = {
  K: '\u212a',
};
const MULTI_FOLDS = Object.keys(UPPER_CASE_FOLDS).filter((k) => k.length > 1);

/** Format of a column's value, by column type (what the checker accepts, normalizations included). */
const FORMATS: Partial<Record<ColumnType, { description: string; example?: string }>> = {
  date: { description: 'YYYY-MM-DD or dd/mm/yyyy', example: '2026-09-15' },
  nir: {
    description:
      '13 characters, or 15 with a correct key (the key is removed); spaces, dots, hyphens and slashes are removed',
  },
  siret: { description: '14 digits; spaces, dots, hyphens and slashes are removed' },
  url: { description: 'an absolute http(s) URL' },
};
/** A code of each reference list, for the examples. */
const CODE_EXAMPLES: Readonly<Record<ReferenceListName, string>> = {
  rome: '115650',
  formacode: '42829',
  nsf: '344r',
  rs: 'RS6550',
};
/** Column types whose maxLength the checker applies to the text as the body gives it (trimmed, NFC). */
const LENGTH_CHECKED: readonly ColumnType[] = ['text', 'url'];

interface Derivation {
  readonly spec: SpecVersion;
}

/**
 * The OpenAPI 3.0 schema of the body, derived from the shape and the spec's tables: every field the
 * parser knows, no other (additionalProperties: false); max lengths, enumerations, counts and
 * formats from the columns. It accepts every body the server accepts: null wherever the parser
 * takes it for an absent field, enumerated column values in any case and with surrounding spaces
 * (a pattern: the server normalizes them). One exception: maxLength counts the string as sent,
 * the checker the trimmed, NFC-normalized one, so a text at its limit padded with spaces or sent
 * decomposed (NFD) is refused here and accepted by the server. With `type`, the schema of that file
 * type alone (its fields, its required blocks); without, the union of both.
 */
export function declarationBodyJsonSchema(
  spec: SpecVersion = findSpec(CURRENT_SPEC_VERSION)!,
  type?: FileType,
): JsonSchema {
  const types = type ? [type] : FILE_TYPES;
  const schema = objectSchema(DECLARATION_BODY_SHAPE, { spec }, types);
  if (type) schema.properties!.type!.enum = [type];
  schema.description =
    `Declarations to turn into a bulk-import file, format ${spec.version}` +
    (type ? `, ${type} files` : '') +
    '. The value rules of each column (required, lengths, codes, dates): GET /v1/spec/{version}.';
  return schema;
}

function objectSchema(shape: ObjectShape, d: Derivation, types: readonly FileType[]): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of shape.fields) {
    const fieldTypes = types.filter((t) => fieldAppliesTo(field, t));
    if (fieldTypes.length === 0) continue;
    const isRequired = field.required === true || types.every((t) => requiredIn(d.spec, t, shape, field));
    if (isRequired) required.push(field.name);
    properties[field.name] = fieldSchema(shape, field, d, fieldTypes, types, isRequired);
  }
  const schema: JsonSchema = { type: 'object', properties, additionalProperties: false };
  if (required.length > 0) schema.required = required;
  return schema;
}

/** Whether the spec requires a value for every declarant, whenever the owner object is given. */
function requiredIn(spec: SpecVersion, type: FileType, owner: ObjectShape, field: FieldShape): boolean {
  if (!fieldAppliesTo(field, type)) return false;
  const column = fieldColumn(spec, type, owner, field);
  if (column && alwaysRequired(column, owner.given)) return true;
  // An object is required when one of its columns is required whether or not the object is given.
  return (
    field.kind === 'object' &&
    field.shape.fields.some((f) => {
      const c = fieldColumn(spec, type, field.shape, f);
      return c !== undefined && alwaysRequired(c, undefined);
    })
  );
}

function alwaysRequired(column: ColumnSpec, given: Condition | undefined): boolean {
  return DECLARANTS.every((d) => {
    const p = column.presence[d];
    return p !== 'never' && p.required && (p.when === undefined || p.when === given);
  });
}

function fieldSchema(
  owner: ObjectShape,
  field: FieldShape,
  d: Derivation,
  types: readonly FileType[],
  ownerTypes: readonly FileType[],
  required: boolean,
): JsonSchema {
  const columns = types.flatMap((t) => {
    const c = fieldColumn(d.spec, t, owner, field);
    return c ? [{ type: t, column: c }] : [];
  });
  const column = columns[0]?.column;
  const notes: string[] = [];
  if (field.description) notes.push(field.description);
  if (columns.length > 0) {
    let names = [...new Set(columns.map((c) => c.column.name))].join(', ');
    if (columns.length < types.length) names += ` (${columns.map((c) => c.type).join(', ')})`;
    const source = column!.json.kind;
    if (source === 'training_presence') notes.push(`${names} = OUI when given, else NON`);
    else if (source === 'employer_presence') {
      notes.push(
        `${names} = OUI / NON; a training organization may leave it out: OUI when employer_siret is given`,
      );
    } else notes.unshift(names);
  }
  if (types.length < ownerTypes.length) notes.push(`${types.join(', ')} only`);
  const declarants = DECLARANTS.filter(
    (dc) => columns.length === 0 || columns.some((c) => c.column.presence[dc] !== 'never'),
  );
  if (declarants.length < DECLARANTS.length) notes.push(`${declarants.join(', ')} only`);

  let schema: JsonSchema;
  switch (field.kind) {
    case 'object':
      schema = objectSchema(field.shape, d, types);
      break;
    case 'object[]':
      schema = { type: 'array', minItems: 1, items: objectSchema(field.shape, d, types) };
      break;
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'integer':
      schema = { type: 'integer', minimum: field.minimum, maximum: field.maximum };
      break;
    case 'string[]': {
      schema = { type: 'array', items: { type: 'string' } };
      const max = maxOf(
        columns.map((c) => c.column.count && Math.max(...DECLARANTS.map((dc) => c.column.count![dc][1]))),
      );
      if (max !== undefined) schema.maxItems = max;
      if (column?.list) {
        schema.items!.example = CODE_EXAMPLES[column.list];
        notes.push(`codes of the ${column.list} list`);
      }
      if (column?.count) {
        const count = column.count;
        notes.push(DECLARANTS.map((dc) => `${dc}: ${count[dc][0]} to ${count[dc][1]}`).join(', '));
      }
      break;
    }
    case 'string': {
      schema = { type: 'string' };
      // An optional field's values are `anyOf [{type: string, enum: values}, {enum: [null]}]`, not
      // `nullable` with an enum that lists null: a tool that turns `nullable` into a null added to the
      // enum (Prism's request validator) then finds it twice ("duplicate items") and checks no body.
      if (field.values) {
        if (required) schema.enum = [...field.values];
        else {
          delete schema.type;
          schema.anyOf = [{ type: 'string', enum: [...field.values] }, { enum: [null] }];
        }
      }
      const values = [...new Set(columns.flatMap((c) => (c.column.type === 'enum' ? c.column.values! : [])))];
      if (values.length > 0 && !field.values) {
        schema.pattern = enumPattern(values, !required);
        schema.example = values[0];
        notes.push(`one of ${values.join(', ')}; case-insensitive, surrounding spaces ignored`);
      }
      if (columns.length > 0 && columns.every((c) => LENGTH_CHECKED.includes(c.column.type))) {
        const max = maxOf(columns.map((c) => c.column.maxLength));
        if (max !== undefined) schema.maxLength = max;
      }
      const format = column && FORMATS[column.type];
      if (format) {
        notes.push(format.description);
        if (format.example) schema.example = format.example;
      }
      if (column?.list) {
        schema.example = CODE_EXAMPLES[column.list];
        notes.push(`a code of the ${column.list} list`);
      }
      break;
    }
  }
  // (An optional enumeration says null in its anyOf: `nullable` needs a `type` beside it.)
  if (!required && !schema.anyOf) schema.nullable = true;
  if ('default' in field && field.default !== undefined) schema.default = field.default;
  if (notes.length > 0) schema.description = notes.join('; ');
  return schema;
}

/** The largest, or undefined when one is missing (no limit then). */
function maxOf(values: readonly (number | undefined)[]): number | undefined {
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  return Math.max(...(values as number[]));
}

const SPACE = '[^\\S\\ufeff]';

/**
 * An ECMA-262 pattern that matches what the server takes for one of `values` (upper-case codes):
 * any case, any surrounding white space, and the other characters that upper-case to the letters
 * (UPPER_CASE_FOLDS); `optional`: also blank. The white space is what trimWhiteSpace removes
 * (values/text.ts): `\s` but U+FEFF, a BOM being refused wherever it stands.
 */
export function enumPattern(values: readonly string[], optional: boolean): string {
  const alternatives = values.map(foldedValue).join('|');
  return `^${SPACE}*(?:${alternatives})${optional ? '?' : ''}${SPACE}*$`;
}

function foldedValue(value: string): string {
  let out = '';
  let i = 0;
  while (i < value.length) {
    // The smallest segment [i, end) that no multi-letter fold starting inside it overruns.
    let end = i + 1;
    for (let k = i; k < end; k++) {
      for (const m of MULTI_FOLDS) if (value.startsWith(m, k)) end = Math.max(end, k + m.length);
    }
    const tilings = tile(value, i, end);
    out += tilings.length === 1 ? tilings[0] : `(?:${tilings.join('|')})`;
    i = end;
  }
  return out;
}

/** Every way of spelling value[i, end): letter by letter, or with the multi-letter folds. */
function tile(value: string, i: number, end: number): string[] {
  if (i === end) return [''];
  const heads: [string, number][] = [[letterClass(value[i]!), i + 1]];
  for (const m of MULTI_FOLDS) {
    if (i + m.length <= end && value.startsWith(m, i))
      heads.push([charClass([...UPPER_CASE_FOLDS[m]!]), i + m.length]);
  }
  return heads.flatMap(([head, next]) => tile(value, next, end).map((rest) => head + rest));
}

function letterClass(c: string): string {
  const upper = c.toUpperCase();
  return charClass([...new Set([upper, c.toLowerCase(), ...(UPPER_CASE_FOLDS[upper] ?? '')])]);
}

/** One character as it is, several as a class (escaped for the `u` flag, which ajv and browsers use). */
function charClass(chars: readonly string[]): string {
  if (chars.length === 1) return chars[0]!.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
  return `[${chars.map((c) => c.replace(/[\\\][^-]/g, '\\$&')).join('')}]`;
}
