import { hashKey, KEY_FORMAT, randomBase62 } from './api-keys';

describe('randomBase62', () => {
  it('draws every base62 character, and only those, with no visible bias', () => {
    const sample = randomBase62(62 * 4000);
    expect(sample).toMatch(/^[A-Za-z0-9]+$/);
    const counts = new Map<string, number>();
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // Chi-square with 61 degrees of freedom: above 120 happens by chance about once in 10⁵ runs,
    // while a modulo bias (bytes 248–255 folded onto the first 8 characters) scores over 1,000.
    const chi = [...counts.values()].reduce((sum, n) => sum + (n - 4000) ** 2 / 4000, 0);
    expect(chi).toBeLessThan(120);
  });

  it('gives the requested length', () => {
    for (const n of [0, 1, 40, 1000]) expect(randomBase62(n)).toHaveLength(n);
  });
});

describe('key format', () => {
  it('accepts the two prefixes with at least 32 base62 characters (API.md §1)', () => {
    expect(KEY_FORMAT.test(`pp_live_${'a'.repeat(32)}`)).toBe(true);
    expect(KEY_FORMAT.test(`pp_test_${'Z9'.repeat(20)}`)).toBe(true);
    expect(KEY_FORMAT.test(`pp_test_${'a'.repeat(31)}`)).toBe(false);
    expect(KEY_FORMAT.test(`pp_prod_${'a'.repeat(40)}`)).toBe(false);
    expect(KEY_FORMAT.test(`pp_live_${'a'.repeat(39)}-`)).toBe(false);
  });

  it('hashes keys to SHA-256 hex', () => {
    expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});
