/**
 * Cell checks of the row checker (API.md §4), through the public entry points: each case gives the
 * exact entries (row, column, code and, for JSON, field) and the row counts.
 */
import type { Issue } from './issues';
import { SPEC_2026_02 } from './format/v2026-02';
import { NIR_A, NIR_A_KEY, NIR_B, NIR_CORSICA, ROME_CODES } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  csvFile,
  decl,
  generatedRows,
  holderOf,
  holders,
  located,
  training,
  withCells,
  type Json,
  type Kind,
  type Located,
} from './testing/format-helpers';

interface Expected {
  errors?: Located[];
  warnings?: Located[];
  rowsInvalid?: number;
}

function expectResponse(
  r: {
    valid: boolean;
    error_count: number;
    rows_total: number;
    rows_valid: number;
    rows_invalid: number;
    errors: Issue[];
    warnings: Issue[];
  },
  { errors = [], warnings = [], rowsInvalid }: Expected,
): void {
  expect(located(r.errors)).toEqual(errors);
  expect(located(r.warnings)).toEqual(warnings);
  expect(r.error_count).toBe(errors.length);
  expect(r.valid).toBe(errors.length === 0);
  const invalid = rowsInvalid ?? new Set(errors.map((e) => e.row)).size;
  expect(r.rows_invalid).toBe(invalid);
  expect(r.rows_valid).toBe(r.rows_total - invalid);
}

const H0 = 'declarations[0].holders[0]';
const H1 = 'declarations[0].holders[1]';
const D0 = 'declarations[0]';
const T0 = 'declarations[0].training';

type JsonCase = [name: string, kind: Kind, edit: (b: Json) => void, expected: Expected];
const ADF_E: Kind = ['adf', 'employer'];
const ADF_OF: Kind = ['adf', 'training_organization'];
const JDR_E: Kind = ['jdr', 'employer'];
const JDR_OF: Kind = ['jdr', 'training_organization'];

function runJson([, [type, declarant], edit, expected]: JsonCase): void {
  const b = body(type, declarant);
  edit(b);
  expectResponse(check(b), expected);
}

describe('REQUIRED_FIELD (on the missing column)', () => {
  it.each<JsonCase>([
    [
      'birth_name absent',
      ADF_E,
      (b) => delete holderOf(b, 1).birth_name,
      { errors: [{ row: 3, column: 'NOM_TITULAIRE', field: `${H1}.birth_name`, code: 'REQUIRED_FIELD' }] },
    ],
    [
      'birth_name empty',
      ADF_OF,
      (b) => (holderOf(b).birth_name = ''),
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'REQUIRED_FIELD' }] },
    ],
    [
      'nir null',
      JDR_E,
      (b) => (holderOf(b).nir = null),
      { errors: [{ row: 2, column: 'NIR', field: `${H0}.nir`, code: 'REQUIRED_FIELD' }] },
    ],
    [
      'unique_id absent',
      JDR_OF,
      (b) => delete holderOf(b, 1).unique_id,
      {
        errors: [
          { row: 3, column: 'ID_UNIQUE_PARTENAIRE', field: `${H1}.unique_id`, code: 'REQUIRED_FIELD' },
        ],
      },
    ],
    [
      'validity_start absent',
      ADF_E,
      (b) => delete holderOf(b).validity_start,
      {
        errors: [
          { row: 2, column: 'DATE_DEBUT_VALIDITE', field: `${H0}.validity_start`, code: 'REQUIRED_FIELD' },
        ],
      },
    ],
    [
      'reference absent: a declaration-level error, once, every row invalid',
      ADF_E,
      (b) => delete decl(b).reference,
      {
        errors: [
          { row: 2, column: 'REFERENCE_DECLARATION', field: `${D0}.reference`, code: 'REQUIRED_FIELD' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'training.name absent',
      JDR_OF,
      (b) => delete training(b).name,
      {
        errors: [{ row: 2, column: 'NOM_FORMATION', field: `${T0}.name`, code: 'REQUIRED_FIELD' }],
        rowsInvalid: 2,
      },
    ],
    [
      'adf without training (employer)',
      ADF_E,
      (b) => delete decl(b).training,
      {
        errors: [
          { row: 2, column: 'NOM_FORMATION', field: `${T0}.name`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'REQUIRED_FIELD' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'adf without training (training organization): FORMATION_CERTIFIANTE too',
      ADF_OF,
      (b) => delete decl(b).training,
      {
        errors: [
          { row: 2, column: 'NOM_FORMATION', field: `${T0}.name`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'FORMATION_CERTIFIANTE', field: `${T0}.certifying`, code: 'REQUIRED_FIELD' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'jdr without certificate',
      JDR_E,
      (b) => delete decl(b).certificate,
      {
        errors: [
          { row: 2, column: 'TYPE_JDR', field: `${D0}.certificate.type`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'NOM_JDR', field: `${D0}.certificate.name`, code: 'REQUIRED_FIELD' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'jdr with training but no dates',
      JDR_E,
      (b) => {
        delete training(b).start_date;
        delete training(b).end_date;
      },
      {
        errors: [
          { row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'REQUIRED_FIELD' },
          { row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'REQUIRED_FIELD' },
        ],
        rowsInvalid: 2,
      },
    ],
  ])('%s', (...c) => runJson(c));
});

describe('FIELD_TOO_LONG (counted in characters)', () => {
  it.each<JsonCase>([
    [
      'NOM_TITULAIRE of 31 characters',
      ADF_E,
      (b) => (holderOf(b).birth_name = 'A'.repeat(31)),
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'FIELD_TOO_LONG' }] },
    ],
    ['NOM_TITULAIRE of 30 characters', ADF_E, (b) => (holderOf(b).birth_name = 'A'.repeat(30)), {}],
    ['NOM_TITULAIRE of 30 accented characters', JDR_OF, (b) => (holderOf(b).birth_name = 'É'.repeat(30)), {}],
    [
      'NOM_TITULAIRE of 30 decomposed É (60 code points before NFC)',
      ADF_OF,
      (b) => (holderOf(b).birth_name = 'E\u0301'.repeat(30)),
      {},
    ],
    ['NOM_TITULAIRE of 30 astral characters', ADF_E, (b) => (holderOf(b).birth_name = '𝔸'.repeat(30)), {}],
    [
      'NOM_TITULAIRE of 31 accented characters',
      ADF_E,
      (b) => (holderOf(b, 1).birth_name = 'É'.repeat(31)),
      { errors: [{ row: 3, column: 'NOM_TITULAIRE', field: `${H1}.birth_name`, code: 'FIELD_TOO_LONG' }] },
    ],
    [
      'REFERENCE_DECLARATION of 281',
      ADF_E,
      (b) => (decl(b).reference = 'r'.repeat(281)),
      {
        errors: [
          { row: 2, column: 'REFERENCE_DECLARATION', field: `${D0}.reference`, code: 'FIELD_TOO_LONG' },
        ],
        rowsInvalid: 2,
      },
    ],
    ['REFERENCE_DECLARATION of 280', ADF_E, (b) => (decl(b).reference = 'r'.repeat(280)), {}],
    [
      'ID_UNIQUE_PARTENAIRE of 256',
      ADF_E,
      (b) => (holderOf(b).unique_id = 'u'.repeat(256)),
      {
        errors: [
          { row: 2, column: 'ID_UNIQUE_PARTENAIRE', field: `${H0}.unique_id`, code: 'FIELD_TOO_LONG' },
        ],
      },
    ],
    [
      'NOM_FORMATION of 251',
      ADF_E,
      (b) => (training(b).name = 'n'.repeat(251)),
      {
        errors: [{ row: 2, column: 'NOM_FORMATION', field: `${T0}.name`, code: 'FIELD_TOO_LONG' }],
        rowsInvalid: 2,
      },
    ],
    [
      'REFERENCE_EMPLOYEUR of 256',
      ADF_OF,
      (b) => (holderOf(b).employer_reference = 'e'.repeat(256)),
      {
        errors: [
          {
            row: 2,
            column: 'REFERENCE_EMPLOYEUR',
            field: `${H0}.employer_reference`,
            code: 'FIELD_TOO_LONG',
          },
        ],
      },
    ],
    [
      'LIEN_PREUVE of 1,001',
      JDR_E,
      (b) => (holderOf(b).proof_url = `https://example.org/${'p'.repeat(981)}`),
      { errors: [{ row: 2, column: 'LIEN_PREUVE', field: `${H0}.proof_url`, code: 'FIELD_TOO_LONG' }] },
    ],
    [
      'RESULTAT_OBTENU of 1,001',
      JDR_OF,
      (b) => (holderOf(b).result = 'r'.repeat(1001)),
      { errors: [{ row: 2, column: 'RESULTAT_OBTENU', field: `${H0}.result`, code: 'FIELD_TOO_LONG' }] },
    ],
    [
      'NOM_JDR of 256',
      JDR_OF,
      (b) => ((decl(b).certificate as Json).name = 'j'.repeat(256)),
      {
        errors: [{ row: 2, column: 'NOM_JDR', field: `${D0}.certificate.name`, code: 'FIELD_TOO_LONG' }],
        rowsInvalid: 2,
      },
    ],
  ])('%s', (...c) => runJson(c));

  it('reports the length and the limit in the message', () => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = 'A'.repeat(31);
    expect(check(b).errors[0]!.message).toBe(
      'NOM_TITULAIRE has 31 characters; at most 30 are allowed (values are never truncated).',
    );
  });
});

describe('INVALID_VALUE', () => {
  it.each<JsonCase>([
    [
      'unknown delivery mode',
      ADF_E,
      (b) => (training(b).delivery_mode = 'EN_LIGNE'),
      {
        errors: [
          { row: 2, column: 'MODALITE_DISPENSE', field: `${T0}.delivery_mode`, code: 'INVALID_VALUE' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'unknown trainer qualification',
      JDR_OF,
      (b) => (training(b).trainer_qualification = 'FORMATEUR'),
      {
        errors: [
          {
            row: 2,
            column: 'QUALIFICATION_FORMATEUR',
            field: `${T0}.trainer_qualification`,
            code: 'INVALID_VALUE',
          },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'unknown TYPE_JDR',
      JDR_E,
      (b) => ((decl(b).certificate as Json).type = 'LICENCE'),
      {
        errors: [{ row: 2, column: 'TYPE_JDR', field: `${D0}.certificate.type`, code: 'INVALID_VALUE' }],
        rowsInvalid: 2,
      },
    ],
    [
      'unknown MODE_OBTENTION',
      JDR_E,
      (b) => ((decl(b).certificate as Json).obtention_mode = 'PAR_JURY'),
      {
        errors: [
          {
            row: 2,
            column: 'MODE_OBTENTION',
            field: `${D0}.certificate.obtention_mode`,
            code: 'INVALID_VALUE',
          },
        ],
        rowsInvalid: 2,
      },
    ],
  ])('%s', (...c) => runJson(c));

  it('lists the allowed values in the message', () => {
    const b = body('adf', 'employer');
    training(b).delivery_mode = 'EN_LIGNE';
    expect(check(b).errors[0]!.message).toBe(
      'MODALITE_DISPENSE must be one of: A_DISTANCE, PRESENTIEL, MIXTE.',
    );
  });
});

describe('VALUE_COUNT', () => {
  it.each<JsonCase>([
    [
      'training organization with 2 ROME codes',
      ADF_OF,
      (b) => (decl(b).transferable_skills = ROME_CODES.slice(0, 2)),
      {
        errors: [
          {
            row: 2,
            column: 'COMPETENCE_TRANSFERABLE',
            field: `${D0}.transferable_skills`,
            code: 'VALUE_COUNT',
          },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'training organization with 11 ROME codes',
      JDR_OF,
      (b) => (decl(b).transferable_skills = ROME_CODES.slice(0, 11)),
      {
        errors: [
          {
            row: 2,
            column: 'COMPETENCE_TRANSFERABLE',
            field: `${D0}.transferable_skills`,
            code: 'VALUE_COUNT',
          },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'training organization with 10 ROME codes',
      ADF_OF,
      (b) => (decl(b).transferable_skills = ROME_CODES.slice(0, 10)),
      {},
    ],
    [
      'employer with 11 ROME codes',
      ADF_E,
      (b) => (decl(b).transferable_skills = ROME_CODES.slice(0, 11)),
      {
        errors: [
          {
            row: 2,
            column: 'COMPETENCE_TRANSFERABLE',
            field: `${D0}.transferable_skills`,
            code: 'VALUE_COUNT',
          },
        ],
        rowsInvalid: 2,
      },
    ],
    ['employer with 0 ROME codes', ADF_E, (b) => (decl(b).transferable_skills = []), {}],
    ['employer with 1 ROME code', JDR_E, (b) => (decl(b).transferable_skills = ['115650']), {}],
    [
      '6 Formacodes',
      ADF_E,
      (b) => (training(b).formacodes = ['42829', '42817', '42866', '42875', '42819', '42829']),
      {
        errors: [{ row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes`, code: 'VALUE_COUNT' }],
        rowsInvalid: 2,
      },
    ],
    [
      '5 Formacodes',
      ADF_OF,
      (b) => (training(b).formacodes = ['42829', '42817', '42866', '42875', '42819']),
      {},
    ],
    [
      '4 NSF codes',
      ADF_OF,
      (b) => (training(b).nsf_codes = ['344', '344r', '344p', '311u']),
      {
        errors: [{ row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes`, code: 'VALUE_COUNT' }],
        rowsInvalid: 2,
      },
    ],
  ])('%s', (...c) => runJson(c));

  it('names the limits in the message', () => {
    const b = body('adf', 'training_organization');
    decl(b).transferable_skills = ROME_CODES.slice(0, 2);
    expect(check(b).errors[0]!.message).toBe(
      'COMPETENCE_TRANSFERABLE holds 2 values; between 3 and 10 are expected.',
    );
  });
});

describe('INVALID_CHARACTER (JSON input)', () => {
  it.each<JsonCase>([
    [
      '| in a declaration value',
      ADF_E,
      (b) => (decl(b).reference = 'Session | SST'),
      {
        errors: [
          { row: 2, column: 'REFERENCE_DECLARATION', field: `${D0}.reference`, code: 'INVALID_CHARACTER' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'CR inside a birth name',
      ADF_E,
      (b) => (holderOf(b).birth_name = 'DU\rPONT'),
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'INVALID_CHARACTER' }] },
    ],
    [
      'LF inside a unique id',
      JDR_OF,
      (b) => (holderOf(b, 1).unique_id = 'SST\nE1'),
      {
        errors: [
          { row: 3, column: 'ID_UNIQUE_PARTENAIRE', field: `${H1}.unique_id`, code: 'INVALID_CHARACTER' },
        ],
      },
    ],
    [
      'CRLF inside a training name',
      JDR_E,
      (b) => (training(b).name = 'SST\r\nrecyclage'),
      {
        errors: [{ row: 2, column: 'NOM_FORMATION', field: `${T0}.name`, code: 'INVALID_CHARACTER' }],
        rowsInvalid: 2,
      },
    ],
    [
      '| inside a NIR',
      ADF_E,
      (b) => (holderOf(b).nir = '2550814|168025'),
      { errors: [{ row: 2, column: 'NIR', field: `${H0}.nir`, code: 'INVALID_CHARACTER' }] },
    ],
    [
      '| inside a code list value',
      ADF_E,
      (b) => (training(b).formacodes = ['42829|42817']),
      {
        errors: [
          { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes`, code: 'INVALID_CHARACTER' },
        ],
        rowsInvalid: 2,
      },
    ],
    [
      'a tab inside a value',
      ADF_E,
      (b) => (holderOf(b).employer_reference = 'RH\t7'),
      {
        errors: [
          {
            row: 2,
            column: 'REFERENCE_EMPLOYEUR',
            field: `${H0}.employer_reference`,
            code: 'INVALID_CHARACTER',
          },
        ],
      },
    ],
    ['a trailing line break is only whitespace', ADF_E, (b) => (holderOf(b).birth_name = 'DUPONT\r\n'), {}],
  ])('%s', (...c) => runJson(c));
});

describe('INVALID_DATE', () => {
  it.each<JsonCase>([
    [
      'impossible ISO date 2026-02-31',
      ADF_E,
      (b) => (training(b).start_date = '2026-02-31'),
      {
        errors: [{ row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'INVALID_DATE' }],
        rowsInvalid: 2,
      },
    ],
    [
      'impossible French date 31/02/2026',
      ADF_OF,
      (b) => (training(b).end_date = '31/02/2026'),
      {
        errors: [{ row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'INVALID_DATE' }],
        rowsInvalid: 2,
      },
    ],
    [
      '29/02/2027',
      JDR_E,
      (b) => (holderOf(b).validity_end = '29/02/2027'),
      {
        errors: [{ row: 2, column: 'DATE_FIN_VALIDITE', field: `${H0}.validity_end`, code: 'INVALID_DATE' }],
      },
    ],
    [
      'malformed 15/9/2026',
      ADF_E,
      (b) => (holderOf(b, 1).validity_start = '15/9/2026'),
      {
        errors: [
          { row: 3, column: 'DATE_DEBUT_VALIDITE', field: `${H1}.validity_start`, code: 'INVALID_DATE' },
        ],
      },
    ],
    [
      'a timestamp',
      ADF_E,
      (b) => (holderOf(b).validity_end = '2028-09-14T00:00:00Z'),
      {
        errors: [{ row: 2, column: 'DATE_FIN_VALIDITE', field: `${H0}.validity_end`, code: 'INVALID_DATE' }],
      },
    ],
    ['dd/mm/yyyy is accepted in JSON', ADF_E, (b) => (holderOf(b).validity_start = '15/09/2026'), {}],
  ])('%s', (...c) => runJson(c));
});

describe('FUTURE_DATE (against the injected today, 22/11/2026)', () => {
  it('refuses training dates after today', () => {
    const b = body('adf', 'employer');
    Object.assign(training(b), { start_date: '2026-11-23', end_date: '2026-11-24' });
    holders(b).forEach((h) => (h.validity_start = '2026-11-24'));
    expectResponse(check(b), {
      errors: [
        { row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'FUTURE_DATE' },
        { row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'FUTURE_DATE' },
      ],
      rowsInvalid: 2,
    });
    // The same body validated two days later is fine.
    expectResponse(check(b, { today: 20261124 }), {});
  });

  it('accepts a training that ends today', () => {
    const b = body('jdr', 'training_organization');
    Object.assign(training(b), { start_date: '2026-11-20', end_date: '22/11/2026' });
    holders(b).forEach((h) => (h.validity_start = '2026-11-22'));
    expectResponse(check(b), {});
  });

  it('leaves validity dates free to be in the future', () => {
    const b = body('adf', 'employer');
    holderOf(b).validity_start = '2027-01-01';
    holderOf(b).validity_end = '2030-01-01';
    expectResponse(check(b), {});
  });

  it('names today in the message', () => {
    const b = body('adf', 'employer');
    Object.assign(training(b), { start_date: '2026-11-20', end_date: '2026-11-23' });
    holders(b).forEach((h) => (h.validity_start = '2026-11-23'));
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'FUTURE_DATE' },
    ]);
    expect(r.errors[0]!.message).toBe(
      'DATE_FIN_FORMATION is after today (22/11/2026, Europe/Paris); training dates cannot be in the future.',
    );
  });
});

describe('date order (on the later date of the pair)', () => {
  it('END_BEFORE_START on DATE_FIN_FORMATION, once for the declaration', () => {
    const b = body('adf', 'training_organization', 3);
    Object.assign(training(b), { start_date: '2026-09-15', end_date: '2026-09-14' });
    expectResponse(check(b), {
      errors: [{ row: 2, column: 'DATE_FIN_FORMATION', field: `${T0}.end_date`, code: 'END_BEFORE_START' }],
      rowsInvalid: 3,
    });
  });

  it('VALIDITY_BEFORE_TRAINING_END on DATE_DEBUT_VALIDITE of that holder', () => {
    const b = body('jdr', 'employer', 3);
    holderOf(b, 1).validity_start = '2026-09-14';
    expectResponse(check(b), {
      errors: [
        {
          row: 3,
          column: 'DATE_DEBUT_VALIDITE',
          field: `${H1}.validity_start`,
          code: 'VALIDITY_BEFORE_TRAINING_END',
        },
      ],
    });
  });

  it('VALIDITY_END_BEFORE_START on DATE_FIN_VALIDITE', () => {
    const b = body('adf', 'employer');
    holderOf(b).validity_end = '2026-09-14';
    expectResponse(check(b), {
      errors: [
        {
          row: 2,
          column: 'DATE_FIN_VALIDITE',
          field: `${H0}.validity_end`,
          code: 'VALIDITY_END_BEFORE_START',
        },
      ],
    });
  });

  it('accepts equal dates all along the chain', () => {
    const b = body('adf', 'employer');
    Object.assign(training(b), { start_date: '2026-09-15', end_date: '2026-09-15' });
    holders(b).forEach((h) => Object.assign(h, { validity_start: '2026-09-15', validity_end: '2026-09-15' }));
    expectResponse(check(b), {});
  });

  it('skips VALIDITY_BEFORE_TRAINING_END for a jdr without training', () => {
    const b = body('jdr', 'employer');
    delete decl(b).training;
    holderOf(b).validity_start = '2020-01-01';
    expectResponse(check(b), {});
  });
});

describe('INVALID_NIR / INVALID_NIR_KEY / NIR_PROVISIONAL', () => {
  const nirError = (row: number, h: number, code = 'INVALID_NIR'): Located => ({
    row,
    column: 'NIR',
    field: `declarations[0].holders[${h}].nir`,
    code: code as Located['code'],
  });

  it.each([
    ['12 characters', '255081416802', 'it does not have 13 characters'],
    ['14 characters', '25508141680253', 'it does not have 13 characters'],
    ['sex digit 9', '9550814168025', 'the first digit is not 1, 2, 3, 4, 7 or 8'],
    ['sex digit 5', '5550814168025', 'the first digit is not 1, 2, 3, 4, 7 or 8'],
    ['sex digit 6', '6550814168025', 'the first digit is not 1, 2, 3, 4, 7 or 8'],
    ['month 13', '2551314168025', 'the month is impossible'],
    ['département 00', '2550800168025', 'the département is impossible'],
    ['order 000', '2550814168000', 'the order number is 000'],
    ['a letter', '25508141680X5', 'a character that must be a digit is not'],
    ['15 characters whose first 13 are impossible', '955081416802538', 'it does not have 13 characters'],
  ])('%s', (_name, nir, reason) => {
    const b = body('adf', 'employer');
    holderOf(b).nir = nir;
    const r = check(b);
    expectResponse(r, { errors: [nirError(2, 0)] });
    expect(r.errors[0]!.message).toContain(reason);
  });

  it('accepts Corsica 2A and 2B', () => {
    const b = body('adf', 'training_organization');
    holderOf(b, 0).nir = '180122A012345';
    holderOf(b, 1).nir = NIR_CORSICA;
    expectResponse(check(b), {});
  });

  it('INVALID_NIR_KEY for 15 characters with a wrong key', () => {
    const b = body('jdr', 'training_organization');
    holderOf(b, 1).nir = `${NIR_B}92`;
    expectResponse(check(b), { errors: [nirError(3, 1, 'INVALID_NIR_KEY')] });
  });

  it('accepts 15 characters with the right key', () => {
    const b = body('adf', 'employer');
    holderOf(b).nir = `${NIR_A}${NIR_A_KEY}`;
    expectResponse(check(b), {});
  });

  it.each(['3', '4', '7', '8'])('NIR_PROVISIONAL (warning) for the sex digit %s', (sex) => {
    const b = body('adf', 'employer');
    holderOf(b, 1).nir = `${sex}${NIR_B.slice(1)}`;
    expectResponse(check(b), {
      warnings: [{ row: 3, column: 'NIR', field: `${H1}.nir`, code: 'NIR_PROVISIONAL' }],
    });
  });
});

describe('INVALID_SIRET / INVALID_SIRET_KEY (training organization)', () => {
  const siretIssue = (code: 'INVALID_SIRET' | 'INVALID_SIRET_KEY'): Located => ({
    row: 2,
    column: 'SIRET_EMPLOYEUR',
    field: `${H0}.employer_siret`,
    code,
  });
  it.each<[string, string, Located[]]>([
    ['13 digits', '2000566790001', [siretIssue('INVALID_SIRET')]],
    ['a letter', '2000566790001A', [siretIssue('INVALID_SIRET')]],
    ['Luhn fails', '20005667900019', [siretIssue('INVALID_SIRET_KEY')]],
    ['Luhn passes', '44123456700010', []],
    ['La Poste, Luhn passes', '35600000000048', []],
    ['La Poste, Luhn fails but digit sum is a multiple of 5', '35600000000001', []],
    ['La Poste, neither rule', '35600000000002', [siretIssue('INVALID_SIRET_KEY')]],
  ])('%s (%s)', (_name, siret, errors) => {
    const b = body('adf', 'training_organization');
    holderOf(b).employer_siret = siret;
    expectResponse(check(b), { errors });
  });
});

describe('INVALID_URL', () => {
  it.each(['certificats.example.org/sst/1', 'ftp://certificats.example.org/sst/1', '/sst/1'])(
    'refuses %s',
    (url) => {
      const b = body('jdr', 'employer');
      holderOf(b, 1).proof_url = url;
      expectResponse(check(b), {
        errors: [{ row: 3, column: 'LIEN_PREUVE', field: `${H1}.proof_url`, code: 'INVALID_URL' }],
      });
    },
  );

  it('accepts http and https', () => {
    const b = body('jdr', 'training_organization');
    holderOf(b, 0).proof_url = 'http://example.org/p?id=1';
    expectResponse(check(b), {});
  });
});

describe('FORMULA_NOT_ALLOWED', () => {
  const formulaBody = (policy?: string): Json => {
    const b = body('adf', 'employer');
    decl(b).reference = '=HYPERLINK("x")';
    holderOf(b, 1).birth_name = '@DUPONT';
    if (policy) b.options = { formula_policy: policy };
    return b;
  };
  const entries: Located[] = [
    { row: 2, column: 'REFERENCE_DECLARATION', field: `${D0}.reference`, code: 'FORMULA_NOT_ALLOWED' },
    { row: 3, column: 'NOM_TITULAIRE', field: `${H1}.birth_name`, code: 'FORMULA_NOT_ALLOWED' },
  ];

  it('is an error with reject (the default)', () => {
    expectResponse(check(formulaBody()), { errors: entries, rowsInvalid: 2 });
    expectResponse(check(formulaBody('reject')), { errors: entries, rowsInvalid: 2 });
  });

  it('is a warning with warn', () => {
    expectResponse(check(formulaBody('warn')), { warnings: entries });
  });

  it('is nothing with allow', () => {
    expectResponse(check(formulaBody('allow')), {});
  });

  it.each(['+33', '-1', '=1', '@x'])('catches the leading %s', (value) => {
    const b = body('adf', 'employer');
    holderOf(b).employer_reference = value;
    expectResponse(check(b), {
      errors: [
        {
          row: 2,
          column: 'REFERENCE_EMPLOYEUR',
          field: `${H0}.employer_reference`,
          code: 'FORMULA_NOT_ALLOWED',
        },
      ],
    });
  });

  it('still checks the length of a warned formula', () => {
    const b = body('adf', 'employer');
    holderOf(b).birth_name = `=${'A'.repeat(30)}`;
    b.options = { formula_policy: 'warn' };
    const r = check(b);
    expect(located(r.warnings)).toEqual([
      { row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'FORMULA_NOT_ALLOWED' },
    ]);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'NOM_TITULAIRE', field: `${H0}.birth_name`, code: 'FIELD_TOO_LONG' },
    ]);
  });
});

describe('the same checks on an uploaded CSV (no field, no normalization)', () => {
  type CsvCase = [name: string, kind: Kind, cells: Record<string, string>, expected: Expected];
  it.each<CsvCase>([
    [
      'NOM_TITULAIRE of 31 characters',
      ADF_E,
      { NOM_TITULAIRE: 'A'.repeat(31) },
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', code: 'FIELD_TOO_LONG' }] },
    ],
    ['NOM_TITULAIRE of 30 accented characters', ADF_E, { NOM_TITULAIRE: 'É'.repeat(30) }, {}],
    [
      'a CR inside a cell',
      ADF_OF,
      { NOM_TITULAIRE: 'DU\rPONT' },
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', code: 'INVALID_CHARACTER' }] },
    ],
    [
      'an ISO date',
      ADF_E,
      { DATE_DEBUT_VALIDITE: '2026-09-15' },
      { errors: [{ row: 2, column: 'DATE_DEBUT_VALIDITE', code: 'INVALID_DATE' }] },
    ],
    [
      '31/02/2026',
      JDR_E,
      { DATE_DEBUT_FORMATION: '31/02/2026' },
      { errors: [{ row: 2, column: 'DATE_DEBUT_FORMATION', code: 'INVALID_DATE' }], rowsInvalid: 2 },
    ],
    [
      'a future training end',
      ADF_E,
      { DATE_FIN_FORMATION: '23/11/2026' },
      { errors: [{ row: 2, column: 'DATE_FIN_FORMATION', code: 'FUTURE_DATE' }], rowsInvalid: 2 },
    ],
    [
      'a NIR with its key',
      ADF_E,
      { NIR: `${NIR_A}${NIR_A_KEY}` },
      { errors: [{ row: 2, column: 'NIR', code: 'INVALID_NIR' }] },
    ],
    [
      'a lower-case delivery mode',
      ADF_E,
      { MODALITE_DISPENSE: 'presentiel' },
      { errors: [{ row: 2, column: 'MODALITE_DISPENSE', code: 'INVALID_VALUE' }], rowsInvalid: 2 },
    ],
    [
      'PRESENCE_EMPLOYEUR oui',
      ADF_OF,
      { PRESENCE_EMPLOYEUR: 'oui' },
      { errors: [{ row: 2, column: 'PRESENCE_EMPLOYEUR', code: 'INVALID_VALUE' }] },
    ],
    [
      'FORMATION_CERTIFIANTE X (the columns it governs are not judged)',
      ADF_OF,
      { FORMATION_CERTIFIANTE: 'X' },
      { errors: [{ row: 2, column: 'FORMATION_CERTIFIANTE', code: 'INVALID_VALUE' }], rowsInvalid: 2 },
    ],
    [
      'PRESENCE_FORMATION O',
      JDR_E,
      { PRESENCE_FORMATION: 'O' },
      { errors: [{ row: 2, column: 'PRESENCE_FORMATION', code: 'INVALID_VALUE' }], rowsInvalid: 2 },
    ],
    [
      'a SIRET whose key is wrong',
      ADF_OF,
      { SIRET_EMPLOYEUR: '20005667900019' },
      { errors: [{ row: 2, column: 'SIRET_EMPLOYEUR', code: 'INVALID_SIRET_KEY' }] },
    ],
    [
      'a SIRET with spaces',
      ADF_OF,
      { SIRET_EMPLOYEUR: '200 056 679 00018' },
      { errors: [{ row: 2, column: 'SIRET_EMPLOYEUR', code: 'INVALID_SIRET' }] },
    ],
    [
      'a relative URL',
      JDR_OF,
      { LIEN_PREUVE: 'sst/1' },
      { errors: [{ row: 2, column: 'LIEN_PREUVE', code: 'INVALID_URL' }] },
    ],
    ['" is an ordinary character', ADF_E, { NOM_TITULAIRE: '"O"BRIEN"' }, {}],
    [
      'an upper-case NSF letter',
      ADF_E,
      { SPECIALITE_FORMATION: '344R' },
      { errors: [{ row: 2, column: 'SPECIALITE_FORMATION', code: 'INVALID_NSF_CODE' }], rowsInvalid: 2 },
    ],
    [
      'a missing birth name',
      JDR_E,
      { NOM_TITULAIRE: '' },
      { errors: [{ row: 2, column: 'NOM_TITULAIRE', code: 'REQUIRED_FIELD' }] },
    ],
    [
      'a provisional NIR',
      ADF_E,
      { NIR: `7${NIR_A.slice(1)}` },
      { warnings: [{ row: 2, column: 'NIR', code: 'NIR_PROVISIONAL' }] },
    ],
  ])('%s', (_name, [type, declarant], cells, expected) => {
    const rows = generatedRows(body(type, declarant));
    // Holder cells change on the first row only; declaration cells on every row, so that the
    // declaration stays consistent (a training date then also moves every validity start).
    const level = new Map(SPEC_2026_02.tables[type].columns.map((c) => [c.name, c.level]));
    const everyRow = Object.fromEntries(
      Object.entries(cells).filter(([c]) => level.get(c) === 'declaration'),
    );
    if (cells.DATE_FIN_FORMATION) everyRow.DATE_DEBUT_VALIDITE = cells.DATE_FIN_FORMATION;
    rows.forEach(
      (row, i) => (rows[i] = withCells(type, row, i === 0 ? { ...cells, ...everyRow } : everyRow)),
    );
    expectResponse(checkCsv(csvFile(type, rows), type, declarant), expected);
  });

  it('reports a formula as a warning only, whatever it is', () => {
    const rows = generatedRows(body('adf', 'employer'));
    rows[1] = withCells('adf', rows[1]!, { NOM_TITULAIRE: '=1+1', REFERENCE_EMPLOYEUR: '@x' });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expectResponse(r, {
      warnings: [
        { row: 3, column: 'NOM_TITULAIRE', code: 'FORMULA_NOT_ALLOWED' },
        { row: 3, column: 'REFERENCE_EMPLOYEUR', code: 'FORMULA_NOT_ALLOWED' },
      ],
    });
  });
});
