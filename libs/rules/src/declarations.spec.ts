/**
 * Checks across rows: unique ids, consistency and size of a declaration, duplicate holders, the
 * filing deadline, and how declaration-level problems count rows (API.md §4).
 */
import { generateFile } from './api';
import { formatFrDate } from './values/dates';
import type { Declarant } from './format/types';
import { DEADLINE_BOUNDARIES } from './testing/deadline-boundaries';
import { NIR_A, NIR_A_KEY } from './testing/fixtures';
import {
  body,
  check,
  checkCsv,
  colIndex,
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
} from './testing/format-helpers';

const H1 = 'declarations[0].holders[1]';
const T0 = 'declarations[0].training';

/** Appends a copy of declaration 0 with its own id and unique ids. */
function addDeclaration(b: Json, id = 'SST-2026-10', edit: (d: Json) => void = () => {}): Json {
  const copy = structuredClone(decl(b));
  copy.id = id;
  (copy.holders as Json[]).forEach((h, i) => (h.unique_id = `${id}-E${i}`));
  edit(copy);
  (b.declarations as Json[]).push(copy);
  return copy;
}

describe('DUPLICATE_UNIQUE_ID (second and later occurrences)', () => {
  it('in one declaration', () => {
    const b = body('adf', 'employer', 4);
    holderOf(b, 1).unique_id = 'SST-2026-09-E0';
    holderOf(b, 3).unique_id = 'SST-2026-09-E0';
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 3, column: 'ID_UNIQUE_PARTENAIRE', field: `${H1}.unique_id`, code: 'DUPLICATE_UNIQUE_ID' },
      {
        row: 5,
        column: 'ID_UNIQUE_PARTENAIRE',
        field: 'declarations[0].holders[3].unique_id',
        code: 'DUPLICATE_UNIQUE_ID',
      },
    ]);
    expect(r.errors[1]!.message).toBe('ID_UNIQUE_PARTENAIRE is already used on line 2 of this file.');
    expect([r.rows_invalid, r.rows_valid, r.error_count, r.valid]).toEqual([2, 2, 2, false]);
  });

  it('across declarations', () => {
    const b = body('jdr', 'training_organization');
    addDeclaration(b, 'SST-2026-10', (d) => ((d.holders as Json[])[1]!.unique_id = 'SST-2026-09-E1'));
    const r = check(b);
    expect(located(r.errors)).toEqual([
      {
        row: 5,
        column: 'ID_UNIQUE_PARTENAIRE',
        field: 'declarations[1].holders[1].unique_id',
        code: 'DUPLICATE_UNIQUE_ID',
      },
    ]);
    expect(r.rows_invalid).toBe(1);
  });

  it('in a CSV', () => {
    const rows = generatedRows(body('adf', 'employer', 3));
    rows[2] = withCells('adf', rows[2]!, {
      ID_UNIQUE_PARTENAIRE: rows[1]![colIndex('adf', 'ID_UNIQUE_PARTENAIRE')]!,
    });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([
      { row: 4, column: 'ID_UNIQUE_PARTENAIRE', code: 'DUPLICATE_UNIQUE_ID' },
    ]);
    expect(r.errors[0]!.message).toContain('line 3');
  });
});

describe('INCONSISTENT_DECLARATION (each row and column that differs from the first row)', () => {
  it('in a CSV: every row of the declaration counts invalid', () => {
    const rows = generatedRows(body('adf', 'employer', 4));
    rows[1] = withCells('adf', rows[1]!, {
      REFERENCE_DECLARATION: 'Autre',
      NOM_FORMATION: 'Autre formation',
    });
    rows[2] = withCells('adf', rows[2]!, { NOM_FORMATION: 'Autre formation' });
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([
      { row: 3, column: 'REFERENCE_DECLARATION', code: 'INCONSISTENT_DECLARATION' },
      { row: 3, column: 'NOM_FORMATION', code: 'INCONSISTENT_DECLARATION' },
      { row: 4, column: 'NOM_FORMATION', code: 'INCONSISTENT_DECLARATION' },
    ]);
    expect(r.errors[0]!.message).toBe(
      'REFERENCE_DECLARATION differs from line 2, the first line of the same ID_DECLARATION.',
    );
    expect([r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([4, 4, 0]);
  });

  it('in JSON: two declarations with the same id', () => {
    const b = body('adf', 'training_organization');
    addDeclaration(b, 'SST-2026-09', (d) => {
      d.reference = 'Autre référence';
      (d.training as Json).delivery_mode = 'MIXTE';
      (d.holders as Json[]).forEach((h, i) => (h.unique_id = `SST-2026-09-F${i}`));
    });
    const r = check(b);
    expect(located(r.errors)).toEqual([
      {
        row: 4,
        column: 'REFERENCE_DECLARATION',
        field: 'declarations[1].reference',
        code: 'INCONSISTENT_DECLARATION',
      },
      {
        row: 4,
        column: 'MODALITE_DISPENSE',
        field: 'declarations[1].training.delivery_mode',
        code: 'INCONSISTENT_DECLARATION',
      },
      {
        row: 5,
        column: 'REFERENCE_DECLARATION',
        field: 'declarations[1].reference',
        code: 'INCONSISTENT_DECLARATION',
      },
      {
        row: 5,
        column: 'MODALITE_DISPENSE',
        field: 'declarations[1].training.delivery_mode',
        code: 'INCONSISTENT_DECLARATION',
      },
    ]);
    expect([r.rows_total, r.rows_invalid]).toEqual([4, 4]);
  });

  it('two identical JSON declarations with the same id are one declaration of the file', () => {
    const b = body('adf', 'employer');
    addDeclaration(b, 'SST-2026-09', (d) =>
      (d.holders as Json[]).forEach((h, i) => (h.unique_id = `SST-2026-09-F${i}`)),
    );
    holderOf(b, 0, 1).nir = '1850578100001';
    holderOf(b, 1, 1).nir = '1850578100002';
    expect(check(b).valid).toBe(true);
    expect(generateFile(b, testEnv()).declarations).toBe(1);
  });
});

describe('DECLARATION_TOO_LARGE and split_large_declarations', () => {
  it('501 holders: one error on the first row, every row invalid', () => {
    const r = check(body('adf', 'employer', 501));
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'ID_DECLARATION', field: 'declarations[0].holders', code: 'DECLARATION_TOO_LARGE' },
    ]);
    expect(r.errors[0]!.message).toBe(
      'This declaration has 501 holders; at most 500 are allowed (option split_large_declarations).',
    );
    expect([r.error_count, r.rows_total, r.rows_invalid, r.rows_valid, r.valid]).toEqual([
      1,
      501,
      501,
      0,
      false,
    ]);
    expect(r.warnings).toEqual([]);
  });

  it('500 holders are fine', () => {
    expect(check(body('jdr', 'training_organization', 500)).valid).toBe(true);
  });

  it('501 rows of one ID_DECLARATION in a CSV', () => {
    // Generation refuses 501 holders: the rows come from a split file, their suffix taken off.
    const b = body('adf', 'employer', 501);
    b.options = { split_large_declarations: true };
    const id = colIndex('adf', 'ID_DECLARATION');
    const rows = generatedRows(b).map((row) =>
      withCells('adf', row, { ID_DECLARATION: row[id]!.replace(/_P\d$/, '') }),
    );
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([{ row: 2, column: 'ID_DECLARATION', code: 'DECLARATION_TOO_LARGE' }]);
    expect([r.rows_total, r.rows_invalid]).toEqual([501, 501]);
  });

  it('split_large_declarations: 1,201 holders → _P1, _P2, _P3 of 500, 500, 201', () => {
    const b = body('adf', 'training_organization', 1201);
    addDeclaration(b, 'SST-2026-10', (d) => (d.holders = (d.holders as Json[]).slice(0, 2)));
    b.options = { split_large_declarations: true };
    const validation = check(b);
    expect(validation.valid).toBe(true);
    expect(validation.normalizations.filter((n) => n.rule === 'DECLARATION_SPLIT')).toEqual([
      { field: 'declarations[0].id', column: 'ID_DECLARATION', rule: 'DECLARATION_SPLIT' },
    ]);
    const file = generateFile(b, testEnv());
    expect([file.rows, file.declarations]).toEqual([1203, 4]);
    const rows = parseCsv(file.content.toString('utf8')).slice(1);
    const ids = rows.map((row) => row[colIndex('adf', 'ID_DECLARATION')]!);
    const counts: Record<string, number> = {};
    for (const id of ids) counts[id] = (counts[id] ?? 0) + 1;
    expect(counts).toEqual({
      'SST-2026-09_P1': 500,
      'SST-2026-09_P2': 500,
      'SST-2026-09_P3': 201,
      'SST-2026-10': 2,
    });
    // Consecutive parts, in holder order: line 501 ends _P1, line 502 starts _P2.
    expect([ids[499], ids[500], ids[999], ids[1000], ids[1200], ids[1201]]).toEqual([
      'SST-2026-09_P1',
      'SST-2026-09_P2',
      'SST-2026-09_P2',
      'SST-2026-09_P3',
      'SST-2026-09_P3',
      'SST-2026-10',
    ]);
    // The split file is a valid official file.
    expect(checkCsv(file.content, 'adf', 'training_organization').valid).toBe(true);
  });

  it('does not split 500 holders', () => {
    const b = body('adf', 'employer', 500);
    b.options = { split_large_declarations: true };
    const file = generateFile(b, testEnv());
    expect(file.normalizations.filter((n) => n.rule === 'DECLARATION_SPLIT')).toEqual([]);
    expect(file.declarations).toBe(1);
    expect(parseCsv(file.content.toString('utf8'))[500]![0]).toBe('SST-2026-09');
  });
});

describe('DUPLICATE_HOLDER (warning: same NIR twice in one declaration)', () => {
  it('on the second occurrence', () => {
    const b = body('adf', 'employer', 3);
    holderOf(b, 2).nir = `${NIR_A}${NIR_A_KEY}`;
    const r = check(b);
    expect(r.valid).toBe(true);
    expect(located(r.warnings)).toEqual([
      { row: 4, column: 'NIR', field: 'declarations[0].holders[2].nir', code: 'DUPLICATE_HOLDER' },
    ]);
    expect(r.warnings[0]!.message).toBe('The same NIR already appears on line 2 of this declaration.');
  });

  it('not across declarations', () => {
    const b = body('adf', 'employer');
    addDeclaration(b);
    expect(check(b).warnings).toEqual([]);
  });
});

describe('row counts', () => {
  it('a declaration-level error makes every row of that declaration invalid, and only those', () => {
    const b = body('adf', 'employer', 3);
    decl(b).reference = '';
    addDeclaration(b, 'SST-2026-10', (d) => {
      d.reference = 'ok';
      (d.holders as Json[]).splice(2);
      (d.holders as Json[])[1]!.birth_name = '';
    });
    const r = check(b);
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'REFERENCE_DECLARATION', field: 'declarations[0].reference', code: 'REQUIRED_FIELD' },
      {
        row: 6,
        column: 'NOM_TITULAIRE',
        field: 'declarations[1].holders[1].birth_name',
        code: 'REQUIRED_FIELD',
      },
    ]);
    expect([r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([5, 4, 1]);
  });

  it('rows without ID_DECLARATION each report their own REQUIRED_FIELD', () => {
    const rows = generatedRows(body('adf', 'employer', 3)).map((row, i) =>
      i < 2 ? withCells('adf', row, { ID_DECLARATION: '' }) : row,
    );
    const r = checkCsv(csvFile('adf', rows), 'adf', 'employer');
    expect(located(r.errors)).toEqual([
      { row: 2, column: 'ID_DECLARATION', code: 'REQUIRED_FIELD' },
      { row: 3, column: 'ID_DECLARATION', code: 'REQUIRED_FIELD' },
    ]);
    expect([r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([3, 2, 1]);
  });
});

describe("FILING_DEADLINE_PASSED (warning): the declarant's timetable (API.md §4)", () => {
  /** The boundaries of the timetable that have a deadline: the last day still fine, the day after. */
  const WITH_DEADLINE = DEADLINE_BOUNDARIES.filter(
    (v): v is [Declarant, number, number] => v[2] !== null,
  ).map(([declarant, date, deadline]) => [declarant, iso(date), formatFrDate(deadline), deadline] as const);
  const WITHOUT_DEADLINE = DEADLINE_BOUNDARIES.filter(([, , deadline]) => deadline === null).map(
    ([declarant, date]) => [declarant, iso(date)] as const,
  );

  function adfEndingOn(declarant: Declarant, end: string, count = 2): Json {
    const b = body('adf', declarant, count);
    Object.assign(training(b), { start_date: end, end_date: end });
    holders(b).forEach((h) => Object.assign(h, { validity_start: end, validity_end: undefined }));
    return b;
  }

  function jdrValidFrom(declarant: Declarant, start: string): Json {
    const b = body('jdr', declarant);
    delete decl(b).training;
    holders(b).forEach((h) => Object.assign(h, { validity_start: start, validity_end: undefined }));
    return b;
  }

  it.each(WITH_DEADLINE)(
    'adf, %s: training end %s → deadline %s, counted from DATE_FIN_FORMATION',
    (declarant, end, deadline, lastDay) => {
      const b = adfEndingOn(declarant, end);
      expect(check(b, { today: lastDay }).warnings).toEqual([]);
      const r = check(b, { today: nextDay(lastDay) });
      expect(r.valid).toBe(true);
      expect(located(r.warnings)).toEqual([
        {
          row: 2,
          column: 'DATE_FIN_FORMATION',
          field: `${T0}.end_date`,
          code: 'FILING_DEADLINE_PASSED',
          details: { deadline },
        },
      ]);
      expect(r.warnings[0]!.message).toBe(
        `The legal filing deadline of this declaration (${deadline}) has passed.`,
      );
      const fr = check(b, { today: nextDay(lastDay), lang: 'fr' }).warnings[0]!;
      expect(fr.message).toBe(`La date limite légale de déclaration (${deadline}) est dépassée.`);
      expect(fr.details).toEqual({ deadline });
    },
  );

  it.each(WITH_DEADLINE)(
    'jdr, %s: validity start %s → deadline %s, counted from DATE_DEBUT_VALIDITE',
    (declarant, start, deadline, lastDay) => {
      const b = jdrValidFrom(declarant, start);
      expect(check(b, { today: lastDay }).warnings).toEqual([]);
      expect(located(check(b, { today: nextDay(lastDay) }).warnings)).toEqual([
        {
          row: 2,
          column: 'DATE_DEBUT_VALIDITE',
          field: 'declarations[0].holders[0].validity_start',
          code: 'FILING_DEADLINE_PASSED',
          details: { deadline },
        },
      ]);
    },
  );

  it.each(WITHOUT_DEADLINE)(
    '%s: a declaration dated %s has no deadline, even years later',
    (declarant, day) => {
      expect(check(adfEndingOn(declarant, day), { today: 20991231 }).warnings).toEqual([]);
      expect(check(jdrValidFrom(declarant, day), { today: 20991231 }).warnings).toEqual([]);
    },
  );

  it('an uploaded CSV gets the same answer as the JSON body, for each declarant', () => {
    for (const [declarant, end, deadline, lastDay] of WITH_DEADLINE) {
      const today = nextDay(lastDay);
      const rows = generatedRows(adfEndingOn(declarant, end), { today });
      expect(located(checkCsv(csvFile('adf', rows), 'adf', declarant, { today }).warnings)).toEqual([
        { row: 2, column: 'DATE_FIN_FORMATION', code: 'FILING_DEADLINE_PASSED', details: { deadline } },
      ]);
    }
    for (const [declarant, end] of WITHOUT_DEADLINE) {
      const rows = generatedRows(adfEndingOn(declarant, end));
      expect(checkCsv(csvFile('adf', rows), 'adf', declarant, { today: 20991231 }).warnings).toEqual([]);
    }
  });

  it('adf counts from the training end, not the validity start', () => {
    const b = adfEndingOn('training_organization', '2026-02-10');
    holders(b).forEach((h) => (h.validity_start = '2026-05-20'));
    expect(located(check(b).warnings)).toEqual([
      {
        row: 2,
        column: 'DATE_FIN_FORMATION',
        field: `${T0}.end_date`,
        code: 'FILING_DEADLINE_PASSED',
        details: { deadline: '30/09/2026' },
      },
    ]);
  });

  it('jdr counts from the validity start, not the training end', () => {
    // Training ended 10/02/2026 (its deadline, 30/09/2026, has passed); validity from 20/05/2026 (31/12/2026).
    const b = body('jdr', 'training_organization');
    Object.assign(training(b), { start_date: '2026-02-10', end_date: '2026-02-10' });
    holders(b).forEach((h) => (h.validity_start = '2026-05-20'));
    expect(check(b).warnings).toEqual([]);
  });

  it('once per declaration, on its first row; each declaration its own', () => {
    const b = adfEndingOn('training_organization', '2025-10-15', 3);
    addDeclaration(b);
    addDeclaration(b, 'SST-2026-11', (d) => {
      Object.assign(d.training as Json, { start_date: '2026-09-01', end_date: '2026-09-01' });
      (d.holders as Json[]).forEach((h) => (h.validity_start = '2026-09-01'));
    });
    const details = { deadline: '30/09/2026' };
    expect(located(check(b).warnings)).toEqual([
      {
        row: 2,
        column: 'DATE_FIN_FORMATION',
        field: `${T0}.end_date`,
        code: 'FILING_DEADLINE_PASSED',
        details,
      },
      {
        row: 5,
        column: 'DATE_FIN_FORMATION',
        field: 'declarations[1].training.end_date',
        code: 'FILING_DEADLINE_PASSED',
        details,
      },
    ]);
  });

  it('jdr: on the first row whose validity start is past its deadline', () => {
    const b = jdrValidFrom('training_organization', '2026-06-01');
    holderOf(b, 1).validity_start = '2026-02-10';
    expect(located(check(b).warnings)).toEqual([
      {
        row: 3,
        column: 'DATE_DEBUT_VALIDITE',
        field: `${H1}.validity_start`,
        code: 'FILING_DEADLINE_PASSED',
        details: { deadline: '30/09/2026' },
      },
    ]);
  });

  it('an employer file of trainings ended before 16/03/2026 has no deadline; the same training organization file has one', () => {
    for (const end of ['2025-10-15', '2026-01-20', '2026-03-15']) {
      expect(check(adfEndingOn('employer', end)).warnings).toEqual([]);
      expect(check(adfEndingOn('training_organization', end)).warnings.map((w) => w.details)).toEqual([
        { deadline: '30/09/2026' },
      ]);
    }
  });

  it('other warnings carry no details', () => {
    const b = body('adf', 'training_organization', 3);
    holderOf(b, 2).nir = holderOf(b, 0).nir;
    const r = check(b);
    expect(r.warnings.map((w) => w.code)).toEqual(['DUPLICATE_HOLDER']);
    expect(r.warnings[0]).not.toHaveProperty('details');
  });
});

/** yyyymmdd → YYYY-MM-DD, as a JSON body writes dates. */
function iso(day: number): string {
  return `${Math.floor(day / 10000)}-${String(Math.floor(day / 100) % 100).padStart(2, '0')}-${String(day % 100).padStart(2, '0')}`;
}

/** The day after yyyymmdd. */
function nextDay(day: number): number {
  const t = new Date(Date.UTC(Math.floor(day / 10000), (Math.floor(day / 100) % 100) - 1, (day % 100) + 1));
  return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
}
