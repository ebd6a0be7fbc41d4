import { ApiError } from '@ppfile/contract';
import { NIR_A } from '@ppfile/rules/testing/fixtures';
import { HEADER_MAX_CHARS, kindOfQuery, MAPPING_MAX_ENTRIES, readMapping } from './mappings';

const adf = kindOfQuery({ type: 'adf', declarant: 'employer' }, 'en');
const column = adf.spec.tables.adf.columns[0]!.name;

function refusal(body: unknown): { status: number; details: Record<string, unknown> } {
  try {
    readMapping(body, adf, 'en');
  } catch (e) {
    if (e instanceof ApiError) return { status: e.status, details: e.details };
    throw e;
  }
  throw new Error('not refused');
}

describe('a saved mapping (PUT /dashboard/build/mappings)', () => {
  it('keeps header texts to official columns of the kind, or null', () => {
    const mapping = { 'N° sécu': 'NIR', [`  ${column} `]: column, Commentaire: null };
    expect(readMapping({ mapping }, adf, 'en')).toEqual(mapping);
    expect(readMapping({ mapping: {} }, adf, 'en')).toEqual({});
  });

  it('refuses a header as long as a cell, and never repeats its text', () => {
    const cell = `${NIR_A} MARTIN Claire `.repeat(20);
    expect(cell.length).toBeGreaterThan(HEADER_MAX_CHARS);
    const r = refusal({ mapping: { NIR: 'NIR', [cell]: null } });
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.details)).toContain('header no. 2 is longer than 255 characters');
    expect(JSON.stringify(r.details)).not.toContain(NIR_A);
    // 255 characters (code points) are a header.
    expect(readMapping({ mapping: { ['é'.repeat(HEADER_MAX_CHARS)]: null } }, adf, 'en')).toBeDefined();
  });

  it('refuses a header that reads like a cell of personal data, naming it by position only', () => {
    const cells = [
      NIR_A,
      '1 85 03 75 120 005',
      'claire.martin@example.fr',
      '12/03/1985',
      '1985-03-12',
      'né le 12.03.85',
    ];
    cells.forEach((cell) => {
      const r = refusal({ mapping: { NIR: 'NIR', [cell]: null } });
      expect(r.status).toBe(400);
      expect(r.details).toEqual({
        fields: [{ field: 'mapping', message: expect.stringContaining('header no. 2 looks like a cell') }],
        field_count: 1,
      });
      expect(JSON.stringify(r.details)).not.toContain(cell);
    });
    // Headers with a few digits, a date's format or an "@" alone are headers.
    const headers = {
      'Date de naissance (jj/mm/aaaa)': null,
      'Session 2026': null,
      'Code NSF 331': null,
      '@ contact': null,
    };
    expect(readMapping({ mapping: headers }, adf, 'en')).toEqual(headers);
  });

  it('refuses a column that is not one of the kind, or not a name', () => {
    expect(JSON.stringify(refusal({ mapping: { A: 'NOT_A_COLUMN' } }).details)).toContain('header no. 1');
    expect(refusal({ mapping: { A: 3 } }).status).toBe(400);
    expect(refusal({ mapping: { '': 'NIR' } }).status).toBe(400);
  });

  it('refuses more than 200 headers, another field, or a body that is not one', () => {
    const many = Object.fromEntries(
      Array.from({ length: MAPPING_MAX_ENTRIES + 1 }, (_, i) => [`h${i}`, null]),
    );
    expect(JSON.stringify(refusal({ mapping: many }).details)).toContain('more than 200 headers');
    expect(refusal({ mapping: { A: null }, cells: [['x']] }).details).toMatchObject({
      fields: [{ field: 'cells', message: 'is not a known field' }],
    });
    expect(refusal([]).status).toBe(400);
    expect(refusal({}).details).toMatchObject({ fields: [{ field: 'mapping', message: 'is required' }] });
    expect(refusal({ mapping: ['NIR'] }).status).toBe(400);
  });

  it('names the kind as the API does: type and declarant', () => {
    expect(() => kindOfQuery({ type: 'xyz', declarant: 'employer' }, 'en')).toThrow(/malformed/);
    expect(kindOfQuery({ type: 'jdr', declarant: 'training_organization' }, 'fr').type).toBe('jdr');
  });
});
