/** The entry points' responses: generateFile metadata, the generate response body, file ids. */
import { createHash } from 'node:crypto';
import { generateFile, validateDeclarations } from './api';
import { DEFAULT_OPTIONS } from './request';
import { testReferences } from './testing/fixtures';
import { KINDS, body, check, holderOf, testEnv, training } from './testing/format-helpers';

describe('generateFile', () => {
  it.each(KINDS)('%s / %s: metadata of the produced file', (type, declarant) => {
    const file = generateFile(body(type, declarant, 3), testEnv({ randomHex: () => '1a2b3c4d' }));
    expect(file).toMatchObject({
      type,
      declarant,
      spec_version: '2026-02',
      options: DEFAULT_OPTIONS,
      rows: 3,
      declarations: 1,
      filename: `ppfile_${type}_20261122_1a2b3c4d.csv`,
      warning_count: 0,
      warnings: [],
    });
    expect(file.sha256).toBe(createHash('sha256').update(file.content).digest('hex'));
  });

  it('uses 8 random lowercase hex characters by default', () => {
    const a = generateFile(body('adf', 'employer'), testEnv()).filename;
    expect(a).toMatch(/^ppfile_adf_20261122_[0-9a-f]{8}\.csv$/);
  });

  it('is deterministic but for the file name', () => {
    const a = generateFile(body('jdr', 'employer'), testEnv());
    const b = generateFile(body('jdr', 'employer'), testEnv());
    expect(a.content.equals(b.content)).toBe(true);
    expect(a.sha256).toBe(b.sha256);
  });

  it('produces a file that has warnings, and returns them', () => {
    const b = body('adf', 'employer');
    training(b).nsf_codes = ['344z'];
    holderOf(b, 1).nir = holderOf(b, 0).nir;
    const file = generateFile(b, testEnv());
    expect(file.warnings.map((w) => [w.row, w.code])).toEqual([
      [2, 'REFERENCE_NOT_VERIFIED'],
      [3, 'DUPLICATE_HOLDER'],
    ]);
    expect(file.warning_count).toBe(2);
  });

  it('takes the parsed options', () => {
    const b = {
      ...body('adf', 'employer'),
      options: { store: false, retention_hours: 2, formula_policy: 'warn' },
    };
    expect(generateFile(b, testEnv()).options).toEqual({
      ...DEFAULT_OPTIONS,
      store: false,
      retention_hours: 2,
      formula_policy: 'warn',
    });
  });
});

describe('validateDeclarations', () => {
  it('returns the full validation response', () => {
    const r = validateDeclarations(body('adf', 'employer'), { refs: testReferences(), today: 20261122 });
    expect(Object.keys(r).sort()).toEqual(
      [
        'valid',
        'spec_version',
        'rows_total',
        'rows_valid',
        'rows_invalid',
        'error_count',
        'truncated',
        'errors',
        'warning_count',
        'warnings',
        'normalization_count',
        'normalizations',
        'summary',
      ].sort(),
    );
    expect(r).toMatchObject({
      valid: true,
      rows_total: 2,
      rows_valid: 2,
      rows_invalid: 0,
      error_count: 0,
      truncated: false,
    });
  });

  it('valid is true exactly when error_count is 0 (warnings do not count)', () => {
    const b = body('adf', 'employer');
    holderOf(b).nir = `8${String(holderOf(b).nir).slice(1)}`;
    const r = check(b);
    expect([r.valid, r.error_count, r.warning_count]).toEqual([true, 0, 1]);
  });
});
