/** Caps and counts of errors[] / warnings[] (SERVICE.md §2.4, API.md §4): lists stop at 1,000, counts stay exact. */
import { IssueCollector } from './issues';
import { body, check, decl, holders, located, type Json } from './testing/format-helpers';

/** `n` declarations of `per` holders each, every holder with a wrong NIR and no birth name. */
function brokenBody(n: number, per: number): Json {
  const b = body('adf', 'employer', per);
  const first = decl(b);
  b.declarations = Array.from({ length: n }, (_, d) => {
    const copy = structuredClone(first);
    copy.id = `D${d}`;
    (copy.holders as Json[]).forEach((h, i) =>
      Object.assign(h, { unique_id: `D${d}-${i}`, nir: '12345', birth_name: '' }),
    );
    return copy;
  });
  return b;
}

describe('1,200 errors', () => {
  let r: ReturnType<typeof check>;
  beforeAll(() => {
    r = check(brokenBody(3, 200));
  });

  it('lists 1,000 and counts 1,200', () => {
    expect(r.errors).toHaveLength(1000);
    expect(r.error_count).toBe(1200);
    expect(r.truncated).toBe(true);
    expect(r.valid).toBe(false);
  });

  it('summarises every error, listed or not', () => {
    expect(r.summary).toEqual({
      by_code: { INVALID_NIR: 600, REQUIRED_FIELD: 600 },
      by_column: { NIR: 600, NOM_TITULAIRE: 600 },
    });
  });

  it('keeps the first 1,000 in file order', () => {
    expect(located(r.errors.slice(0, 2))).toEqual([
      { row: 2, column: 'NIR', field: 'declarations[0].holders[0].nir', code: 'INVALID_NIR' },
      {
        row: 2,
        column: 'NOM_TITULAIRE',
        field: 'declarations[0].holders[0].birth_name',
        code: 'REQUIRED_FIELD',
      },
    ]);
    expect(located(r.errors.slice(-1))).toEqual([
      {
        row: 501,
        column: 'NOM_TITULAIRE',
        field: 'declarations[2].holders[99].birth_name',
        code: 'REQUIRED_FIELD',
      },
    ]);
    const rows = r.errors.map((e) => e.row!);
    expect(rows).toEqual([...rows].sort((a, b) => a - b));
  });

  it('counts the rows exactly', () => {
    expect([r.rows_total, r.rows_invalid, r.rows_valid]).toEqual([600, 600, 0]);
  });
});

describe('exactly 1,000 errors', () => {
  it('is not truncated', () => {
    const r = check(brokenBody(1, 500));
    expect([r.errors.length, r.error_count, r.truncated]).toEqual([1000, 1000, false]);
  });
});

describe('warnings', () => {
  it('are capped at 1,000 with an exact warning_count, and do not make the body invalid', () => {
    const b = body('adf', 'employer', 2);
    const first = decl(b);
    b.declarations = Array.from({ length: 3 }, (_, d) => {
      const copy = structuredClone(first);
      copy.id = `D${d}`;
      copy.holders = Array.from({ length: 400 }, (_, i) => ({
        ...(first.holders as Json[])[0],
        unique_id: `D${d}-${i}`,
        // Provisional NIRs (first digit 7), one per holder.
        nir: `7850578${String(100 + Math.floor(i / 999)).padStart(3, '0')}${String(1 + (i % 999)).padStart(3, '0')}`,
      }));
      return copy;
    });
    expect(holders(b, 2)).toHaveLength(400);
    const r = check(b);
    expect([r.valid, r.error_count]).toEqual([true, 0]);
    expect(r.warnings).toHaveLength(1000);
    expect(r.warning_count).toBe(1200);
    expect(new Set(r.warnings.map((w) => w.code))).toEqual(new Set(['NIR_PROVISIONAL']));
  });
});

describe('IssueCollector', () => {
  it('sorts by row, keeping the order of entries of one row, file-level (null) first', () => {
    const c = new IssueCollector('en', 10);
    c.error('REQUIRED_FIELD', 3, 'NIR');
    c.error('INVALID_DATE', 2, 'DATE_FIN_FORMATION');
    c.error('REQUIRED_FIELD', 3, 'NOM_TITULAIRE');
    c.error('DECLARATION_TOO_LARGE', 2, 'ID_DECLARATION');
    c.error('INVALID_FILENAME', null, null);
    expect(c.sorted().errors.map((e) => [e.row, e.column])).toEqual([
      [null, null],
      [2, 'DATE_FIN_FORMATION'],
      [2, 'ID_DECLARATION'],
      [3, 'NIR'],
      [3, 'NOM_TITULAIRE'],
    ]);
  });

  it('leaves `field` out when there is none', () => {
    const c = new IssueCollector('en', 10);
    c.error('COLUMN_COUNT', 4, null, undefined, { count: 3, expected: '20' });
    expect(Object.keys(c.errors[0]!)).toEqual(['row', 'column', 'code', 'message']);
  });
});

describe('details (API.md §4): only for the codes of ISSUE_DETAILS', () => {
  it('FILING_DEADLINE_PASSED carries its deadline; FUTURE_DATE, worded with a date too, carries none', () => {
    const issues = new IssueCollector('fr', 10);
    issues.warning('FILING_DEADLINE_PASSED', 2, 'DATE_FIN_FORMATION', undefined, { deadline: '30/09/2026' });
    issues.error('FUTURE_DATE', 3, 'DATE_FIN_FORMATION', undefined, { deadline: '22/11/2026' });
    expect(issues.warnings[0]).toEqual({
      row: 2,
      column: 'DATE_FIN_FORMATION',
      code: 'FILING_DEADLINE_PASSED',
      message: 'La date limite légale de déclaration (30/09/2026) est dépassée.',
      details: { deadline: '30/09/2026' },
    });
    expect(issues.errors[0]).not.toHaveProperty('details');
  });
});
