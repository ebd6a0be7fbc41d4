import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { bodyHash, canonicalJson } from './canonical-json';

/** The recursive implementation this one replaced, kept as the reference of its output. */
function recursiveCanonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(recursiveCanonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${recursiveCanonical((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
const recursiveHash = (value: unknown) =>
  createHash('sha256').update(recursiveCanonical(value)).digest('hex');

/** `levels` arrays one within the other, the innermost empty. */
function deepArray(levels: number): unknown {
  let v: unknown = [];
  for (let i = 1; i < levels; i++) v = [v];
  return v;
}

const GENERATE_BODY = {
  type: 'adf',
  declarant: 'training_organization',
  spec_version: '2026-02',
  options: { store: true, retention_hours: 24, formula_policy: 'warn', strict_references: null },
  declarations: [
    {
      id: 'SST-2026-09',
      reference: 'Session SST septembre 2026 — « Lyon »',
      transferable_skills: ['115650', '121885', '400635'],
      training: {
        name: 'Sauveteur secouriste du travail',
        start_date: '2026-09-14',
        end_date: '15/09/2026',
        certifying: false,
        formacodes: ['42829', '42817'],
        nsf_codes: ['344r', '344P'],
      },
      holders: [
        {
          unique_id: 'E0',
          nir: '2 55 08 14 168 025 38',
          birth_name: 'DUPONT-LÉGER',
          employer_siret: '200 056 679 00018',
        },
        {
          unique_id: 'E1',
          nir: '1850578006084',
          birth_name: 'E\u0301LOUARD',
          employer_agreement: false,
          validity_end: null,
        },
      ],
    },
  ],
};

describe('canonicalJson', () => {
  it.each<[string, unknown]>([
    ['a generate body', GENERATE_BODY],
    ['the same body re-parsed', JSON.parse(JSON.stringify(GENERATE_BODY))],
    ['keys in any order', { b: 1, a: { d: [3, 2, 1], c: null }, '': 'empty key', 10: 'ten', 9: 'nine' }],
    ['scalars', [0, -0, 1.5e300, -1e-7, true, false, null, '', 'a"b\\c\n\u2028\u0085', '\ud800', '😀']],
    ['empty containers', { a: [], b: {}, c: [[], {}], d: [[[]]] }],
    [
      'non-JSON values',
      { u: undefined, f: () => 1, s: Symbol('x'), n: NaN, i: Infinity, d: new Date(0), m: new Map([[1, 2]]) },
    ],
    ['an array with undefined and holes', [undefined, , 1, , undefined]], // eslint-disable-line no-sparse-arrays
    [
      'a key "__proto__" and "constructor"',
      JSON.parse('{"__proto__":{"x":[1]},"constructor":[[["a"]]],"toString":1}'),
    ],
    ['a top-level scalar', 'text'],
    ['undefined', undefined],
    [
      'the same object twice (not a cycle)',
      (() => {
        const shared = { k: [1, 2] };
        return { a: shared, b: [shared, shared] };
      })(),
    ],
    ['depth 200', deepArray(200)],
  ])('writes %s exactly as the recursive version did', (_name, value) => {
    expect(canonicalJson(value)).toBe(recursiveCanonical(value));
    expect(bodyHash(value)).toBe(recursiveHash(value));
  });

  it('writes arbitrary JSON values exactly as the recursive version did', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(canonicalJson(value)).toBe(recursiveCanonical(value));
      }),
      { numRuns: 500 },
    );
  });

  it('writes arbitrary JavaScript values exactly as the recursive version did', () => {
    fc.assert(
      fc.property(
        fc.anything({
          maxDepth: 5,
          withBoxedValues: true,
          withMap: true,
          withSet: true,
          withNullPrototype: true,
          withDate: true,
          withTypedArray: true,
          withSparseArray: true,
          withUnicodeString: true,
        }),
        (value) => {
          expect(canonicalJson(value)).toBe(recursiveCanonical(value));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('does not depend on key order or whitespace', () => {
    const a = JSON.parse('{"b":[1,{"y":2,"x":1}],"a":"é"}');
    const b = JSON.parse('{ "a" : "\\u00e9",\n "b" : [ 1 , { "x" : 1 , "y" : 2 } ] }');
    expect(canonicalJson(a)).toBe('{"a":"é","b":[1,{"x":1,"y":2}]}');
    expect(bodyHash(a)).toBe(bodyHash(b));
  });

  it('a 100,000-deep array or object does not throw (the recursive version did: RangeError)', () => {
    const levels = 100_000;
    const array = JSON.parse('['.repeat(levels) + ']'.repeat(levels));
    expect(() => recursiveCanonical(array)).toThrow(RangeError);
    expect(canonicalJson(array)).toBe('['.repeat(levels) + ']'.repeat(levels));
    expect(bodyHash(array)).toMatch(/^[0-9a-f]{64}$/);

    const object = JSON.parse('{"a":'.repeat(levels) + '1' + '}'.repeat(levels));
    expect(canonicalJson(object)).toBe('{"a":'.repeat(levels) + '1' + '}'.repeat(levels));

    // The shape of the review's report: a deep array under a field of a holder, with Idempotency-Key.
    const body = structuredClone(GENERATE_BODY) as { declarations: { holders: Record<string, unknown>[] }[] };
    const holder = body.declarations[0]!.holders[0]!;
    const key: string = 'constructor';
    holder[key] = '@DEEP@';
    const expected = canonicalJson(body).replace('"@DEEP@"', '['.repeat(levels) + ']'.repeat(levels));
    holder[key] = deepArray(levels);
    expect(() => bodyHash(body)).not.toThrow();
    expect(canonicalJson(body)).toBe(expected);
    expect(bodyHash(body)).toBe(createHash('sha256').update(expected).digest('hex'));
  });

  it('a cycle is a TypeError, not an endless loop', () => {
    const a: Record<string, unknown> = { x: 1 };
    a.self = { back: [a] };
    expect(() => canonicalJson(a)).toThrow(TypeError);
  });
});
