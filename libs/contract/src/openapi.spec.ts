import Ajv from 'ajv';
import { parisDay, parseDeclarationRequest, RequestError, validateDeclarations } from '@ppfile/rules';
import { testReferences, validBody } from '@ppfile/rules/testing/fixtures';
import { REQUEST_ERROR_CODES } from './codes';
import { REQUEST_ERROR_STATUS } from './errors';
import { buildOpenApiDocument } from './openapi';
import { OPENAPI_EXAMPLES } from './openapi-examples';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApiDocument() as Json;
const ajv = new Ajv({ strict: false, allErrors: true });
ajv.addSchema({ $id: 'openapi', components: doc.components }, undefined, undefined, false);
const bodySchema = ajv.compile({ $ref: 'openapi#/components/schemas/DeclarationBody' });

/**
 * The issues of the rules that the schema expresses too: a value the spec requires, a value outside
 * an enumeration, a text too long, a field the kind does not take, a wrong number of codes. The
 * others (NIR keys, dates, codes of the reference lists, duplicates…) are beyond a JSON schema.
 */
const SCHEMA_CODES = new Set([
  'REQUIRED_FIELD',
  'INVALID_VALUE',
  'FIELD_TOO_LONG',
  'FIELD_NOT_ALLOWED',
  'VALUE_COUNT',
]);

/** What the server makes of a body: 400 (structure, options, version), or the codes of its row errors. */
function serverVerdict(body: unknown): { refused400: boolean; schemaIssues: boolean } {
  try {
    parseDeclarationRequest(body, 'en');
  } catch (e) {
    if (e instanceof RequestError) return { refused400: true, schemaIssues: false };
    throw e;
  }
  const result = validateDeclarations(body, {
    refs: testReferences(),
    lang: 'en',
    today: parisDay(new Date('2026-11-23T12:00:00Z')),
  });
  return { refused400: false, schemaIssues: result.errors.some((issue) => SCHEMA_CODES.has(issue.code)) };
}

/** The server takes the body (no 400, no issue a schema can express). */
const serverAccepts = (body: unknown): boolean => {
  const v = serverVerdict(body);
  return !v.refused400 && !v.schemaIssues;
};

const operations = () =>
  Object.entries(doc.paths as Json).flatMap(([path, methods]) =>
    Object.entries(methods as Json).map(([method, op]) => ({ path, method, op: op as Json })),
  );

describe('the OpenAPI document', () => {
  it('answers every /v1 operation with bearer security and the errors every call can meet', () => {
    for (const { path, op } of operations()) {
      if (!path.startsWith('/v1/')) {
        expect({ path, security: op.security }).toEqual({ path, security: [] });
        continue;
      }
      expect({ path, security: op.security }).toEqual({ path, security: [{ bearerAuth: [] }] });
      for (const status of ['200', '401', '429', '500', '503'])
        expect({ path, status, documented: status in op.responses }).toEqual({
          path,
          status,
          documented: true,
        });
    }
    expect(doc.components.securitySchemes.bearerAuth).toEqual(
      expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    );
    expect(doc.components.securitySchemes.bearerAuth.bearerFormat).toBeUndefined();
  });

  it('limits each error status to its codes, from REQUEST_ERROR_STATUS, and lists every code somewhere', () => {
    const listed = new Set<string>();
    for (const [name, schema] of Object.entries(doc.components.schemas as Json)) {
      const m = /^Error(\d{3})/.exec(name);
      if (!m) continue;
      const codes = schema.properties.error.properties.code.enum as string[];
      for (const code of codes) {
        expect({ code, status: REQUEST_ERROR_STATUS[code as keyof typeof REQUEST_ERROR_STATUS] }).toEqual({
          code,
          status: Number(m[1]),
        });
        listed.add(code);
      }
    }
    expect([...listed].sort()).toEqual([...REQUEST_ERROR_CODES].sort());
  });

  it('documents generate with 200 and 202 (Location, Retry-After), and one optional Idempotency-Key header', () => {
    const generate = doc.paths['/v1/files/generate'].post;
    expect(Object.keys(generate.responses)).toEqual(expect.arrayContaining(['200', '202', '409', '422']));
    expect(generate.responses['201']).toBeUndefined();
    expect(Object.keys(generate.responses['202'].headers)).toEqual(
      expect.arrayContaining(['Location', 'Retry-After']),
    );
    const idempotency = generate.parameters.filter((p: Json) => p.name.toLowerCase() === 'idempotency-key');
    expect(idempotency).toHaveLength(1);
    expect(idempotency[0].required).toBe(false);
    const download = doc.paths['/v1/files/{id}/download'].get.responses['200'];
    expect(Object.keys(download.content)).toEqual(['text/csv']);
    expect(Object.keys(download.headers)).toEqual(expect.arrayContaining(['ETag', 'Content-Disposition']));
    const upload = doc.paths['/v1/files/validate'].post.requestBody.content['multipart/form-data'].schema;
    expect(upload.properties.file).toEqual(expect.objectContaining({ type: 'string', format: 'binary' }));
    const references = doc.paths['/v1/spec/{version}/references/{list}'].get.parameters;
    for (const name of ['q', 'limit', 'cursor'])
      expect(references.find((p: Json) => p.name === name).required).toBe(false);
  });
});

describe('the request schema accepts exactly the bodies the server takes', () => {
  it('accepts the examples, README\'s lower-case "presentiel", and refuses unknown fields and versions', () => {
    for (const example of Object.values(OPENAPI_EXAMPLES)) {
      expect(bodySchema(example)).toBe(true);
      expect(serverAccepts(example)).toBe(true);
    }
    const readme = validBody('adf', 'employer') as Json;
    readme.declarations[0].training.delivery_mode = 'presentiel';
    expect([bodySchema(readme), serverAccepts(readme)]).toEqual([true, true]);
    for (const wrong of [
      { ...validBody('adf', 'employer'), surprise: 1 },
      { ...validBody('adf', 'employer'), spec_version: '1999-01' },
      { ...validBody('adf', 'employer'), options: { store: 'yes' } },
    ]) {
      expect([bodySchema(wrong), serverAccepts(wrong)]).toEqual([false, false]);
    }
  });

  /** Every body mutated at one place (each field removed, set to null, to another type, given an extra field). */
  it('refuses every body the server answers 400, and nothing the server takes (every single change of the four kinds)', () => {
    const paths = (value: unknown, at: (string | number)[] = []): (string | number)[][] => {
      if (Array.isArray(value)) return [at, ...value.flatMap((v, i) => paths(v, [...at, i]))];
      if (value && typeof value === 'object')
        return [at, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...at, k]))];
      return [at];
    };
    const REPLACEMENTS: unknown[] = [
      null,
      1,
      -1,
      1.5,
      0,
      200,
      true,
      'x',
      '',
      [],
      {},
      ['x'],
      [1],
      { a: 1 },
      // The other file type: its fields become unknown ones (a jdr holder's `result` in an adf body).
      'adf',
      'jdr',
      'REMOVE',
      'ADD',
    ];
    const disagreements: string[] = [];
    let cases = 0;
    for (const type of ['adf', 'jdr'] as const) {
      for (const declarant of ['employer', 'training_organization'] as const) {
        const base = validBody(type, declarant) as Json;
        base.options = {
          store: true,
          retention_hours: 24,
          strict_references: true,
          formula_policy: 'reject',
        };
        for (const target of paths(base).filter((p) => p.length > 0)) {
          for (const replacement of REPLACEMENTS) {
            const body = JSON.parse(JSON.stringify(base)) as Json;
            const parent = target.slice(0, -1).reduce<Json>((o, k) => o[k], body);
            const key = target[target.length - 1]!;
            if (replacement === 'REMOVE') {
              if (Array.isArray(parent)) parent.splice(Number(key), 1);
              else delete parent[key];
            } else if (replacement === 'ADD') {
              if (parent[key] && typeof parent[key] === 'object' && !Array.isArray(parent[key]))
                parent[key].unexpected_field = 1;
              else continue;
            } else parent[key] = replacement;
            cases++;
            const schema = bodySchema(body);
            const server = serverVerdict(body);
            const where = `${type}/${declarant} ${target.join('.')} = ${JSON.stringify(replacement)}`;
            // Exact on structure: what the server answers 400, the schema refuses, and the reverse.
            if (server.refused400 && schema)
              disagreements.push(`${where}: the server answers 400, the schema accepts`);
            // Never stricter than the server: what the schema refuses, the server refuses too.
            if (!schema && !server.refused400 && !server.schemaIssues)
              disagreements.push(`${where}: the schema refuses a body the server takes`);
          }
        }
      }
    }
    expect(cases).toBeGreaterThan(2000);
    expect(disagreements).toEqual([]);
  });
});
