/** Reference lists and code checks (API.md §3c): format first, then membership by completeness. */
import { createReferenceLists, type ReferenceListName, type ReferenceLists } from './references';
import { FORMACODES, NSF_CODES, ROME_CODES, RS_CODES, testReferences } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  csvFile,
  decl,
  generatedRows,
  located,
  training,
  withCells,
  type Json,
  type Located,
} from './testing/format-helpers';

/** Every list complete, NSF included (the fixtures always keep NSF partial), with each NSF group listed. */
function allComplete(): ReferenceLists {
  const list = (codes: string[]) => ({
    source: 't',
    version: 't',
    complete: true,
    entries: codes.map((c) => [c, ''] as const),
  });
  const nsf = [...new Set([...NSF_CODES, ...NSF_CODES.map((c) => c.slice(0, 3))])];
  return createReferenceLists({
    rome: list(ROME_CODES),
    formacode: list(FORMACODES),
    nsf: list(nsf),
    rs: list(RS_CODES),
  });
}
const allPartial = (): ReferenceLists => testReferences({ complete: false });

interface ListCase {
  list: ReferenceListName;
  code: Located['code'];
  column: string;
  /** Puts `value` in the body (as element 1 of a multi-valued field) and returns the field path. */
  put: (b: Json, value: string) => string;
  malformed: string[];
  absent: string;
}

const T0 = 'declarations[0].training';
const LISTS: ListCase[] = [
  {
    list: 'rome',
    code: 'INVALID_ROME_CODE',
    column: 'COMPETENCE_TRANSFERABLE',
    put: (b, v) => {
      (decl(b).transferable_skills as string[])[1] = v;
      return 'declarations[0].transferable_skills[1]';
    },
    malformed: ['11565', '1156500', 'ABCDEF', 'M1805'],
    absent: '999999',
  },
  {
    list: 'formacode',
    code: 'INVALID_FORMACODE',
    column: 'DOMAINE_FORMATION',
    put: (b, v) => {
      (training(b).formacodes as string[])[1] = v;
      return `${T0}.formacodes[1]`;
    },
    malformed: ['4281', '428170', 'A2817'],
    absent: '99999',
  },
  {
    list: 'nsf',
    code: 'INVALID_NSF_CODE',
    column: 'SPECIALITE_FORMATION',
    put: (b, v) => {
      (training(b).nsf_codes as string[])[1] = v;
      return `${T0}.nsf_codes[1]`;
    },
    // 999: the format is right but the three-digit group does not exist.
    malformed: ['34', '3444', '344rr', 'r344', '999'],
    absent: '344z',
  },
  {
    list: 'rs',
    code: 'INVALID_RS_CODE',
    column: 'CERTIFICATION_VISEE',
    put: (b, v) => {
      Object.assign(training(b), { certifying: true, certification_code: v });
      delete training(b).formacodes;
      delete training(b).nsf_codes;
      return `${T0}.certification_code`;
    },
    malformed: ['RS', '6550', 'RX6550', 'RS12345678', 'RS65a0'],
    absent: 'RS9999',
  },
];

describe.each(LISTS)('$list codes', ({ code, column, put, malformed, absent }) => {
  const run = (value: string, refs: ReferenceLists, strict: boolean) => {
    const b = body('adf', 'training_organization');
    const field = put(b, value);
    b.options = { strict_references: strict };
    return { r: check(b, { refs }), field };
  };

  it.each(malformed)('malformed %j → error whatever the options and the list', (value) => {
    for (const refs of [allComplete(), allPartial()]) {
      for (const strict of [true, false]) {
        const { r, field } = run(value, refs, strict);
        expect(located(r.errors)).toEqual([{ row: 2, column, field, code }]);
        expect(r.errors[0]!.message).toMatch(/a code is malformed/);
        expect(r.warnings).toEqual([]);
        expect(r.rows_invalid).toBe(2);
      }
    }
  });

  it('absent from a complete list → error', () => {
    const { r, field } = run(absent, allComplete(), true);
    expect(located(r.errors)).toEqual([{ row: 2, column, field, code }]);
    expect(r.errors[0]!.message).toMatch(/a code is absent from the .* reference list/);
    expect(r.valid).toBe(false);
  });

  it('absent from a complete list with strict_references false → warning', () => {
    const { r, field } = run(absent, allComplete(), false);
    expect(r.errors).toEqual([]);
    expect(located(r.warnings)).toEqual([{ row: 2, column, field, code }]);
    expect(r.valid).toBe(true);
  });

  it.each([true, false])(
    'absent from a partial list → REFERENCE_NOT_VERIFIED warning (strict %s)',
    (strict) => {
      const { r, field } = run(absent, allPartial(), strict);
      expect(r.errors).toEqual([]);
      expect(located(r.warnings)).toEqual([{ row: 2, column, field, code: 'REFERENCE_NOT_VERIFIED' }]);
      expect(r.valid).toBe(true);
    },
  );

  it('present → nothing', () => {
    const b = body('adf', 'training_organization');
    const present = { rome: '496733', formacode: '42866', nsf: '230r', rs: 'RS5635' }[
      LISTS.find((l) => l.code === code)!.list
    ];
    put(b, present);
    expect(check(b, { refs: allComplete() })).toMatchObject({ valid: true, warnings: [], errors: [] });
  });
});

describe('REFERENCE_NOT_VERIFIED: once per distinct code and list, on the first row where it appears', () => {
  it('across declarations and within one value', () => {
    const b = body('adf', 'training_organization', 2);
    const second = structuredClone(decl(b));
    second.id = 'SST-2026-10';
    (second.holders as Json[]).forEach((h, i) => (h.unique_id = `SST-2026-10-E${i}`));
    (b.declarations as Json[]).push(second);
    decl(b, 0).transferable_skills = ['999999', '115650', '999999'];
    decl(b, 1).transferable_skills = ['999999', '999998', '115650'];
    training(b, 1).nsf_codes = ['344z', '344y'];
    training(b, 0).nsf_codes = ['344z'];
    const r = check(b, { refs: allPartial() });
    expect(r.valid).toBe(true);
    expect(located(r.warnings)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills[0]',
        code: 'REFERENCE_NOT_VERIFIED',
      },
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes[0]`, code: 'REFERENCE_NOT_VERIFIED' },
      {
        row: 4,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[1].transferable_skills[1]',
        code: 'REFERENCE_NOT_VERIFIED',
      },
      {
        row: 4,
        column: 'SPECIALITE_FORMATION',
        field: 'declarations[1].training.nsf_codes[1]',
        code: 'REFERENCE_NOT_VERIFIED',
      },
    ]);
    expect(r.warning_count).toBe(4);
  });

  it('names the list in the message', () => {
    const b = body('adf', 'employer');
    training(b).nsf_codes = ['344z'];
    const message = check(b).warnings[0]!.message;
    expect(message).toMatch(/^SPECIALITE_FORMATION: /);
    expect(message).toMatch(/\bNSF\b/);
    expect(message).toMatch(/partial/);
  });

  it('the fixtures keep NSF partial even when the others are complete', () => {
    const b = body('adf', 'employer');
    training(b).nsf_codes = ['344z'];
    training(b).formacodes = ['99999'];
    const r = check(b, { refs: testReferences({ complete: true }) });
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[0]`, code: 'INVALID_FORMACODE' },
    ]);
    expect(located(r.warnings)).toEqual([
      { row: 2, column: 'SPECIALITE_FORMATION', field: `${T0}.nsf_codes[0]`, code: 'REFERENCE_NOT_VERIFIED' },
    ]);
  });

  it('each wrong element of a multi-valued field is its own entry', () => {
    const b = body('adf', 'employer');
    training(b).formacodes = ['99999', '42829', '99998', '4282'];
    expect(located(check(b, { refs: allComplete() }).errors)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[0]`, code: 'INVALID_FORMACODE' },
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[2]`, code: 'INVALID_FORMACODE' },
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[3]`, code: 'INVALID_FORMACODE' },
    ]);
  });
});

describe('a JSON element holding "/"', () => {
  it('is one malformed code on its own path, and later elements keep their index', () => {
    const b = body('adf', 'training_organization');
    decl(b).transferable_skills = ['115650/121885', 'ABC', '400635'];
    const r = check(b);
    expect(located(r.errors)).toEqual([
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
    expect(r.errors[0]!.message).toMatch(/malformed/);
  });

  it('is not counted as several values', () => {
    const b = body('adf', 'employer');
    training(b).formacodes = ['42829/42817/42866/42875/42819/42829'];
    expect(located(check(b).errors)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', field: `${T0}.formacodes[0]`, code: 'INVALID_FORMACODE' },
    ]);
  });

  it('in a single-valued code is malformed too', () => {
    const b = body('adf', 'employer');
    Object.assign(training(b), { certifying: true, certification_code: 'RS6550/RS5635' });
    delete training(b).formacodes;
    delete training(b).nsf_codes;
    expect(located(check(b).errors)).toEqual([
      { row: 2, column: 'CERTIFICATION_VISEE', field: `${T0}.certification_code`, code: 'INVALID_RS_CODE' },
    ]);
  });
});

describe('in an uploaded CSV', () => {
  const file = (cells: Record<string, string>) =>
    csvFile(
      'adf',
      generatedRows(body('adf', 'training_organization')).map((row) => withCells('adf', row, cells)),
    );

  it('complete list: error, or warning with the strict_references form field false', () => {
    const f = file({ DOMAINE_FORMATION: '42829/99999' });
    const strict = checkCsv(f, 'adf', 'training_organization', { refs: allComplete() });
    expect(located(strict.errors)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', code: 'INVALID_FORMACODE' },
    ]);
    expect(strict.rows_invalid).toBe(2);
    const loose = checkCsv(f, 'adf', 'training_organization', {
      refs: allComplete(),
      strict_references: false,
    });
    expect(loose.valid).toBe(true);
    expect(located(loose.warnings)).toEqual([
      { row: 2, column: 'DOMAINE_FORMATION', code: 'INVALID_FORMACODE' },
    ]);
  });

  it('partial list: REFERENCE_NOT_VERIFIED once', () => {
    const r = checkCsv(
      file({ COMPETENCE_TRANSFERABLE: '999999/115650/121885' }),
      'adf',
      'training_organization',
      { refs: allPartial() },
    );
    expect(r.valid).toBe(true);
    expect(located(r.warnings)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'REFERENCE_NOT_VERIFIED' },
    ]);
  });

  it('malformed: error even with strict_references false', () => {
    const r = checkCsv(
      file({ COMPETENCE_TRANSFERABLE: '115650/121885/M1805' }),
      'adf',
      'training_organization',
      {
        refs: allPartial(),
        strict_references: false,
      },
    );
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
    ]);
  });
});

describe('createReferenceLists', () => {
  it('derives the NSF groups', () => {
    for (const group of ['230', '255', '311', '344'])
      expect(testReferences().nsfGroups.has(group)).toBe(true);
    expect(testReferences().nsfGroups.has('999')).toBe(false);
  });
});
