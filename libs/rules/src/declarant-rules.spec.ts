/** Rules that differ by declarant (API.md §3b), for the four kinds, from JSON and from a CSV. */
import { generateFile } from './api';
import { SIRET_A } from './testing/fixtures';
import {
  KINDS,
  body,
  check,
  checkCsv,
  colIndex,
  columnsOf,
  csvFile,
  decl,
  generatedRows,
  holderOf,
  holders,
  located,
  parseCsv,
  testEnv,
  training,
  withCells,
  type Json,
  type Located,
} from './testing/format-helpers';

const H0 = 'declarations[0].holders[0]';
const T0 = 'declarations[0].training';

function errorsOf(b: Json): Located[] {
  return located(check(b).errors);
}

/** The generated cells of the first row, by column name. */
function firstRow(b: Json): Record<string, string> {
  const type = b.type as 'adf' | 'jdr';
  const row = parseCsv(generateFile(b, testEnv()).content.toString('utf8'))[1]!;
  return Object.fromEntries(columnsOf(type).map((c, i) => [c, row[i]!]));
}

const TRAINING_COLUMNS = [
  'NOM_FORMATION',
  'DATE_DEBUT_FORMATION',
  'DATE_FIN_FORMATION',
  'MODALITE_DISPENSE',
  'QUALIFICATION_FORMATEUR',
  'FORMATION_CERTIFIANTE',
  'CERTIFICATION_VISEE',
  'DOMAINE_FORMATION',
  'SPECIALITE_FORMATION',
];

describe('columns', () => {
  it('are the same for both declarants: adf 20, jdr 29', () => {
    expect(columnsOf('adf')).toHaveLength(20);
    expect(columnsOf('jdr')).toHaveLength(29);
    for (const [type, declarant] of KINDS) {
      const header = parseCsv(generateFile(body(type, declarant), testEnv()).content.toString('utf8'))[0];
      expect(header).toEqual(columnsOf(type));
    }
  });
});

describe.each(['adf', 'jdr'] as const)('employer, %s', (type) => {
  it('refuses employer_siret: FIELD_NOT_ALLOWED on SIRET_EMPLOYEUR', () => {
    const b = body(type, 'employer');
    holderOf(b).employer_siret = SIRET_A;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(r.errors[0]!.message).toBe('SIRET_EMPLOYEUR must be empty here (not for this declarant).');
    expect(r.rows_invalid).toBe(1);
  });

  it('refuses employer_agreement: FIELD_NOT_ALLOWED on PRESENCE_EMPLOYEUR', () => {
    const b = body(type, 'employer');
    holderOf(b).employer_agreement = true;
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'PRESENCE_EMPLOYEUR', field: `${H0}.employer_agreement`, code: 'FIELD_NOT_ALLOWED' },
    ]);
  });

  it('leaves PRESENCE_EMPLOYEUR and SIRET_EMPLOYEUR empty and keeps REFERENCE_EMPLOYEUR', () => {
    const cells = firstRow(body(type, 'employer'));
    expect([cells.PRESENCE_EMPLOYEUR, cells.SIRET_EMPLOYEUR, cells.REFERENCE_EMPLOYEUR]).toEqual([
      '',
      '',
      'RH-7',
    ]);
  });

  it('accepts 0 ROME codes, absent or empty', () => {
    const b = body(type, 'employer');
    delete decl(b).transferable_skills;
    expect(check(b).valid).toBe(true);
    decl(b).transferable_skills = [];
    expect(check(b).valid).toBe(true);
    expect(firstRow(b).COMPETENCE_TRANSFERABLE).toBe('');
  });

  it('may leave FORMATION_CERTIFIANTE empty, with or without Formacodes and NSF codes', () => {
    const b = body(type, 'employer');
    delete training(b).certifying;
    expect(check(b).valid).toBe(true);
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    expect(check(b).valid).toBe(true);
    expect(firstRow(b).FORMATION_CERTIFIANTE).toBe('');
  });

  it('certifying: CERTIFICATION_VISEE optional, DOMAINE/SPECIALITE must be empty', () => {
    const b = body(type, 'employer');
    training(b).certifying = true;
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes`, code: 'FIELD_NOT_ALLOWED' },
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    expect(errorsOf(b)).toEqual([]);
    training(b).certification_code = 'RS6550';
    expect(errorsOf(b)).toEqual([]);
    expect(firstRow(b).CERTIFICATION_VISEE).toBe('RS6550');
  });

  it('not certifying: CERTIFICATION_VISEE must be empty, DOMAINE/SPECIALITE optional', () => {
    const b = body(type, 'employer');
    training(b).certification_code = 'RS6550';
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', field: `${T0}.certification_code`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    delete training(b).certification_code;
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    expect(errorsOf(b)).toEqual([]);
  });

  it('certifying not stated: CERTIFICATION_VISEE is allowed only when certifying, so it must be empty', () => {
    const b = body(type, 'employer');
    delete training(b).certifying;
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    training(b).certification_code = 'RS6550';
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', field: `${T0}.certification_code`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(r.errors[0]!.message).toBe(
      'CERTIFICATION_VISEE must be empty here (FORMATION_CERTIFIANTE is not OUI).',
    );
  });
});

describe.each(['adf', 'jdr'] as const)('training organization, %s', (type) => {
  it('writes PRESENCE_EMPLOYEUR OUI when employer_siret is given', () => {
    const cells = firstRow(body(type, 'training_organization'));
    expect([cells.PRESENCE_EMPLOYEUR, cells.SIRET_EMPLOYEUR, cells.REFERENCE_EMPLOYEUR]).toEqual([
      'OUI',
      SIRET_A,
      'CLIENT-42',
    ]);
  });

  it('writes PRESENCE_EMPLOYEUR NON without employer_siret', () => {
    const b = body(type, 'training_organization');
    holders(b).forEach((h) => {
      delete h.employer_siret;
      delete h.employer_reference;
    });
    expect(check(b).valid).toBe(true);
    const cells = firstRow(b);
    expect([cells.PRESENCE_EMPLOYEUR, cells.SIRET_EMPLOYEUR, cells.REFERENCE_EMPLOYEUR]).toEqual([
      'NON',
      '',
      '',
    ]);
  });

  it('without employer_siret, REFERENCE_EMPLOYEUR → FIELD_NOT_ALLOWED', () => {
    const b = body(type, 'training_organization');
    delete holderOf(b).employer_siret;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'REFERENCE_EMPLOYEUR', field: `${H0}.employer_reference`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(r.errors[0]!.message).toBe(
      'REFERENCE_EMPLOYEUR must be empty here (PRESENCE_EMPLOYEUR is not OUI).',
    );
  });

  it('employer_agreement true without employer_siret → REQUIRED_FIELD on SIRET_EMPLOYEUR', () => {
    const b = body(type, 'training_organization');
    delete holderOf(b).employer_siret;
    holderOf(b).employer_agreement = true;
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'REQUIRED_FIELD' },
    ]);
  });

  it('employer_agreement false with employer_siret → FIELD_NOT_ALLOWED on SIRET_EMPLOYEUR', () => {
    const b = body(type, 'training_organization');
    holderOf(b).employer_agreement = false;
    delete holderOf(b).employer_reference;
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'FIELD_NOT_ALLOWED' },
    ]);
  });

  it('needs 3 to 10 ROME codes', () => {
    const b = body(type, 'training_organization');
    delete decl(b).transferable_skills;
    expect(errorsOf(b)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills',
        code: 'REQUIRED_FIELD',
      },
    ]);
    decl(b).transferable_skills = ['115650', '121885'];
    expect(errorsOf(b)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills',
        code: 'VALUE_COUNT',
      },
    ]);
  });

  it('must state FORMATION_CERTIFIANTE (the columns it governs are then not judged)', () => {
    const b = body(type, 'training_organization');
    delete training(b).certifying;
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'FORMATION_CERTIFIANTE', field: `${T0}.certifying`, code: 'REQUIRED_FIELD' },
    ]);
  });

  it('certifying: CERTIFICATION_VISEE required, DOMAINE/SPECIALITE must be empty', () => {
    const b = body(type, 'training_organization', 3);
    training(b).certifying = true;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', field: `${T0}.certification_code`, code: 'REQUIRED_FIELD' },
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes`, code: 'FIELD_NOT_ALLOWED' },
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes`, code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(r.rows_invalid).toBe(3);
    expect(r.errors[1]!.message).toBe(
      'DOMAINE_FORMATION must be empty here (FORMATION_CERTIFIANTE is not NON).',
    );
    training(b).certification_code = 'RS6550';
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    expect(errorsOf(b)).toEqual([]);
    const cells = firstRow(b);
    expect([
      cells.FORMATION_CERTIFIANTE,
      cells.CERTIFICATION_VISEE,
      cells.DOMAINE_FORMATION,
      cells.SPECIALITE_FORMATION,
    ]).toEqual(['OUI', 'RS6550', '', '']);
  });

  it('not certifying: DOMAINE/SPECIALITE required (1–5 / 1–3), CERTIFICATION_VISEE must be empty', () => {
    const b = body(type, 'training_organization');
    delete training(b).formacodes;
    training(b).nsf_codes = [];
    training(b).certification_code = 'RS6550';
    expect(errorsOf(b)).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', field: `${T0}.certification_code`, code: 'FIELD_NOT_ALLOWED' },
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes`, code: 'REQUIRED_FIELD' },
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes`, code: 'REQUIRED_FIELD' },
    ]);
  });
});

describe('jdr: PRESENCE_FORMATION', () => {
  it.each(['employer', 'training_organization'] as const)(
    '%s without training: NON and every training column empty',
    (declarant) => {
      const b = body('jdr', declarant);
      delete decl(b).training;
      const r = check(b);
      expect(r.valid).toBe(true);
      expect(r.warnings).toEqual([]);
      const cells = firstRow(b);
      expect(cells.PRESENCE_FORMATION).toBe('NON');
      expect(TRAINING_COLUMNS.map((c) => cells[c])).toEqual(TRAINING_COLUMNS.map(() => ''));
    },
  );

  it('training organization without training still needs 3 to 10 ROME codes', () => {
    const b = body('jdr', 'training_organization');
    delete decl(b).training;
    decl(b).transferable_skills = [];
    expect(errorsOf(b)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills',
        code: 'REQUIRED_FIELD',
      },
    ]);
  });

  it('with training: OUI', () => {
    expect(firstRow(body('jdr', 'employer')).PRESENCE_FORMATION).toBe('OUI');
  });

  it('CSV: a training column filled while PRESENCE_FORMATION is NON → FIELD_NOT_ALLOWED on each', () => {
    const rows = generatedRows(body('jdr', 'training_organization')).map((row) =>
      withCells('jdr', row, { PRESENCE_FORMATION: 'NON' }),
    );
    const r = checkCsv(csvFile('jdr', rows), 'jdr', 'training_organization');
    const filled = TRAINING_COLUMNS.filter((c) => rows[0]![colIndex('jdr', c)] !== '');
    expect(filled).toEqual(TRAINING_COLUMNS.filter((c) => c !== 'CERTIFICATION_VISEE'));
    expect(located(r.errors)).toEqual(
      filled.map((column) => ({ row: 2, column, code: 'FIELD_NOT_ALLOWED' })),
    );
    expect(r.errors[0]!.message).toBe('NOM_FORMATION must be empty here (PRESENCE_FORMATION is not OUI).');
    expect(r.rows_invalid).toBe(2);
  });

  it('CSV: an empty PRESENCE_FORMATION reads as NON', () => {
    const rows = generatedRows(body('jdr', 'employer')).map((row) =>
      withCells(
        'jdr',
        row,
        Object.fromEntries([['PRESENCE_FORMATION', ''], ...TRAINING_COLUMNS.map((c) => [c, ''])]),
      ),
    );
    expect(checkCsv(csvFile('jdr', rows), 'jdr', 'employer').valid).toBe(true);
    rows.forEach((row, i) => (rows[i] = withCells('jdr', row, { NOM_FORMATION: 'SST' })));
    expect(located(checkCsv(csvFile('jdr', rows), 'jdr', 'employer').errors)).toEqual([
      { row: 2, column: 'NOM_FORMATION', code: 'FIELD_NOT_ALLOWED' },
    ]);
  });
});

describe('CSV: PRESENCE_EMPLOYEUR', () => {
  it('employer: a value → FIELD_NOT_ALLOWED', () => {
    const rows = generatedRows(body('adf', 'employer'));
    rows[1] = withCells('adf', rows[1]!, { PRESENCE_EMPLOYEUR: 'NON' });
    expect(located(checkCsv(csvFile('adf', rows), 'adf', 'employer').errors)).toEqual([
      { row: 3, column: 'PRESENCE_EMPLOYEUR', code: 'FIELD_NOT_ALLOWED' },
    ]);
  });

  it('training organization: empty → REQUIRED_FIELD; OUI without SIRET → REQUIRED_FIELD; NON with SIRET → FIELD_NOT_ALLOWED', () => {
    const rows = generatedRows(body('adf', 'training_organization', 3));
    rows[0] = withCells('adf', rows[0]!, { PRESENCE_EMPLOYEUR: '' });
    rows[1] = withCells('adf', rows[1]!, { SIRET_EMPLOYEUR: '' });
    rows[2] = withCells('adf', rows[2]!, { PRESENCE_EMPLOYEUR: 'NON', REFERENCE_EMPLOYEUR: '' });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'training_organization');
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'PRESENCE_EMPLOYEUR', code: 'REQUIRED_FIELD' },
      { row: 3, column: 'SIRET_EMPLOYEUR', code: 'REQUIRED_FIELD' },
      { row: 4, column: 'SIRET_EMPLOYEUR', code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(r.rows_invalid).toBe(3);
  });
});
