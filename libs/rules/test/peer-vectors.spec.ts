/**
 * Independent test vectors from public projects that produce Passeport de Prévention files
 * (test/fixtures/peer-vectors, data only; see its README.md and each ORIGIN.md). Where a peer's note and our contract
 * differ, SERVICE.md / API.md decide: the expected values below are derived from them.
 */
import { REQUEST_ERROR_STATUS } from '@ppfile/contract';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  createReferenceLists,
  filingDeadline,
  generateFile,
  hasValidNirKey,
  nirKey,
  RequestError,
  validateCsv,
  validateDeclarations,
  type DeclarationValidationResponse,
  type Issue,
  type ReferenceListName,
  type ReferenceLists,
} from '@ppfile/rules';
import {
  FORMACODES,
  holder,
  NSF_CODES,
  RS_CODES,
  ROME_CODES,
  validBody,
} from '@ppfile/rules/testing/fixtures';

const PEERS = path.resolve(__dirname, '../../../test/fixtures/peer-vectors');
const TODAY = 20261122;

function peerFile(...parts: string[]): string {
  const file = path.join(PEERS, ...parts);
  if (!existsSync(file))
    throw new Error(`peer fixture not found: ${file} (see test/fixtures/peer-vectors/README.md)`);
  return file;
}

// Bodies are plain JSON edited in place by the vectors below: typing each path would add nothing.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = Record<string, any>;

interface Family {
  nom: string;
  certifiante: boolean;
  nsf: string[];
  formacode: string[];
  rome: string[];
  rs: string[];
  fiabilite: string;
}
const previboutique = JSON.parse(
  readFileSync(peerFile('previboutique-admin', 'families-sample.json'), 'utf8'),
) as {
  familles: Family[];
  reference_examples: Record<string, Record<string, string>>;
};
const echea = JSON.parse(readFileSync(peerFile('echea', 'unit-vectors.json'), 'utf8')) as Json;

/** Complete lists holding the fixtures' codes, every code of the families, and the NSF groups used below. */
function peerReferences(): ReferenceLists {
  const fam = previboutique.familles;
  const ex = previboutique.reference_examples;
  const codes: Record<ReferenceListName, Set<string>> = {
    rome: new Set([...ROME_CODES, ...fam.flatMap((f) => f.rome), ...Object.keys(ex.rome_competence!)]),
    formacode: new Set([...FORMACODES, ...fam.flatMap((f) => f.formacode), ...Object.keys(ex.formacode!)]),
    nsf: new Set([...NSF_CODES, ...fam.flatMap((f) => f.nsf), ...Object.keys(ex.nsf!), '331', '200']),
    rs: new Set([...RS_CODES, ...fam.flatMap((f) => f.rs), ...Object.keys(ex.rs!)]),
  };
  // The NSF list holds the three-digit groups (décret 94-522) of the letter codes it lists.
  for (const code of [...codes.nsf]) codes.nsf.add(code.slice(0, 3));
  const list = (name: ReferenceListName) => ({
    source: 'peer vectors',
    version: 'test',
    complete: true,
    entries: [...codes[name]].map((c) => [c, ''] as const),
  });
  return createReferenceLists({
    rome: list('rome'),
    formacode: list('formacode'),
    nsf: list('nsf'),
    rs: list('rs'),
  });
}
const refs = peerReferences();

/** Issues without their message, for exact comparison. */
const bare = (issues: Issue[]) =>
  issues.map(({ row, column, field, code }) =>
    field === undefined ? { row, column, code } : { row, column, field, code },
  );

function thrownBy(fn: () => unknown): RequestError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RequestError) return e;
    throw e;
  }
  throw new Error('expected a RequestError');
}

/** A valid one-holder adf body of a training organization (fixtures), changed by `edit`. */
function ofBody(edit: (decl: Json, h: Json) => void): Json {
  const body = validBody('adf', 'training_organization', 1) as Json;
  edit(body.declarations[0], body.declarations[0].holders[0]);
  return body;
}
const check = (body: Json, today = TODAY): DeclarationValidationResponse =>
  validateDeclarations(body, { refs, today });

/** The cells of data line `line` (2 = first holder) of a generated file, by column name. */
function generatedRow(body: Json, line = 2, today = TODAY): Record<string, string> {
  const lines = generateFile(body, { refs, today }).content.toString('utf8').split('\r\n');
  const names = lines[0]!.split('|');
  const cells = lines[line - 1]!.split('|');
  return Object.fromEntries(names.map((n, i) => [n, cells[i]!]));
}

// ---- (a) CertPilot: an employer ADF file as that project emits it ------------------------------------

describe('CertPilot negative-employer-adf-as-generated.csv, validated as adf / employer', () => {
  const file = readFileSync(peerFile('certpilot', 'negative-employer-adf-as-generated.csv'));
  const validate = (today: number) =>
    validateCsv(
      file,
      { type: 'adf', declarant: 'employer', filename: 'negative-employer-adf-as-generated.csv' },
      { refs, today },
    );

  it('reports the ROME job codes of line 2 as malformed ROME competence codes, and LF line endings', () => {
    // API.md §3b: for an EMPLOYER file PRESENCE_EMPLOYEUR and SIRET_EMPLOYEUR must be empty (they are)
    // and REFERENCE_EMPLOYEUR is optional (so the batch reference is not an error, whatever the peer's
    // note says); FORMATION_CERTIFIANTE and MODALITE_DISPENSE are optional for an employer.
    // API.md §3c: H1302, K1705, I1502 are not 6 digits → INVALID_ROME_CODE whatever the options, once per code.
    // today = 2026-09-27, the peer's day: line 2's training ended 03/03/2026, deadline 30/09/2026 not passed.
    const result = validate(20260927);
    expect(bare(result.errors)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
    ]);
    for (const e of result.errors)
      expect(e.message).toBe('COMPETENCE_TRANSFERABLE: a code is malformed for the ROME list (6 digits).');
    expect(bare(result.warnings)).toEqual([{ row: null, column: null, code: 'LF_LINE_ENDINGS' }]);
    expect(result).toMatchObject({
      valid: false,
      file_rejected: false,
      error_count: 3,
      truncated: false,
      warning_count: 1,
      rows_total: 2,
      rows_valid: 1,
      rows_invalid: 1,
      summary: { by_code: { INVALID_ROME_CODE: 3 }, by_column: { COMPETENCE_TRANSFERABLE: 3 } },
    });
  });

  it("no filing deadline on 22/11/2026: an employer's line 2 (ended 03/03/2026, before the employers' obligation) has none, line 3 (ended June 2026) has 31/03/2027", () => {
    const result = validate(TODAY);
    expect(result.error_count).toBe(3);
    expect(bare(result.warnings)).toEqual([{ row: null, column: null, code: 'LF_LINE_ENDINGS' }]);
    expect(bare(validate(20270331).warnings)).toEqual([{ row: null, column: null, code: 'LF_LINE_ENDINGS' }]);
    // Listed in file order, the whole-file warning (row null) first.
    const late = validate(20270401);
    expect(bare(late.warnings)).toEqual([
      { row: null, column: null, code: 'LF_LINE_ENDINGS' },
      { row: 3, column: 'DATE_FIN_FORMATION', code: 'FILING_DEADLINE_PASSED' },
    ]);
    expect(late.warnings[1]!.details).toEqual({ deadline: '31/03/2027' });
    expect(late.warnings[1]!.message).toBe(
      'The legal filing deadline of this declaration (31/03/2027) has passed.',
    );
  });

  it('the same rows with CRLF and 6-digit competence codes validate', () => {
    const fixed = file
      .toString('utf8')
      .replace('H1302/K1705/I1502', '115650/121885/400635')
      .replace(/\n/g, '\r\n');
    const result = validateCsv(
      Buffer.from(fixed, 'utf8'),
      { type: 'adf', declarant: 'employer', filename: 'fixed.csv' },
      { refs, today: 20260927 },
    );
    expect(result).toMatchObject({
      valid: true,
      error_count: 0,
      warning_count: 0,
      rows_total: 2,
      rows_valid: 2,
    });
  });
});

// ---- (b) Échéa unit vectors ---------------------------------------------------------------------------

describe('Échéa unit-vectors.json', () => {
  describe('nir_key', () => {
    it.each(echea.nir_key as { nir13: string; key: string }[])('$nir13 → key $key', ({ nir13, key }) => {
      expect(nirKey(nir13)).toBe(key);
      expect(hasValidNirKey(nir13 + key)).toBe(true);
      const wrong = String((Number(key) % 97) + 1).padStart(2, '0');
      expect(hasValidNirKey(nir13 + wrong)).toBe(false);
    });
  });

  describe('nir_check through a JSON body (holders[0].nir)', () => {
    const FIELD = 'declarations[0].holders[0].nir';
    const withNir = (nir: unknown) => ofBody((_, h) => (h.nir = nir));

    it.each([
      ['2 55 08 14 168 025 38', '2550814168025', ['SEPARATORS_REMOVED', 'NIR_KEY_REMOVED']],
      ['1.85.05.78.006.084-91', '1850578006084', ['SEPARATORS_REMOVED', 'NIR_KEY_REMOVED']],
      ['1 80 12 2B 012 345 75', '180122B012345', ['SEPARATORS_REMOVED', 'NIR_KEY_REMOVED']],
      ['2550814168025', '2550814168025', []],
    ])('%j is written %s (separators and the right key removed)', (input, expected, rules) => {
      const body = withNir(input);
      const result = check(body);
      expect(result.errors).toEqual([]);
      expect(result.warnings).toEqual([]);
      expect(result.normalizations.filter((n) => n.field === FIELD).map((n) => n.rule)).toEqual(rules);
      expect(generatedRow(body).NIR).toBe(expected);
    });

    it.each([
      ['255081416802539', 'INVALID_NIR_KEY'], // 15 characters, wrong key
      ['25508141680', 'INVALID_NIR'], // 11 characters
      ['9550814168025', 'INVALID_NIR'], // first digit 9
      ['', 'REQUIRED_FIELD'], // missing
    ])('%j → %s on NIR', (input, code) => {
      const result = check(withNir(input));
      expect(bare(result.errors)).toEqual([{ row: 2, column: 'NIR', field: FIELD, code }]);
      expect(result.valid).toBe(false);
    });

    it('7… is a provisional NIR: valid, with the warning NIR_PROVISIONAL', () => {
      const result = check(withNir('7550814168025'));
      expect(result.valid).toBe(true);
      expect(bare(result.warnings)).toEqual([
        { row: 2, column: 'NIR', field: FIELD, code: 'NIR_PROVISIONAL' },
      ]);
    });

    it.each([255081416802538, 2550814168025])(
      'a NIR given as a JSON number (%d, a spreadsheet cell) is a structure error',
      (n) => {
        const error = thrownBy(() => check(withNir(n)));
        expect(error.code).toBe('INVALID_REQUEST');
        expect(REQUEST_ERROR_STATUS[error.code]).toBe(400);
        expect(error.details).toEqual({
          fields: [{ field: FIELD, message: 'must be a string' }],
          field_count: 1,
        });
      },
    );
  });

  describe('siret_check through a JSON body (holders[0].employer_siret of a training organization)', () => {
    const FIELD = 'declarations[0].holders[0].employer_siret';
    const withSiret = (siret: unknown) => ofBody((_, h) => (h.employer_siret = siret));

    it.each([
      ['200 056 679 00018', '20005667900018'],
      ['44123456700010', '44123456700010'],
      // La Poste (SIREN 356000000): digit sum a multiple of 5, although the Luhn check fails.
      ['35600000000010', '35600000000010'],
    ])('%j → %s', (input, expected) => {
      const body = withSiret(input);
      expect(check(body).errors).toEqual([]);
      const row = generatedRow(body);
      expect(row.SIRET_EMPLOYEUR).toBe(expected);
      expect(row.PRESENCE_EMPLOYEUR).toBe('OUI');
    });

    it.each([
      ['20005667900019', 'INVALID_SIRET_KEY'], // Luhn fails
      ['35600000000011', 'INVALID_SIRET_KEY'], // La Poste, neither rule holds
      ['2000566790001', 'INVALID_SIRET'], // 13 digits
    ])('%j → %s', (input, code) => {
      expect(bare(check(withSiret(input)).errors)).toEqual([
        { row: 2, column: 'SIRET_EMPLOYEUR', field: FIELD, code },
      ]);
    });

    it('a SIRET given as a JSON number is a structure error', () => {
      const error = thrownBy(() => check(withSiret(44123456700010)));
      expect(error.code).toBe('INVALID_REQUEST');
      expect(error.details).toEqual({
        fields: [{ field: FIELD, message: 'must be a string' }],
        field_count: 1,
      });
    });
  });

  describe('date_parse: JSON accepts YYYY-MM-DD and dd/mm/yyyy only', () => {
    it.each([
      ['25/07/2025', '25/07/2025'],
      ['2025-07-25', '25/07/2025'],
    ])('training.start_date %j is written %s', (input, expected) => {
      const body = ofBody((d) => (d.training.start_date = input));
      expect(check(body).errors).toEqual([]);
      expect(generatedRow(body).DATE_DEBUT_FORMATION).toBe(expected);
    });

    it.each(['5/7/25', '25.07.2025', '12 mars 2026', '1er août 2026', '31/02/2026', 'bientôt'])(
      '%j → INVALID_DATE',
      (input) => {
        const result = check(ofBody((_, h) => (h.validity_end = input)));
        expect(bare(result.errors)).toEqual([
          {
            row: 2,
            column: 'DATE_FIN_VALIDITE',
            field: 'declarations[0].holders[0].validity_end',
            code: 'INVALID_DATE',
          },
        ]);
      },
    );
  });

  describe('codes', () => {
    it('COMPETENCE_TRANSFERABLE 115650/121885/400635 (guide example) → no error', () => {
      const body = ofBody((d) => (d.transferable_skills = ['115650', '121885', '400635']));
      expect(check(body).errors).toEqual([]);
      expect(generatedRow(body).COMPETENCE_TRANSFERABLE).toBe('115650/121885/400635');
    });

    it('2 ROME codes for a training organization → VALUE_COUNT (3 to 10)', () => {
      const result = check(ofBody((d) => (d.transferable_skills = ['115650', '121885'])));
      expect(bare(result.errors)).toEqual([
        {
          row: 2,
          column: 'COMPETENCE_TRANSFERABLE',
          field: 'declarations[0].transferable_skills',
          code: 'VALUE_COUNT',
        },
      ]);
      expect(result.errors[0]!.message).toBe(
        'COMPETENCE_TRANSFERABLE holds 2 values; between 3 and 10 are expected.',
      );
    });

    it('"115650, 121885 ; 400635" in one element is not normalized (SERVICE.md §2.6): one malformed code, too few codes', () => {
      const result = check(ofBody((d) => (d.transferable_skills = ['115650, 121885 ; 400635'])));
      expect(bare(result.errors)).toEqual([
        {
          row: 2,
          column: 'COMPETENCE_TRANSFERABLE',
          field: 'declarations[0].transferable_skills',
          code: 'VALUE_COUNT',
        },
        {
          row: 2,
          column: 'COMPETENCE_TRANSFERABLE',
          field: 'declarations[0].transferable_skills[0]',
          code: 'INVALID_ROME_CODE',
        },
      ]);
    });

    // Regression guard for a bug this suite found: an array element holding "/" was split as if it were
    // several elements (no error for "115650/121885", and the error on "ABC" pointed at
    // transferable_skills[2], a path absent from the request). API.md §3c: a ROME code is 6 digits, so
    // the element is one malformed code; API.md §4: `field` is the request's own JSON path.
    it('an element holding "/" is one malformed code, and errors point at the request\'s own elements', () => {
      const result = check(ofBody((d) => (d.transferable_skills = ['115650/121885', 'ABC', '400635'])));
      expect(bare(result.errors)).toEqual([
        {
          row: 2,
          column: 'COMPETENCE_TRANSFERABLE',
          field: 'declarations[0].transferable_skills[0]',
          code: 'INVALID_ROME_CODE',
        },
        {
          row: 2,
          column: 'COMPETENCE_TRANSFERABLE',
          field: 'declarations[0].transferable_skills[1]',
          code: 'INVALID_ROME_CODE',
        },
      ]);
    });

    it('DOMAINE_FORMATION 42829/42817 → no error; 4282 → INVALID_FORMACODE (5 digits)', () => {
      expect(check(ofBody((d) => (d.training.formacodes = ['42829', '42817']))).errors).toEqual([]);
      const result = check(ofBody((d) => (d.training.formacodes = ['4282'])));
      expect(bare(result.errors)).toEqual([
        {
          row: 2,
          column: 'DOMAINE_FORMATION',
          field: 'declarations[0].training.formacodes[0]',
          code: 'INVALID_FORMACODE',
        },
      ]);
      expect(result.errors[0]!.message).toBe(
        'DOMAINE_FORMATION: a code is malformed for the Formacode list (5 digits).',
      );
    });

    it('SPECIALITE_FORMATION 344R/344p → 344r/344p (CODE_NORMALIZED on the first element only)', () => {
      const body = ofBody((d) => (d.training.nsf_codes = ['344R', '344p']));
      const result = check(body);
      expect(result.errors).toEqual([]);
      expect(result.normalizations.filter((n) => n.column === 'SPECIALITE_FORMATION')).toEqual([
        {
          field: 'declarations[0].training.nsf_codes[0]',
          column: 'SPECIALITE_FORMATION',
          rule: 'CODE_NORMALIZED',
        },
      ]);
      expect(generatedRow(body).SPECIALITE_FORMATION).toBe('344r/344p');
    });

    it('4 NSF codes (344r/344p/331/200) → VALUE_COUNT (at most 3)', () => {
      const result = check(ofBody((d) => (d.training.nsf_codes = ['344r', '344p', '331', '200'])));
      expect(bare(result.errors)).toEqual([
        {
          row: 2,
          column: 'SPECIALITE_FORMATION',
          field: 'declarations[0].training.nsf_codes',
          code: 'VALUE_COUNT',
        },
      ]);
      expect(result.errors[0]!.message).toBe(
        'SPECIALITE_FORMATION holds 4 values; between 1 and 3 are expected.',
      );
    });

    const certifying = (code: string) =>
      ofBody((d) => {
        d.training.certifying = true;
        d.training.certification_code = code;
        delete d.training.formacodes;
        delete d.training.nsf_codes;
      });

    it('CERTIFICATION_VISEE "rs 6550" → RS6550 (CODE_NORMALIZED)', () => {
      const body = certifying('rs 6550');
      const result = check(body);
      expect(result.errors).toEqual([]);
      expect(result.normalizations).toContainEqual({
        field: 'declarations[0].training.certification_code',
        column: 'CERTIFICATION_VISEE',
        rule: 'CODE_NORMALIZED',
      });
      expect(generatedRow(body).CERTIFICATION_VISEE).toBe('RS6550');
    });

    it('CERTIFICATION_VISEE "6550" → INVALID_RS_CODE (the RS prefix is part of the format), whatever strict_references says', () => {
      for (const strict of [true, false]) {
        const body = { ...certifying('6550'), options: { strict_references: strict } };
        expect(bare(check(body).errors)).toEqual([
          {
            row: 2,
            column: 'CERTIFICATION_VISEE',
            field: 'declarations[0].training.certification_code',
            code: 'INVALID_RS_CODE',
          },
        ]);
      }
    });
  });

  // The peer's vectors are the training organizations' timetable (its obligation starts on
  // 01/09/2025); API.md §4 gives employers their own (libs/rules filing-deadline.spec.ts).
  describe('declaration_deadline_by_end_date (training organizations)', () => {
    const vectors = echea.declaration_deadline_by_end_date as { end: string; deadline: string | null }[];
    const day = (iso: string) => Number(iso.replace(/-/g, ''));
    const nextDay = (d: number) => {
      const t = new Date(Date.UTC(Math.floor(d / 10000), (Math.floor(d / 100) % 100) - 1, (d % 100) + 1));
      return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
    };
    const fr = (d: number) =>
      `${String(d % 100).padStart(2, '0')}/${String(Math.floor(d / 100) % 100).padStart(2, '0')}/${Math.floor(d / 10000)}`;

    it.each(vectors)('training ended $end → deadline $deadline', ({ end, deadline }) => {
      expect(filingDeadline('training_organization', day(end))).toBe(
        deadline === null ? null : day(deadline),
      );
    });

    const adf = (end: string) =>
      ofBody((d, h) => {
        d.training.start_date = end;
        d.training.end_date = end;
        h.validity_start = end;
        delete h.validity_end;
      });
    const jdr = (start: string) => {
      const body = validBody('jdr', 'training_organization', 1) as Json;
      delete body.declarations[0].training;
      body.declarations[0].holders[0].validity_start = start;
      delete body.declarations[0].holders[0].validity_end;
      return body;
    };

    it.each(vectors.filter((v) => v.deadline !== null))(
      'FILING_DEADLINE_PASSED from the day after $deadline (adf: training end $end; jdr: validity start $end)',
      ({ end, deadline }) => {
        const limit = day(deadline!);
        expect(check(adf(end), limit).warnings).toEqual([]);
        expect(check(jdr(end), limit).warnings).toEqual([]);
        const late = check(adf(end), nextDay(limit));
        expect(late.valid).toBe(true);
        expect(bare(late.warnings)).toEqual([
          {
            row: 2,
            column: 'DATE_FIN_FORMATION',
            field: 'declarations[0].training.end_date',
            code: 'FILING_DEADLINE_PASSED',
          },
        ]);
        expect(late.warnings[0]!.message).toBe(
          `The legal filing deadline of this declaration (${fr(limit)}) has passed.`,
        );
        expect(late.warnings[0]!.details).toEqual({ deadline: fr(limit) });
        const lateJdr = check(jdr(end), nextDay(limit));
        expect(lateJdr.warnings[0]?.details).toEqual({ deadline: fr(limit) });
        expect(bare(lateJdr.warnings)).toEqual([
          {
            row: 2,
            column: 'DATE_DEBUT_VALIDITE',
            field: 'declarations[0].holders[0].validity_start',
            code: 'FILING_DEADLINE_PASSED',
          },
        ]);
      },
    );

    it('a training ended before 01/09/2025 has no filing deadline: no warning', () => {
      expect(check(adf('2025-06-01')).warnings).toEqual([]);
      expect(check(jdr('2025-06-01')).warnings).toEqual([]);
    });
  });

  describe('split_500', () => {
    const { trainees_same_session: count, expect_declaration_sizes: sizes } = echea.split_500 as {
      trainees_same_session: number;
      expect_declaration_sizes: number[];
    };
    /** `n` holders with distinct unique ids and NIRs (order numbers never 000). */
    const bigBody = (n: number, split: boolean): Json => {
      const body = validBody('adf', 'employer', 1) as Json;
      body.declarations[0].holders = Array.from({ length: n }, (_, i) =>
        holder(i, {
          nir: `18505780${String(Math.floor(i / 999)).padStart(2, '0')}${String((i % 999) + 1).padStart(3, '0')}`,
        }),
      );
      if (split) body.options = { split_large_declarations: true };
      return body;
    };

    it(`${count} holders with split_large_declarations → parts of ${sizes.join('/')}, ids ending _P1/_P2/_P3`, () => {
      const file = generateFile(bigBody(count, true), { refs, today: TODAY });
      expect(file.rows).toBe(count);
      expect(file.declarations).toBe(3);
      const ids = file.content
        .toString('utf8')
        .split('\r\n')
        .slice(1, -1)
        .map((l) => l.split('|')[0]!);
      expect(ids).toHaveLength(count);
      const parts = new Map<string, number>();
      for (const id of ids) parts.set(id, (parts.get(id) ?? 0) + 1);
      expect([...parts.entries()]).toEqual([
        ['SST-2026-09_P1', sizes[0]],
        ['SST-2026-09_P2', sizes[1]],
        ['SST-2026-09_P3', sizes[2]],
      ]);
      expect(file.normalizations.filter((n) => n.rule === 'DECLARATION_SPLIT')).toEqual([
        { field: 'declarations[0].id', column: 'ID_DECLARATION', rule: 'DECLARATION_SPLIT' },
      ]);
      const again = validateCsv(
        file.content,
        { type: 'adf', declarant: 'employer', filename: file.filename },
        { refs, today: TODAY },
      );
      expect(again).toMatchObject({ valid: true, error_count: 0, rows_total: count });
    });

    it(`${count} holders without the option → DECLARATION_TOO_LARGE once, on the declaration's first row; every row invalid`, () => {
      const result = check(bigBody(count, false));
      expect(bare(result.errors)).toEqual([
        { row: 2, column: 'ID_DECLARATION', field: 'declarations[0].holders', code: 'DECLARATION_TOO_LARGE' },
      ]);
      expect(result.errors[0]!.message).toBe(
        `This declaration has ${count} holders; at most 500 are allowed (option split_large_declarations).`,
      );
      expect(result).toMatchObject({ rows_total: count, rows_valid: 0, rows_invalid: count });
    });

    it('500 holders are one declaration, split or not; 501 with the option → 500 + 1', () => {
      expect(check(bigBody(500, false)).valid).toBe(true);
      const unsplit = generateFile(bigBody(500, true), { refs, today: TODAY });
      expect(unsplit.declarations).toBe(1);
      expect(unsplit.normalizations.filter((n) => n.rule === 'DECLARATION_SPLIT')).toEqual([]);
      const split = generateFile(bigBody(501, true), { refs, today: TODAY });
      expect(split.declarations).toBe(2);
      const last = split.content
        .toString('utf8')
        .split('\r\n')
        .slice(-3, -1)
        .map((l) => l.split('|')[0]);
      expect(last).toEqual(['SST-2026-09_P1', 'SST-2026-09_P2']);
    });
  });

  describe('file_name', () => {
    const csv = generateFile(validBody('adf', 'training_organization', 1), { refs, today: TODAY }).content;
    const [vector] = echea.file_name as { org: string; expect: string }[];

    it("the peer's sanitized file name is accepted", () => {
      expect(
        validateCsv(
          csv,
          { type: 'adf', declarant: 'training_organization', filename: vector!.expect },
          { refs, today: TODAY },
        ).valid,
      ).toBe(true);
    });

    it('the raw organization name (":" and quotes) makes the portal refuse the file: INVALID_FILENAME', () => {
      const result = validateCsv(
        csv,
        { type: 'adf', declarant: 'training_organization', filename: `${vector!.org}.csv` },
        { refs, today: TODAY },
      );
      expect(result).toMatchObject({ valid: false, file_rejected: true, error_count: 1, rows_total: 0 });
      expect(bare(result.errors)).toEqual([{ row: null, column: null, code: 'INVALID_FILENAME' }]);
    });
  });
});

// ---- (c) previboutique-admin families -------------------------------------------------------------------

describe('previboutique-admin families-sample.json as training-organization adf declarations', () => {
  const declarable = previboutique.familles.filter((f) => f.fiabilite !== 'hors_perimetre');

  const familyBody = (f: Family, certifying = f.certifiante): Json =>
    ofBody((d) => {
      d.id = 'FAM-2026-10';
      d.reference = `Famille ${f.nom}`;
      d.transferable_skills = f.rome;
      d.training = { name: f.nom, start_date: '2026-10-05', end_date: '2026-10-06', certifying };
      if (certifying) d.training.certification_code = f.rs[0];
      else {
        d.training.formacodes = f.formacode;
        d.training.nsf_codes = f.nsf;
      }
      for (const h of d.holders) h.validity_start = '2026-10-06';
    });

  it('the sample has the families the vectors are about', () => {
    expect(declarable).toHaveLength(7);
    expect(declarable.filter((f) => f.certifiante).map((f) => f.nom)).toEqual([
      'CACES R.489 Chariots de manutention automoteurs a conducteur porte',
      'Amiante SS3 et SS4',
    ]);
  });

  it.each(declarable.map((f) => [f.nom, f] as const))(
    '%s validates, within the counts and lengths',
    (_, f) => {
      const body = familyBody(f);
      const result = check(body);
      expect(result.errors).toEqual([]);
      expect(result.valid).toBe(true);
      const row = generatedRow(body);
      expect(row.COMPETENCE_TRANSFERABLE).toBe(f.rome.join('/'));
      expect(row.COMPETENCE_TRANSFERABLE!.length).toBeLessThanOrEqual(70);
      expect(row.DOMAINE_FORMATION!.length).toBeLessThanOrEqual(30);
      expect(row.SPECIALITE_FORMATION!.length).toBeLessThanOrEqual(15);
      if (f.certifiante) {
        expect(row).toMatchObject({
          FORMATION_CERTIFIANTE: 'OUI',
          CERTIFICATION_VISEE: f.rs[0],
          DOMAINE_FORMATION: '',
          SPECIALITE_FORMATION: '',
        });
      } else {
        expect(row).toMatchObject({
          FORMATION_CERTIFIANTE: 'NON',
          CERTIFICATION_VISEE: '',
          DOMAINE_FORMATION: f.formacode.join('/'),
          SPECIALITE_FORMATION: f.nsf.join('/'),
        });
      }
    },
  );

  it('a certifying family that also lists its Formacodes and NSF codes → FIELD_NOT_ALLOWED on both columns', () => {
    const f = declarable.find((x) => x.certifiante)!;
    const body = familyBody(f);
    body.declarations[0].training.formacodes = f.formacode;
    body.declarations[0].training.nsf_codes = f.nsf;
    expect(bare(check(body).errors)).toEqual([
      {
        row: 2,
        column: 'DOMAINE_FORMATION',
        field: 'declarations[0].training.formacodes',
        code: 'FIELD_NOT_ALLOWED',
      },
      {
        row: 2,
        column: 'SPECIALITE_FORMATION',
        field: 'declarations[0].training.nsf_codes',
        code: 'FIELD_NOT_ALLOWED',
      },
    ]);
  });

  it('a certifying family declares ONE RS code: two joined in the string are a malformed code', () => {
    const f = declarable.find((x) => x.certifiante)!;
    const body = familyBody(f);
    body.declarations[0].training.certification_code = f.rs.slice(0, 2).join('/');
    expect(bare(check(body).errors)).toEqual([
      {
        row: 2,
        column: 'CERTIFICATION_VISEE',
        field: 'declarations[0].training.certification_code',
        code: 'INVALID_RS_CODE',
      },
    ]);
  });

  it('the out-of-scope family (no codes) cannot be declared by a training organization: REQUIRED_FIELD ×3', () => {
    const f = previboutique.familles.find((x) => x.fiabilite === 'hors_perimetre')!;
    expect(bare(check(familyBody(f)).errors)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills',
        code: 'REQUIRED_FIELD',
      },
      {
        row: 2,
        column: 'DOMAINE_FORMATION',
        field: 'declarations[0].training.formacodes',
        code: 'REQUIRED_FIELD',
      },
      {
        row: 2,
        column: 'SPECIALITE_FORMATION',
        field: 'declarations[0].training.nsf_codes',
        code: 'REQUIRED_FIELD',
      },
    ]);
  });
});
