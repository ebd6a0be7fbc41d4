import { REQUEST_ERROR_STATUS } from '@ppfile/contract';
import { createCsvValidator, generateFile, validateCsv } from './api';
import { parseJsonBody } from './request';
import { NIR_CORSICA, testReferences } from './testing/fixtures';
import {
  body,
  check,
  csvFile,
  decl,
  generatedRows,
  holderOf,
  holders,
  requestError,
  testEnv,
  training,
  type Json,
} from './testing/format-helpers';

/** details.fields of an INVALID_REQUEST, as field names. */
function problemFields(fn: () => unknown): string[] {
  const err = requestError(fn);
  expect(err.code).toBe('INVALID_REQUEST');
  expect(REQUEST_ERROR_STATUS[err.code]).toBe(400);
  const fields = (err.details!.fields as { field: string; message: string }[]).map((f) => f.field);
  expect(err.details!.field_count).toBe(fields.length);
  return fields;
}

describe('parseJsonBody', () => {
  it('parses JSON', () => {
    expect(parseJsonBody('{"type":"adf","n":[1]}', 'en')).toEqual({ type: 'adf', n: [1] });
  });

  it.each(['{', '', '{"a":1,}', "{'a':1}", 'undefined'])('turns %j into INVALID_JSON (400)', (text) => {
    const err = requestError(() => parseJsonBody(text, 'en'));
    expect(err.code).toBe('INVALID_JSON');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(400);
    expect(err.message).toBe('The request body is not valid JSON.');
  });

  it('speaks French on demand', () => {
    expect(requestError(() => parseJsonBody('{', 'fr')).message).toBe(
      "Le corps de la requête n'est pas du JSON valide.",
    );
  });
});

describe('INVALID_REQUEST: structure of the body', () => {
  it.each([[[]], ['text'], [null], [42]])('refuses a body that is not an object (%j)', (raw) => {
    const err = requestError(() => check(raw));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual({
      fields: [{ field: '(body)', message: 'must be an object' }],
      field_count: 1,
    });
  });

  it('names an unknown top-level field', () => {
    const b = { ...body('adf', 'employer'), colour: 'blue' };
    const err = requestError(() => check(b));
    expect(err.details).toEqual({
      fields: [{ field: 'colour', message: 'is not a known field' }],
      field_count: 1,
    });
    expect(err.message).toBe('The request is malformed (1 problem; see details.fields).');
  });

  it('names an unknown option', () => {
    const b = { ...body('adf', 'employer'), options: { store: false, colour: 'blue' } };
    expect(problemFields(() => check(b))).toEqual(['options.colour']);
  });

  it('names an unknown option even when its value is null', () => {
    const b = { ...body('adf', 'employer'), options: { colour: null } };
    expect(problemFields(() => check(b))).toEqual(['options.colour']);
  });

  it('names every problem of one body', () => {
    const b = body('adf', 'employer');
    b.colour = 1;
    b.options = { store: 'yes', formula_policy: 'block', colour: true };
    training(b).certifying = 'yes';
    holderOf(b, 1).nir = 2550814168025;
    expect(problemFields(() => check(b))).toEqual([
      'colour',
      'options.store',
      'options.formula_policy',
      'options.colour',
      'declarations[0].training.certifying',
      'declarations[0].holders[1].nir',
    ]);
  });

  it.each<[string, (b: Json) => void, string, string]>([
    ['type missing', (b) => delete b.type, 'type', 'is required'],
    ['type unknown', (b) => (b.type = 'ADF'), 'type', 'must be one of: adf, jdr'],
    [
      'declarant unknown',
      (b) => (b.declarant = 'of'),
      'declarant',
      'must be one of: employer, training_organization',
    ],
    [
      'declarant not a string',
      (b) => (b.declarant = 5),
      'declarant',
      'must be one of: employer, training_organization',
    ],
    ['spec_version not a string', (b) => (b.spec_version = 202602), 'spec_version', 'must be a string'],
    ['declarations missing', (b) => delete b.declarations, 'declarations', 'is required'],
    ['declarations empty', (b) => (b.declarations = []), 'declarations', 'must be a non-empty array'],
    ['declarations an object', (b) => (b.declarations = {}), 'declarations', 'must be a non-empty array'],
    ['declaration not an object', (b) => (b.declarations = ['x']), 'declarations[0]', 'must be an object'],
    ['holders empty', (b) => (decl(b).holders = []), 'declarations[0].holders', 'must be a non-empty array'],
    [
      'holders missing',
      (b) => delete decl(b).holders,
      'declarations[0].holders',
      'must be a non-empty array',
    ],
    [
      'holder not an object',
      (b) => (decl(b).holders = [null]),
      'declarations[0].holders[0]',
      'must be an object',
    ],
    ['id not a string', (b) => (decl(b).id = 12), 'declarations[0].id', 'must be a string'],
    [
      'transferable_skills a string',
      (b) => (decl(b).transferable_skills = '115650'),
      'declarations[0].transferable_skills',
      'must be an array of strings',
    ],
    [
      'formacodes with a number',
      (b) => (training(b).formacodes = [42829]),
      'declarations[0].training.formacodes',
      'must be an array of strings',
    ],
    ['training an array', (b) => (decl(b).training = []), 'declarations[0].training', 'must be an object'],
    [
      'training.certifying a string',
      (b) => (training(b).certifying = 'true'),
      'declarations[0].training.certifying',
      'must be a boolean',
    ],
    [
      'unknown training field',
      (b) => (training(b).duration = 7),
      'declarations[0].training.duration',
      'is not a known field',
    ],
    [
      'unknown declaration field',
      (b) => (decl(b).site = 'Caen'),
      'declarations[0].site',
      'is not a known field',
    ],
    [
      'certificate on adf',
      (b) => (decl(b).certificate = { type: 'TITRE', name: 'x' }),
      'declarations[0].certificate',
      'is not a known field',
    ],
    [
      'jdr holder field on adf',
      (b) => (holderOf(b).result = 'Admis'),
      'declarations[0].holders[0].result',
      'is not a known field',
    ],
    [
      'unknown holder field',
      (b) => (holderOf(b).first_name = 'Jean'),
      'declarations[0].holders[0].first_name',
      'is not a known field',
    ],
    [
      'employer_agreement a string',
      (b) => (holderOf(b).employer_agreement = 'OUI'),
      'declarations[0].holders[0].employer_agreement',
      'must be a boolean',
    ],
    ['options not an object', (b) => (b.options = 'strict'), 'options', 'must be an object'],
    ['store not a boolean', (b) => (b.options = { store: 'false' }), 'options.store', 'must be a boolean'],
    [
      'strict_references not a boolean',
      (b) => (b.options = { strict_references: 0 }),
      'options.strict_references',
      'must be a boolean',
    ],
    [
      'split_large_declarations not a boolean',
      (b) => (b.options = { split_large_declarations: 'yes' }),
      'options.split_large_declarations',
      'must be a boolean',
    ],
    [
      'formula_policy unknown',
      (b) => (b.options = { formula_policy: 'block' }),
      'options.formula_policy',
      'must be one of: reject, warn, allow',
    ],
    [
      'retention_hours 0',
      (b) => (b.options = { retention_hours: 0 }),
      'options.retention_hours',
      'must be an integer from 1 to 24',
    ],
    [
      'retention_hours 25',
      (b) => (b.options = { retention_hours: 25 }),
      'options.retention_hours',
      'must be an integer from 1 to 24',
    ],
    [
      'retention_hours 1.5',
      (b) => (b.options = { retention_hours: 1.5 }),
      'options.retention_hours',
      'must be an integer from 1 to 24',
    ],
    [
      'retention_hours a string',
      (b) => (b.options = { retention_hours: '24' }),
      'options.retention_hours',
      'must be an integer from 1 to 24',
    ],
  ])('%s', (_name, edit, field, message) => {
    const b = body('adf', 'training_organization');
    edit(b);
    const err = requestError(() => check(b));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(400);
    expect(err.details).toEqual({ fields: [{ field, message }], field_count: 1 });
  });

  it('accepts certificate and the jdr holder fields on a jdr body', () => {
    expect(check(body('jdr', 'employer')).valid).toBe(true);
  });

  it('accepts retention_hours 1 and 24 and null options, and ignores store / retention_hours when validating', () => {
    for (const options of [
      { retention_hours: 1 },
      { retention_hours: 24, store: false },
      { retention_hours: null },
      null,
    ]) {
      const b = { ...body('adf', 'employer'), options };
      expect(check(b).valid).toBe(true);
    }
  });

  it('lists the field problems in French with lang fr', () => {
    const b = { ...body('adf', 'employer'), options: { retention_hours: 25 } };
    const err = requestError(() => check(b, { lang: 'fr' }));
    expect(err.message).toBe('La requête est mal formée (1 problème ; voir details.fields).');
    expect(err.details!.fields).toEqual([
      { field: 'options.retention_hours', message: 'doit être un entier de 1 à 24' },
    ]);
  });

  it('caps details.fields at 100 entries while field_count stays exact', () => {
    const b = body('adf', 'employer', 150);
    holders(b).forEach((h) => (h.first_name = 'x'));
    const err = requestError(() => check(b));
    expect((err.details!.fields as unknown[]).length).toBe(100);
    expect(err.details!.field_count).toBe(150);
    expect(err.message).toBe('The request is malformed (150 problems; see details.fields).');
  });

  it('is thrown by generateFile too, before any validation', () => {
    const b = { ...body('adf', 'employer'), options: { retention_hours: 0 } };
    expect(problemFields(() => generateFile(b, testEnv()))).toEqual(['options.retention_hours']);
  });
});

describe('UNSUPPORTED_SPEC_VERSION', () => {
  it('refuses an unknown spec_version with 400 and the supported list', () => {
    const b = { ...body('adf', 'employer'), spec_version: '2025-01' };
    const err = requestError(() => check(b));
    expect(err.code).toBe('UNSUPPORTED_SPEC_VERSION');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(400);
    expect(err.details).toEqual({ supported: ['2026-02'] });
    expect(err.message).toBe('Unsupported spec_version; supported: 2026-02.');
  });

  it('uses the current version when spec_version is absent', () => {
    const b = body('adf', 'employer');
    delete b.spec_version;
    expect(check(b).spec_version).toBe('2026-02');
  });

  it('refuses an unknown version for a CSV too', () => {
    const err = requestError(() =>
      createCsvValidator({ type: 'adf', declarant: 'employer', spec_version: '2027-01' }, testEnv()),
    );
    expect(err.code).toBe('UNSUPPORTED_SPEC_VERSION');
  });
});

describe('createCsvValidator form fields', () => {
  it('names a wrong type and declarant', () => {
    const err = requestError(() => createCsvValidator({ type: 'ADF', declarant: 'of' }, testEnv()));
    expect(err.code).toBe('INVALID_REQUEST');
    expect(err.details).toEqual({
      fields: [
        { field: 'type', message: 'must be one of: adf, jdr' },
        { field: 'declarant', message: 'must be one of: employer, training_organization' },
      ],
      field_count: 2,
    });
  });
});

describe('LINE_LIMIT_EXCEEDED', () => {
  it('refuses 51 holders with maxRows 50 (413, details.limit)', () => {
    const err = requestError(() => check(body('adf', 'employer', 51), { maxRows: 50 }));
    expect(err.code).toBe('LINE_LIMIT_EXCEEDED');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(413);
    expect(err.details).toEqual({ limit: 50, rows: 51 });
    expect(err.message).toBe('The request holds more than 50 rows, the limit for this key.');
  });

  it('accepts exactly 50 holders', () => {
    expect(check(body('adf', 'employer', 50), { maxRows: 50 }).rows_total).toBe(50);
  });

  it('counts the holders of every declaration', () => {
    const b = body('adf', 'employer', 26);
    const second = structuredClone(decl(b));
    second.id = 'SST-2026-10';
    (second.holders as Json[]).forEach((h, i) => (h.unique_id = `SST-2026-10-E${i}`));
    (b.declarations as Json[]).push(second);
    expect(requestError(() => generateFile(b, testEnv({ maxRows: 50 }))).details).toEqual({
      limit: 50,
      rows: 52,
    });
  });

  it('stops a CSV past maxRows', () => {
    const rows = generatedRows(body('adf', 'employer', 3));
    const err = requestError(() =>
      validateCsv(csvFile('adf', rows), { type: 'adf', declarant: 'employer' }, testEnv({ maxRows: 2 })),
    );
    expect(err.code).toBe('LINE_LIMIT_EXCEEDED');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(413);
    expect(err.details).toEqual({ limit: 2, rows: 3 });
    expect(
      validateCsv(csvFile('adf', rows), { type: 'adf', declarant: 'employer' }, testEnv({ maxRows: 3 }))
        .rows_total,
    ).toBe(3);
  });
});

describe('VALIDATION_FAILED', () => {
  it('is a 422 from generateFile whose details are the validation response', () => {
    const b = body('adf', 'employer', 3);
    holderOf(b, 1).nir = '2550814168';
    holderOf(b, 2).nir = NIR_CORSICA;
    const err = requestError(() => generateFile(b, testEnv()));
    expect(err.code).toBe('VALIDATION_FAILED');
    expect(REQUEST_ERROR_STATUS[err.code]).toBe(422);
    expect(err.message).toBe('No file was produced: 1 row is invalid (see details.errors).');
    const d = err.details!;
    expect(d.valid).toBe(false);
    expect(d.error_count).toBe(1);
    expect(d.truncated).toBe(false);
    expect(d.rows_total).toBe(3);
    expect(d.rows_valid).toBe(2);
    expect(d.rows_invalid).toBe(1);
    expect(d.warnings).toEqual([]);
    expect(d.errors).toEqual([
      {
        row: 3,
        column: 'NIR',
        field: 'declarations[0].holders[1].nir',
        code: 'INVALID_NIR',
        message: expect.stringContaining('it does not have 13 characters'),
      },
    ]);
  });

  it('says how many rows are invalid, in French too', () => {
    const b = body('adf', 'employer', 2);
    holders(b).forEach((h) => (h.nir = 'X'));
    expect(requestError(() => generateFile(b, testEnv())).message).toBe(
      'No file was produced: 2 rows are invalid (see details.errors).',
    );
    expect(requestError(() => generateFile(b, testEnv({ lang: 'fr' }))).message).toBe(
      'Aucun fichier produit : 2 lignes sont invalides (voir details.errors).',
    );
  });
});

it('uses the test references (sanity)', () => {
  expect(testReferences().nsf.complete).toBe(false);
});

describe('parseJsonBody: one parse of a body, text or bytes (gateway, rules threads, worker, CLI)', () => {
  it('reads bytes as UTF-8 and ignores a leading byte-order mark, as the text path does', () => {
    const bytes = Buffer.from('\ufeff{"a":"Élodie"}', 'utf8');
    expect(parseJsonBody(bytes, 'en')).toEqual({ a: 'Élodie' });
    expect(parseJsonBody(bytes.toString('utf8'), 'en')).toEqual({ a: 'Élodie' });
    expect(parseJsonBody(new Uint8Array(bytes).subarray(3), 'en')).toEqual({ a: 'Élodie' });
  });

  it('turns bytes that are not UTF-8 into U+FFFD (refused later, naming the field), and bad JSON into INVALID_JSON', () => {
    const broken = Buffer.concat([Buffer.from('{"n":"DU'), Buffer.from([0xc0, 0xaf]), Buffer.from('PONT"}')]);
    expect((parseJsonBody(broken, 'en') as { n: string }).n).toMatch(/^DU\ufffd+PONT$/);
    expect(() => parseJsonBody(Buffer.from('{"a":'), 'fr')).toThrow(
      expect.objectContaining({ code: 'INVALID_JSON' }) as Error,
    );
  });
});
