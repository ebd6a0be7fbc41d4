// ajv is not a dependency of the project (a transitive one of the tooling): used here only, to
// check the derived schema with a real JSON Schema validator.
import Ajv, { type ValidateFunction } from 'ajv';
import fc from 'fast-check';
import { DEFAULT_OPTIONS, parseDeclarationRequest } from './request';
import {
  DECLARATION_BODY_SHAPE,
  FORMULA_POLICIES,
  UPPER_CASE_FOLDS,
  declarationBodyJsonSchema,
  enumPattern,
  fieldAppliesTo,
  fieldColumn,
  shapeField,
  shapeFields,
  type FieldShape,
  type JsonSchema,
  type ObjectShape,
} from './request-shape';
import { DECLARANTS, FILE_TYPES, SPEC_VERSIONS } from './format';
import type { ColumnSpec, FileType } from './format/types';
import { SPEC_2026_02 } from './format/v2026-02';
import { validBody } from './testing/fixtures';
import { asciiUpperCase, trimWhiteSpace } from './values/text';
import {
  KINDS,
  body,
  check,
  decl,
  holderOf,
  requestError,
  training,
  type Json,
} from './testing/format-helpers';

const SPEC = SPEC_2026_02;

function objectShape(owner: ObjectShape, name: string): ObjectShape {
  const field = shapeField(owner, name);
  if (field.kind !== 'object' && field.kind !== 'object[]') throw new Error(`${name} is not an object`);
  return field.shape;
}
const DECLARATION = objectShape(DECLARATION_BODY_SHAPE, 'declarations');
const HOLDER = objectShape(DECLARATION, 'holders');

/** The columns of both tables, each with its file type. */
const COLUMNS: [FileType, ColumnSpec][] = FILE_TYPES.flatMap((t) =>
  SPEC.tables[t].columns.map((c) => [t, c] as [FileType, ColumnSpec]),
);

/** details.fields of the INVALID_REQUEST that parsing `raw` throws. */
function parseProblems(raw: unknown): { field: string; message: string }[] {
  const err = requestError(() => parseDeclarationRequest(raw, 'en'));
  expect(err.code).toBe('INVALID_REQUEST');
  return err.details!.fields as { field: string; message: string }[];
}

describe('parseDeclarationRequest: names of Object.prototype are unknown fields', () => {
  const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  const PLACES: [string, (b: Json) => Json, string][] = [
    ['the top level', (b) => b, ''],
    ['a declaration', (b) => decl(b), 'declarations[0].'],
    ['a holder', (b) => holderOf(b, 1), 'declarations[0].holders[1].'],
    ['training', (b) => training(b), 'declarations[0].training.'],
    ['certificate', (b) => decl(b).certificate as Json, 'declarations[0].certificate.'],
    ['options', (b) => b.options as Json, 'options.'],
  ];
  const PLACEHOLDER = 'placeholder-key';

  /** A valid jdr body whose JSON text has `name` at `place`: JSON.parse makes even "__proto__" an own key. */
  function bodyWith(place: (b: Json) => Json, name: string, value: unknown): Json {
    const b = body('jdr', 'training_organization');
    b.options = { store: false };
    place(b)[PLACEHOLDER] = value;
    const text = JSON.stringify(b).replace(JSON.stringify(PLACEHOLDER), JSON.stringify(name));
    const parsed = JSON.parse(text) as Json;
    expect(Object.prototype.hasOwnProperty.call(place(parsed), name)).toBe(true);
    return parsed;
  }

  it('parses the body without them', () => {
    const b = body('jdr', 'training_organization');
    b.options = { store: false };
    expect(parseDeclarationRequest(JSON.parse(JSON.stringify(b)), 'en').rowCount).toBe(2);
  });

  const cases = PLACES.flatMap(([where, place, prefix]) =>
    NAMES.flatMap((name) => ['x', null, {}].map((value) => [name, where, value, place, prefix] as const)),
  );
  it.each(cases)('reports %j in %s (value %j)', (name, _where, value, place, prefix) => {
    expect(parseProblems(bodyWith(place, name, value))).toEqual([
      { field: `${prefix}${name}`, message: 'is not a known field' },
    ]);
  });
});

/** The field of the shape that fills a column, walking the column's JSON path. */
function fieldOfColumn(
  type: FileType,
  column: ColumnSpec,
): { owner: ObjectShape; field: FieldShape } | undefined {
  let owner = column.level === 'declaration' ? DECLARATION : HOLDER;
  const parts = column.json.path.split('.');
  for (const part of parts.slice(0, -1)) {
    const f = shapeFields(owner, type).get(part);
    if (!f || f.kind !== 'object') return undefined;
    owner = f.shape;
  }
  const field = shapeFields(owner, type).get(parts[parts.length - 1]!);
  return field && { owner, field };
}

/** The JSON kind a column's source needs. */
function kindOf(column: ColumnSpec): FieldShape['kind'] {
  switch (column.json.kind) {
    case 'boolean':
    case 'employer_presence':
      return 'boolean';
    case 'training_presence':
      return 'object';
    case 'codes':
      return column.count ? 'string[]' : 'string';
    default:
      return 'string';
  }
}

describe('the request shape and the spec tables', () => {
  it.each(COLUMNS.map(([t, c]) => [t, c.name, c] as const))(
    '%s %s is filled by a field of the right kind',
    (type, _name, column) => {
      const found = fieldOfColumn(type, column);
      expect(found).toBeDefined();
      expect(found!.field.kind).toBe(kindOf(column));
      expect(fieldColumn(SPEC, type, found!.owner, found!.field)).toBe(column);
    },
  );

  it.each(FILE_TYPES)('every value field below a %s declaration fills a column of the table', (type) => {
    const orphans: string[] = [];
    const walk = (owner: ObjectShape, at: string): void => {
      for (const field of owner.fields) {
        if (!fieldAppliesTo(field, type)) continue;
        if (field.kind === 'object' || field.kind === 'object[]') walk(field.shape, `${at}${field.name}.`);
        else if (!fieldColumn(SPEC, type, owner, field)) orphans.push(at + field.name);
      }
    };
    walk(DECLARATION, '');
    expect(orphans).toEqual([]);
  });

  it('gives the options their documented defaults', () => {
    expect(DEFAULT_OPTIONS).toEqual({
      store: true,
      retention_hours: 24,
      strict_references: true,
      formula_policy: 'reject',
      split_large_declarations: false,
    });
  });
});

// ---- the derived JSON schema -------------------------------------------------------------------

const SCHEMA = declarationBodyJsonSchema();
const TYPED: Record<FileType, JsonSchema> = {
  adf: declarationBodyJsonSchema(SPEC, 'adf'),
  jdr: declarationBodyJsonSchema(SPEC, 'jdr'),
};

function declarationSchema(schema: JsonSchema): JsonSchema {
  return schema.properties!.declarations!.items!;
}
function holderSchema(schema: JsonSchema): JsonSchema {
  return declarationSchema(schema).properties!.holders!.items!;
}
/** The property of the schema that a column's JSON path names. */
function columnProperty(schema: JsonSchema, column: ColumnSpec): JsonSchema | undefined {
  let s: JsonSchema | undefined =
    column.level === 'declaration' ? declarationSchema(schema) : holderSchema(schema);
  for (const part of column.json.path.split('.')) s = s?.properties?.[part];
  return s;
}
const names = (s: JsonSchema | undefined): string[] => Object.keys(s?.properties ?? {}).sort();
const unique = (values: string[]): string[] => [...new Set(values)].sort();

describe('declarationBodyJsonSchema: derived from the spec tables', () => {
  describe.each([
    ['both file types', SCHEMA, FILE_TYPES],
    ['adf', TYPED.adf, ['adf']],
    ['jdr', TYPED.jdr, ['jdr']],
  ] as const)('%s', (_name, schema, kinds) => {
    const types: readonly FileType[] = kinds;
    const columns = COLUMNS.filter(([t]) => types.includes(t)).map(([, c]) => c);
    const paths = (level: ColumnSpec['level']) =>
      columns.filter((c) => c.level === level).map((c) => c.json.path);
    const inside = (object: string) =>
      unique(
        paths('declaration')
          .filter((p) => p.startsWith(`${object}.`))
          .map((p) => p.slice(object.length + 1)),
      );

    it('has the field names of the columns, and the structure fields', () => {
      expect(names(schema)).toEqual(['declarant', 'declarations', 'options', 'spec_version', 'type']);
      expect(names(declarationSchema(schema))).toEqual(
        unique([...paths('declaration').map((p) => p.split('.')[0]!), 'holders']),
      );
      expect(names(holderSchema(schema))).toEqual(unique(paths('holder')));
      expect(names(declarationSchema(schema).properties!.training)).toEqual(inside('training'));
      expect(names(declarationSchema(schema).properties!.certificate)).toEqual(inside('certificate'));
      expect(names(schema.properties!.options)).toEqual(Object.keys(DEFAULT_OPTIONS).sort());
    });

    it('refuses unknown fields at every level', () => {
      const objects = [
        schema,
        declarationSchema(schema),
        holderSchema(schema),
        declarationSchema(schema).properties!.training!,
        schema.properties!.options!,
      ];
      if (types.includes('jdr')) objects.push(declarationSchema(schema).properties!.certificate!);
      for (const o of objects) expect(o.additionalProperties).toBe(false);
    });

    it.each(columns.map((c) => [c.name, c] as const))(
      '%s: length, values and count of the column',
      (_n, column) => {
        const property = columnProperty(schema, column)!;
        expect(property).toBeDefined();
        // The checker counts the length of text and URLs; a code's length is bounded by its format,
        // a NIR's or SIRET's by its own checks after separators are removed.
        if (column.type === 'text' || column.type === 'url')
          expect(property.maxLength).toBe(column.maxLength);
        else expect(property.maxLength).toBeUndefined();
        if (column.type === 'enum' && property.type === 'string') {
          expect(property.enum).toBeUndefined();
          expect(property.description).toContain(`one of ${column.values!.join(', ')}`);
          const pattern = new RegExp(property.pattern!, 'u');
          for (const value of column.values!) {
            for (const ok of [value, value.toLowerCase(), ` ${value[0]}${value.slice(1).toLowerCase()}\t`]) {
              expect(pattern.test(ok)).toBe(true);
            }
            for (const wrong of [`${value}X`, `X${value}`, value.slice(1), `${value[0]} ${value.slice(1)}`]) {
              expect(pattern.test(wrong)).toBe(false);
            }
          }
        } else expect(property.pattern).toBeUndefined();
        const count = column.count;
        expect(property.maxItems).toBe(count ? Math.max(...DECLARANTS.map((d) => count[d][1])) : undefined);
        expect(property.type).toBe(
          { string: 'string', boolean: 'boolean', object: 'object', 'string[]': 'array' }[
            kindOf(column) as string
          ],
        );
      },
    );

    it('has the top-level and option values the parser takes', () => {
      expect(schema.properties!.type!.enum).toEqual(types.length === 1 ? types : FILE_TYPES);
      expect(schema.properties!.declarant!.enum).toEqual(DECLARANTS);
      // Optional enumerations: their values or null, spelt so that no tool finds null twice.
      const valuesOrNull = (values: readonly string[]) => ({
        anyOf: [{ type: 'string', enum: [...values] }, { enum: [null] }],
      });
      expect(schema.properties!.spec_version).toMatchObject(valuesOrNull(SPEC_VERSIONS));
      const options = schema.properties!.options!.properties!;
      expect(options.formula_policy).toMatchObject(valuesOrNull(FORMULA_POLICIES));
      expect(JSON.stringify(schema)).not.toMatch(
        /"nullable":true[^{}]*"enum"|"enum":\[[^\]]*null[^\]]*\][^{}]*"nullable"/,
      );
      for (const [name, value] of Object.entries(DEFAULT_OPTIONS)) expect(options[name]!.default).toBe(value);
    });
  });

  it('gives retention_hours the range the parser takes', () => {
    const { minimum, maximum } = SCHEMA.properties!.options!.properties!.retention_hours!;
    const parses = (retention_hours: number): boolean => {
      try {
        parseDeclarationRequest({ ...validBody('adf', 'employer'), options: { retention_hours } }, 'en');
        return true;
      } catch {
        return false;
      }
    };
    expect([minimum! - 1, minimum!, maximum!, maximum! + 1].map(parses)).toEqual([false, true, true, false]);
    expect(maximum).toBe(SPEC.limits.maxRetentionHours);
  });

  it('requires what the spec requires of every declarant, per file type', () => {
    expect(SCHEMA.required).toEqual(['type', 'declarant', 'declarations']);
    expect(declarationSchema(SCHEMA).required).toEqual(['id', 'reference', 'holders']);
    expect(declarationSchema(TYPED.adf).required).toEqual(['id', 'reference', 'training', 'holders']);
    expect(declarationSchema(TYPED.jdr).required).toEqual(['id', 'reference', 'certificate', 'holders']);
    expect(holderSchema(SCHEMA).required).toEqual(['unique_id', 'nir', 'birth_name', 'validity_start']);
    expect(declarationSchema(SCHEMA).properties!.training!.required).toEqual([
      'name',
      'start_date',
      'end_date',
    ]);
    expect(declarationSchema(SCHEMA).properties!.certificate!.required).toEqual(['type', 'name']);
  });

  it('says which fields are for one file type or one declarant', () => {
    expect(declarationSchema(SCHEMA).properties!.certificate!.description).toContain('jdr only');
    expect(holderSchema(SCHEMA).properties!.result!.description).toContain('jdr only');
    expect(holderSchema(TYPED.jdr).properties!.result!.description).not.toContain('jdr only');
    expect(holderSchema(SCHEMA).properties!.employer_siret!.description).toContain(
      'training_organization only',
    );
    expect(holderSchema(SCHEMA).properties!.employer_reference!.description).not.toContain(' only');
  });
});

describe('declarationBodyJsonSchema: validation (ajv)', () => {
  const ajv = new Ajv({ allErrors: true });
  ajv.addKeyword('example');
  const validate: Record<'all' | FileType, ValidateFunction> = {
    all: ajv.compile(SCHEMA),
    adf: ajv.compile(TYPED.adf),
    jdr: ajv.compile(TYPED.jdr),
  };
  const errors = (v: ValidateFunction, data: unknown) =>
    v(data) ? [] : v.errors!.map((e) => `${e.instancePath} ${e.message}`);

  it.each(KINDS)(
    'accepts validBody(%s, %s) in the schema of both types and of its own',
    (type, declarant) => {
      for (const holders of [1, 3]) {
        const b = validBody(type, declarant, holders);
        expect(errors(validate.all, b)).toEqual([]);
        expect(errors(validate[type], b)).toEqual([]);
        expect(check(b).valid).toBe(true);
      }
    },
  );

  it.each(KINDS)(
    'accepts null for every field the schema does not require (%s, %s), as the parser does',
    (type, declarant) => {
      const b = body(type, declarant);
      const nullOptional = (o: Json, s: JsonSchema): void => {
        for (const name of Object.keys(s.properties!)) if (!s.required?.includes(name)) o[name] = null;
      };
      const training = decl(b).training as Json;
      nullOptional(training, declarationSchema(TYPED[type]).properties!.training!);
      if (type === 'jdr')
        nullOptional(decl(b).certificate as Json, declarationSchema(TYPED[type]).properties!.certificate!);
      nullOptional(holderOf(b), holderSchema(TYPED[type]));
      nullOptional(decl(b), declarationSchema(TYPED[type]));
      nullOptional(b, TYPED[type]);
      b.options = Object.fromEntries(Object.keys(DEFAULT_OPTIONS).map((k) => [k, null]));
      expect(errors(validate[type], b)).toEqual([]);
      expect(errors(validate.all, b)).toEqual([]);
      expect(() => parseDeclarationRequest(b, 'en')).not.toThrow();
    },
  );

  it('accepts enumerated values in any case, with spaces around, as the server does', () => {
    const b = body('jdr', 'employer');
    training(b).delivery_mode = ' presentiel ';
    training(b).trainer_qualification = 'Ancien_Professionnel';
    (decl(b).certificate as Json).type = 'certificat\t';
    (decl(b).certificate as Json).obtention_mode = 'par_scoring';
    expect(errors(validate.all, b)).toEqual([]);
    expect(errors(validate.jdr, b)).toEqual([]);
    const response = check(b);
    expect(response.valid).toBe(true);
    expect(response.errors).toEqual([]);
  });

  it.each<[string, (b: Json) => void, string]>([
    ['top level', (b) => (b.colour = 'blue'), ''],
    ['declaration', (b) => (decl(b).site = 'Caen'), '/declarations/0'],
    ['training', (b) => (training(b).duration = 7), '/declarations/0/training'],
    ['certificate', (b) => ((decl(b).certificate as Json).level = 4), '/declarations/0/certificate'],
    ['holder', (b) => (holderOf(b, 1).first_name = 'Jean'), '/declarations/0/holders/1'],
    ['options', (b) => (b.options = { colour: null }), '/options'],
    [
      '__proto__ as a JSON key',
      (b) => Object.defineProperty(holderOf(b), '__proto__', { value: 1, enumerable: true }),
      '/declarations/0/holders/0',
    ],
    ['constructor', (b) => (training(b)['constructor' as string] = 'x'), '/declarations/0/training'],
  ])('refuses an unknown field (%s), as the parser does', (_name, edit, path) => {
    const b = body('jdr', 'training_organization');
    edit(b);
    for (const v of [validate.all, validate.jdr]) {
      expect(v(b)).toBe(false);
      expect(v.errors).toEqual([
        expect.objectContaining({ instancePath: path, keyword: 'additionalProperties' }),
      ]);
    }
    expect(parseProblems(b).map((p) => p.message)).toEqual(['is not a known field']);
  });

  it('refuses jdr fields in the adf schema, as the parser does in an adf body', () => {
    const b = body('adf', 'employer');
    decl(b).certificate = { type: 'TITRE', name: 'x' };
    holderOf(b).result = 'Admis';
    expect(validate.adf(b)).toBe(false);
    expect(validate.adf.errors!.map((e) => e.params)).toEqual([
      { additionalProperty: 'certificate' },
      { additionalProperty: 'result' },
    ]);
    expect(parseProblems(b).map((p) => p.field)).toEqual([
      'declarations[0].certificate',
      'declarations[0].holders[0].result',
    ]);
  });

  it.each<[string, (b: Json) => void]>([
    ['type', (b) => (b.type = 'ADF')],
    ['declarant missing', (b) => delete b.declarant],
    ['spec_version', (b) => (b.spec_version = 202602)],
    ['declarations empty', (b) => (b.declarations = [])],
    ['holders empty', (b) => (decl(b).holders = [])],
    ['holder not an object', (b) => (decl(b).holders = ['x'])],
    ['nir a number', (b) => (holderOf(b).nir = 2550814168025)],
    ['certifying a string', (b) => (training(b).certifying = 'true')],
    ['formacodes with a number', (b) => (training(b).formacodes = [42829])],
    ['transferable_skills a string', (b) => (decl(b).transferable_skills = '115650')],
    ['training an array', (b) => (decl(b).training = [])],
    ['store a string', (b) => (b.options = { store: 'false' })],
    ['retention_hours 25', (b) => (b.options = { retention_hours: 25 })],
    ['retention_hours 1.5', (b) => (b.options = { retention_hours: 1.5 })],
    ['formula_policy', (b) => (b.options = { formula_policy: 'block' })],
  ])('refuses a structure the parser refuses: %s', (_name, edit) => {
    const b = body('adf', 'training_organization');
    edit(b);
    expect(validate.all(b)).toBe(false);
    expect(() => check(b)).toThrow();
  });

  it.each(KINDS)('requires only what the server cannot go without (%s, %s)', (type, declarant) => {
    const refused: string[] = [];
    const walk = (o: Json, s: JsonSchema, at: string): void => {
      for (const name of s.required ?? []) {
        const b = body(type, declarant);
        const target = at === '' ? b : (at.split('.').reduce<unknown>((x, k) => (x as Json)[k], b) as Json);
        delete target[name];
        let accepted: boolean;
        try {
          accepted = check(b).valid;
        } catch {
          accepted = false;
        }
        if (accepted) refused.push(`${at}${at ? '.' : ''}${name}`);
      }
      for (const [name, p] of Object.entries(s.properties ?? {})) {
        const child = p.type === 'array' ? p.items : p;
        const value = o[name];
        if (child?.type === 'object' && value !== undefined && value !== null) {
          walk(
            Array.isArray(value) ? (value[0] as Json) : (value as Json),
            child,
            `${at}${at ? '.' : ''}${name}${Array.isArray(value) ? '.0' : ''}`,
          );
        }
      }
    };
    for (const schema of [SCHEMA, TYPED[type]]) walk(body(type, declarant), schema, '');
    expect(refused).toEqual([]);
  });
});

describe('enumPattern: what the server takes for an enumerated value', () => {
  it('UPPER_CASE_FOLDS holds every other character that NFC and the case of a–z turn into letters', () => {
    const found: Record<string, string> = {};
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const upper = asciiUpperCase(c.normalize('NFC'));
      if (/^[A-Z_]+$/.test(upper)) found[upper] = (found[upper] ?? '') + c;
    }
    expect(found).toEqual(UPPER_CASE_FOLDS);
  });

  it("the pattern's white space is what trimWhiteSpace removes, and NFC makes no other character white space", () => {
    const space = /^[^\S\ufeff]$/u;
    expect(enumPattern(['OUI'], false)).toContain('[^\\S\\ufeff]*');
    const odd: number[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      const isSpace = space.test(c);
      if (isSpace !== (trimWhiteSpace(c) === '') || isSpace !== /^[^\S\ufeff]+$/u.test(c.normalize('NFC')))
        odd.push(cp);
    }
    expect(odd).toEqual([]);
  });

  it('takes the two cases of a–z and the Kelvin sign (NFC: K), not what toUpperCase alone makes letters of', () => {
    const pattern = new RegExp(
      enumPattern(['ANCIEN_PROFESSIONNEL', 'CERTIFICAT', 'A_DISTANCE', 'AFFICHE', 'KIT'], false),
      'u',
    );
    for (const s of ['ancien_professionnel', 'Certificat', 'a_DISTANCE', 'affiche', '\u212aIT', ' kit '])
      expect(pattern.test(s)).toBe(true);
    const folds = ['ancien_profeßionnel', 'certiﬁcat', 'a_diﬆance', 'aﬃche', 'AFFıCHE', 'a_diſtance', 'KİT'];
    for (const s of ['', ' ', 'certifi', 'aff che', ...folds]) expect(pattern.test(s)).toBe(false);
    expect(new RegExp(enumPattern(['OUI'], true), 'u').test(' \u00a0')).toBe(true);
  });

  /** The enumerated string fields of a body, with the pattern the schema gives them. */
  const FIELDS = [
    { type: 'adf', path: ['training', 'delivery_mode'] },
    { type: 'adf', path: ['training', 'trainer_qualification'] },
    { type: 'jdr', path: ['certificate', 'type'] },
    { type: 'jdr', path: ['certificate', 'obtention_mode'] },
  ].map(({ type, path }) => {
    const property = declarationSchema(SCHEMA).properties![path[0]!]!.properties![path[1]!]!;
    const column = SPEC.tables[type as FileType].columns.find((c) => c.json.path === path.join('.'))!;
    return {
      type: type as FileType,
      path,
      pattern: new RegExp(property.pattern!, 'u'),
      values: column.values!,
    };
  });
  const NOISE = ['X', 'é', 'e\u0301', '\u0301', ' ', '_', 'ß', 'ﬁ', 'ﬅ', 'ı', 'İ', 'K', 'k', '\u2000'];
  const SPACES = ['', ' ', '\t', '\n', '\u00a0', '\u2000\u3000', '\ufeff'];

  it('matches exactly the strings the server accepts (property test against validateDeclarations)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...FIELDS),
        fc.nat(),
        fc.array(fc.nat(), { maxLength: 45 }),
        fc.boolean(),
        fc.constantFrom(...SPACES),
        fc.constantFrom(...SPACES),
        fc.option(fc.record({ at: fc.nat(), insert: fc.constantFrom('', ...NOISE), remove: fc.boolean() })),
        (field, which, picks, ligatures, before, after, mutation) => {
          const value = field.values[which % field.values.length]!;
          let s = [...value]
            .map((c, i) => {
              const spellings = [c, c.toLowerCase(), ...(UPPER_CASE_FOLDS[c] ?? '')];
              return spellings[(picks[i] ?? 0) % spellings.length]!;
            })
            .join('');
          if (ligatures) {
            for (const [letters, chars] of Object.entries(UPPER_CASE_FOLDS))
              if (letters.length > 1) s = s.replace(letters, chars[0]!);
          }
          if (mutation) {
            const at = mutation.at % (s.length + 1);
            s = s.slice(0, at) + mutation.insert + s.slice(mutation.remove ? at + 1 : at);
          }
          s = before + s + after;
          const b = body(field.type, 'employer');
          (decl(b)[field.path[0]!] as Json)[field.path[1]!] = s;
          const where = `declarations[0].${field.path.join('.')}`;
          const accepted = !check(b).errors.some((e) => e.field === where);
          expect([s, field.pattern.test(s)]).toEqual([s, accepted]);
        },
      ),
      { numRuns: 400 },
    );
  });
});
