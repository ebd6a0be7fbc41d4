/**
 * JSON → official cells: the normalizations of API.md §5 (entry present, value written normalized,
 * value never copied into the response) and what is never corrected (SERVICE.md §2.6).
 */
import { generateFile } from './api';
import type { Normalization } from './json-rows';
import { NIR_A, NIR_A_KEY, NIR_B, NIR_CORSICA, NIR_CORSICA_KEY, SIRET_A } from './testing/fixtures';
import {
  body,
  check,
  colIndex,
  decl,
  holderOf,
  holders,
  located,
  parseCsv,
  requestError,
  testEnv,
  training,
  type Json,
} from './testing/format-helpers';

const H0 = 'declarations[0].holders[0]';
const H1 = 'declarations[0].holders[1]';
const T0 = 'declarations[0].training';

/** Validates and generates `b`: the normalizations (without the dates the fixtures write in ISO), and a cell reader. */
function normalize(b: Json) {
  const validation = check(b);
  expect(validation.errors).toEqual([]);
  const file = generateFile(b, testEnv());
  const rows = parseCsv(file.content.toString('utf8'));
  const type = b.type as 'adf' | 'jdr';
  return {
    validation,
    file,
    entries: validation.normalizations.filter((n) => n.rule !== 'DATE_REFORMATTED'),
    cell: (row: number, column: string): string => rows[row - 1]![colIndex(type, column)]!,
    /** Everything but the file's bytes: what may never hold a personal value. */
    json: JSON.stringify({ validation, ...file, content: undefined }),
  };
}

/** The fixtures' dates in dd/mm/yyyy, so that only the rule under test logs entries. */
function frDates(b: Json): Json {
  Object.assign(training(b), { start_date: '14/09/2026', end_date: '15/09/2026' });
  holders(b).forEach((h) => Object.assign(h, { validity_start: '15/09/2026', validity_end: '14/09/2028' }));
  return b;
}

describe('no normalization on clean input', () => {
  it('logs nothing when every value is already official', () => {
    const r = normalize(frDates(body('jdr', 'training_organization')));
    expect(r.validation.normalizations).toEqual([]);
    expect(r.validation.normalization_count).toBe(0);
  });
});

describe('WHITESPACE_TRIMMED', () => {
  it('trims a holder value and a declaration value (logged once per value, not per row)', () => {
    const b = frDates(body('adf', 'employer', 3));
    holderOf(b, 1).birth_name = '  MARTIN\t';
    decl(b).reference = ' Session SST ';
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: 'declarations[0].reference', column: 'REFERENCE_DECLARATION', rule: 'WHITESPACE_TRIMMED' },
      { field: `${H1}.birth_name`, column: 'NOM_TITULAIRE', rule: 'WHITESPACE_TRIMMED' },
    ]);
    expect(r.cell(3, 'NOM_TITULAIRE')).toBe('MARTIN');
    expect([2, 3, 4].map((row) => r.cell(row, 'REFERENCE_DECLARATION'))).toEqual([
      'Session SST',
      'Session SST',
      'Session SST',
    ]);
    expect(r.json).not.toContain('MARTIN');
  });

  it('trims inside a code list, element by element', () => {
    const b = frDates(body('adf', 'employer'));
    training(b).formacodes = [' 42829', '42817 '];
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${T0}.formacodes[0]`, column: 'DOMAINE_FORMATION', rule: 'WHITESPACE_TRIMMED' },
      { field: `${T0}.formacodes[1]`, column: 'DOMAINE_FORMATION', rule: 'WHITESPACE_TRIMMED' },
    ]);
    expect(r.cell(2, 'DOMAINE_FORMATION')).toBe('42829/42817');
  });
});

describe('UNICODE_NFC', () => {
  it('composes a decomposed É', () => {
    const b = frDates(body('adf', 'training_organization'));
    const decomposed = 'E\u0301LOUARD';
    expect(decomposed).toHaveLength(8);
    holderOf(b).birth_name = decomposed;
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${H0}.birth_name`, column: 'NOM_TITULAIRE', rule: 'UNICODE_NFC' },
    ]);
    expect(r.cell(2, 'NOM_TITULAIRE')).toBe('\u00c9LOUARD');
    expect(r.json).not.toContain(decomposed);
    expect(r.json).not.toContain('\u00c9LOUARD');
    expect(r.json).not.toContain('LOUARD');
  });

  it('leaves an already composed value alone', () => {
    const b = frDates(body('adf', 'employer'));
    holderOf(b).birth_name = '\u00c9LOUARD';
    expect(normalize(b).entries).toEqual([]);
  });
});

describe('DATE_REFORMATTED', () => {
  it('rewrites YYYY-MM-DD as dd/mm/yyyy and leaves dd/mm/yyyy alone', () => {
    const b = frDates(body('jdr', 'employer'));
    training(b).start_date = '2026-09-14';
    holderOf(b, 1).validity_end = '2028-02-29';
    const r = normalize(b);
    expect(r.validation.normalizations).toEqual<Normalization[]>([
      { field: `${T0}.start_date`, column: 'DATE_DEBUT_FORMATION', rule: 'DATE_REFORMATTED' },
      { field: `${H1}.validity_end`, column: 'DATE_FIN_VALIDITE', rule: 'DATE_REFORMATTED' },
    ]);
    expect(r.cell(2, 'DATE_DEBUT_FORMATION')).toBe('14/09/2026');
    expect(r.cell(3, 'DATE_DEBUT_FORMATION')).toBe('14/09/2026');
    expect(r.cell(3, 'DATE_FIN_VALIDITE')).toBe('29/02/2028');
    expect(r.cell(2, 'DATE_FIN_VALIDITE')).toBe('14/09/2028');
  });
});

describe('ENUM_UPPERCASED', () => {
  it('upper-cases an enumeration whose upper case is allowed', () => {
    const b = frDates(body('jdr', 'training_organization'));
    training(b).delivery_mode = 'presentiel';
    training(b).trainer_qualification = 'Ingenieur';
    Object.assign(decl(b).certificate as Json, { type: 'certificat', obtention_mode: 'par_scoring' });
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: 'declarations[0].certificate.type', column: 'TYPE_JDR', rule: 'ENUM_UPPERCASED' },
      {
        field: 'declarations[0].certificate.obtention_mode',
        column: 'MODE_OBTENTION',
        rule: 'ENUM_UPPERCASED',
      },
      { field: `${T0}.delivery_mode`, column: 'MODALITE_DISPENSE', rule: 'ENUM_UPPERCASED' },
      { field: `${T0}.trainer_qualification`, column: 'QUALIFICATION_FORMATEUR', rule: 'ENUM_UPPERCASED' },
    ]);
    expect(
      ['TYPE_JDR', 'MODE_OBTENTION', 'MODALITE_DISPENSE', 'QUALIFICATION_FORMATEUR'].map((c) => r.cell(2, c)),
    ).toEqual(['CERTIFICAT', 'PAR_SCORING', 'PRESENTIEL', 'INGENIEUR']);
  });

  it.each(['présentiel', 'en_ligne', 'a distance'])(
    'is not applied when the upper-cased %j is not allowed',
    (mode) => {
      const b = frDates(body('adf', 'employer'));
      training(b).delivery_mode = mode;
      const r = check(b);
      expect(r.normalizations).toEqual([]);
      expect(located(r.errors)).toEqual([
        { row: 2, column: 'MODALITE_DISPENSE', field: `${T0}.delivery_mode`, code: 'INVALID_VALUE' },
      ]);
    },
  );

  // toUpperCase writes ı as I, ſ as S, ß as SS and ﬁ as FI: values that were not typed (issue 32).
  it.each(['PRESENTıEL', 'preſentiel', 'presentıel', 'PREſENTıEL'])(
    'changes the case of a–z only: %j stays itself and an error',
    (mode) => {
      const b = frDates(body('adf', 'employer'));
      training(b).delivery_mode = mode;
      const r = check(b);
      expect(r.normalizations).toEqual([]);
      expect(located(r.errors)).toEqual([
        { row: 2, column: 'MODALITE_DISPENSE', field: `${T0}.delivery_mode`, code: 'INVALID_VALUE' },
      ]);
    },
  );

  it.each([
    ['certiﬁcat', 'type'],
    ['par_ſcoring', 'obtention_mode'],
  ])('changes the case of a–z only: %j stays itself and an error (%s)', (value, key) => {
    const b = frDates(body('jdr', 'training_organization'));
    (decl(b).certificate as Json)[key] = value;
    const r = check(b);
    expect(r.normalizations).toEqual([]);
    expect(r.errors.map((e) => [e.field, e.code])).toEqual([
      [`declarations[0].certificate.${key}`, 'INVALID_VALUE'],
    ]);
  });
});

describe('SEPARATORS_REMOVED', () => {
  it.each(['200 056 679 00018', '200.056.679.00018', '200-056-679-00018', '200/056/679/00018'])(
    'SIRET %j',
    (siret) => {
      const b = frDates(body('adf', 'training_organization'));
      holderOf(b).employer_siret = siret;
      const r = normalize(b);
      expect(r.entries).toEqual<Normalization[]>([
        { field: `${H0}.employer_siret`, column: 'SIRET_EMPLOYEUR', rule: 'SEPARATORS_REMOVED' },
      ]);
      expect(r.cell(2, 'SIRET_EMPLOYEUR')).toBe(SIRET_A);
      expect(r.json).not.toContain(siret);
    },
  );

  it('NIR', () => {
    const b = frDates(body('adf', 'employer'));
    holderOf(b, 1).nir = '1 85 05 78 006 084';
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${H1}.nir`, column: 'NIR', rule: 'SEPARATORS_REMOVED' },
    ]);
    expect(r.cell(3, 'NIR')).toBe(NIR_B);
    expect(r.json).not.toContain('1 85 05 78 006 084');
    expect(r.json).not.toContain(NIR_B);
  });
});

describe('CODE_NORMALIZED', () => {
  it('NSF "344R" → "344r"', () => {
    const b = frDates(body('adf', 'training_organization'));
    training(b).nsf_codes = ['344R', '344p'];
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${T0}.nsf_codes[0]`, column: 'SPECIALITE_FORMATION', rule: 'CODE_NORMALIZED' },
    ]);
    expect(r.cell(2, 'SPECIALITE_FORMATION')).toBe('344r/344p');
  });

  it.each(['rs 6550', 'rs6550', 'Rs6550', 'RS 6550'])('RS %j → "RS6550"', (code) => {
    const b = frDates(body('jdr', 'training_organization'));
    Object.assign(training(b), { certifying: true, certification_code: code });
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${T0}.certification_code`, column: 'CERTIFICATION_VISEE', rule: 'CODE_NORMALIZED' },
    ]);
    expect(r.cell(2, 'CERTIFICATION_VISEE')).toBe('RS6550');
  });

  it.each(['rſ6550', 'ʀs6550'])('RS %j: only R and S take their case (not ſ): left as it is', (code) => {
    const b = frDates(body('jdr', 'training_organization'));
    Object.assign(training(b), { certifying: true, certification_code: code });
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    const r = check(b);
    expect(r.normalizations.filter((n) => n.rule === 'CODE_NORMALIZED')).toEqual([]);
    expect(r.errors.map((e) => e.column)).toContain('CERTIFICATION_VISEE');
  });
});

describe('NIR_KEY_REMOVED', () => {
  it('drops the key of a 15-character NIR whose key is right', () => {
    const b = frDates(body('jdr', 'employer'));
    holderOf(b, 0).nir = `${NIR_A}${NIR_A_KEY}`;
    holderOf(b, 1).nir = `${NIR_CORSICA}${NIR_CORSICA_KEY}`;
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${H0}.nir`, column: 'NIR', rule: 'NIR_KEY_REMOVED' },
      { field: `${H1}.nir`, column: 'NIR', rule: 'NIR_KEY_REMOVED' },
    ]);
    expect(r.cell(2, 'NIR')).toBe(NIR_A);
    expect(r.cell(3, 'NIR')).toBe(NIR_CORSICA);
    for (const value of [NIR_A, NIR_CORSICA, `${NIR_A}${NIR_A_KEY}`]) expect(r.json).not.toContain(value);
  });

  it('after removing separators', () => {
    const b = frDates(body('adf', 'employer'));
    holderOf(b).nir = '2 55 08 14 168 025 38';
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${H0}.nir`, column: 'NIR', rule: 'SEPARATORS_REMOVED' },
      { field: `${H0}.nir`, column: 'NIR', rule: 'NIR_KEY_REMOVED' },
    ]);
    expect(r.cell(2, 'NIR')).toBe(NIR_A);
  });
});

describe('entries in request order, across declarations', () => {
  it('declaration values before its holders, declaration after declaration', () => {
    const b = frDates(body('adf', 'training_organization'));
    const second = structuredClone(decl(b));
    second.id = 'SST-2026-10';
    (second.holders as Json[]).forEach((h, i) => (h.unique_id = `SST-2026-10-E${i}`));
    (b.declarations as Json[]).push(second);
    holderOf(b, 0, 0).employer_siret = '200 056 679 00018';
    training(b, 0).delivery_mode = 'mixte';
    training(b, 1).nsf_codes = ['344R'];
    holderOf(b, 1, 1).nir = `${NIR_B}91`;
    const r = normalize(b);
    expect(r.entries).toEqual<Normalization[]>([
      { field: `${T0}.delivery_mode`, column: 'MODALITE_DISPENSE', rule: 'ENUM_UPPERCASED' },
      { field: `${H0}.employer_siret`, column: 'SIRET_EMPLOYEUR', rule: 'SEPARATORS_REMOVED' },
      {
        field: 'declarations[1].training.nsf_codes[0]',
        column: 'SPECIALITE_FORMATION',
        rule: 'CODE_NORMALIZED',
      },
      { field: 'declarations[1].holders[1].nir', column: 'NIR', rule: 'NIR_KEY_REMOVED' },
    ]);
    expect(r.file.normalizations).toEqual(r.validation.normalizations);
    expect(r.file.normalization_count).toBe(4);
  });

  it('caps the list at 1,000 entries while normalization_count stays exact', () => {
    // 2 training dates + 2 validity dates for each of 600 holders, all in ISO.
    const b = body('adf', 'employer', 600);
    b.options = { split_large_declarations: true };
    const r = check(b);
    expect(r.valid).toBe(true);
    expect(r.normalization_count).toBe(2 + 1 + 1200);
    expect(r.normalizations).toHaveLength(1000);
    expect(r.normalizations[2]).toEqual({
      field: 'declarations[0].id',
      column: 'ID_DECLARATION',
      rule: 'DECLARATION_SPLIT',
    });
  });
});

describe('never corrected (SERVICE.md §2.6)', () => {
  it('an unknown code stays an error and is not replaced by a neighbour', () => {
    const b = frDates(body('adf', 'employer'));
    training(b).formacodes = ['42828'];
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[0]`, code: 'INVALID_FORMACODE' },
    ]);
    expect(r.normalizations).toEqual([]);
    expect(requestError(() => generateFile(b, testEnv())).code).toBe('VALIDATION_FAILED');
  });

  it('an impossible date stays an error', () => {
    const b = frDates(body('adf', 'employer'));
    training(b).start_date = '2026-02-30';
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'DATE_DEBUT_FORMATION', field: `${T0}.start_date`, code: 'INVALID_DATE' },
    ]);
    expect(r.normalizations).toEqual([]);
  });

  it('a SIRET with a wrong key stays an error, even once its separators are removed', () => {
    const b = frDates(body('adf', 'training_organization'));
    holderOf(b).employer_siret = '200 056 679 00019';
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'SIRET_EMPLOYEUR', field: `${H0}.employer_siret`, code: 'INVALID_SIRET_KEY' },
    ]);
    expect(r.normalizations).toEqual([
      { field: `${H0}.employer_siret`, column: 'SIRET_EMPLOYEUR', rule: 'SEPARATORS_REMOVED' },
    ]);
  });

  it('a 15-character NIR with a wrong key keeps its key and is an error', () => {
    const b = frDates(body('adf', 'employer'));
    holderOf(b).nir = `${NIR_A}39`;
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'NIR', field: `${H0}.nir`, code: 'INVALID_NIR_KEY' },
    ]);
    expect(r.normalizations).toEqual([]);
  });

  it('a name keeps its case and its inner spaces', () => {
    const b = frDates(body('adf', 'employer'));
    holderOf(b).birth_name = 'de la  Fontaine';
    const r = normalize(b);
    expect(r.entries).toEqual([]);
    expect(r.cell(2, 'NOM_TITULAIRE')).toBe('de la  Fontaine');
  });

  it('an NSF code whose letter is not a letter code is left for the checker', () => {
    const b = frDates(body('adf', 'employer'));
    training(b).nsf_codes = ['344RR'];
    const r = check(b);
    expect(r.normalizations).toEqual([]);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes[0]`, code: 'INVALID_NSF_CODE' },
    ]);
  });
});
