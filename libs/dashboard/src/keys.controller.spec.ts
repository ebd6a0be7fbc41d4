import type { ApiKeyInfo } from '@ppfile/db';
import { cleanKeyName } from './keys.controller';
import { keyTitle, sortKeys } from './views/keys-pages';
import { reportName } from './views/try-page';

const key = (
  id: string,
  created: number,
  revoked: number | null,
  name: string | null = null,
): ApiKeyInfo => ({
  id,
  organizationId: 'org_x',
  mode: 'test',
  name,
  prefix: 'pp_test_Ab3d',
  createdAt: new Date(created),
  revokedAt: revoked === null ? null : new Date(revoked),
  lastUsedAt: null,
  userId: null,
});

describe('keys page helpers', () => {
  it('lists active keys first, newest first, then revoked ones, most recently revoked first', () => {
    const keys = [key('a', 1, null), key('b', 2, 10), key('c', 3, null), key('d', 4, 5)];
    expect(sortKeys(keys).map((k) => k.id)).toEqual(['c', 'a', 'b', 'd']);
  });

  it('names a key by its name and prefix, or its prefix alone', () => {
    expect(keyTitle(key('a', 1, null, 'payroll'))).toBe('“payroll” (pp_test_Ab3d…)');
    expect(keyTitle(key('a', 1, null))).toBe('pp_test_Ab3d…');
  });

  it('cleans a typed name: trimmed, control characters and line separators gone', () => {
    expect(cleanKeyName('  payroll\u0000export\n\u2028 ')).toBe('payroll export');
    expect(cleanKeyName(42)).toBe('');
  });

  it('names the error report after the checked file, in safe characters', () => {
    expect(reportName('ppfile_adf_20261122_1a2b3c4d.csv')).toBe('ppfile_adf_20261122_1a2b3c4d-errors.csv');
    expect(reportName('session "SST" été.CSV')).toBe('session_SST_t_-errors.csv');
    expect(reportName('')).toBe('file-errors.csv');
  });
});
