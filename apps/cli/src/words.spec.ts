import { COMMON_OPTIONS, leaves, ROOT } from './command-tree';
import { say, WORD_KEYS, type WordKey } from './words';

/** Any parameter an entry reads: its own name, so that a forgotten one shows. */
const anything = new Proxy({}, { get: (_target, name) => `‹${String(name)}›` }) as never;

/** Words that are the same in both languages. */
const SAME: WordKey[] = ['col_id', 'col_mode'];

describe('the CLI words', () => {
  it.each(WORD_KEYS)('%s has an English and a different French text, both filled in', (key) => {
    const en = (say as (lang: 'en' | 'fr', key: WordKey, p: never) => string)('en', key, anything);
    const fr = (say as (lang: 'en' | 'fr', key: WordKey, p: never) => string)('fr', key, anything);
    expect(en.trim()).not.toBe('');
    expect(fr.trim()).not.toBe('');
    expect(en).not.toMatch(/undefined|\[object/);
    expect(fr).not.toMatch(/undefined|\[object/);
    if (SAME.includes(key)) expect(fr).toBe(en);
    else expect(fr).not.toBe(en);
  });

  it('the command tree: each option once per command, none shadowing a common one, `-h` taken by help only', () => {
    const all = leaves(ROOT);
    expect(all.map((l) => l.path.join(' '))).toContain('admin key list');
    for (const { path, leaf } of all) {
      const names = [...leaf.options, ...COMMON_OPTIONS].map((o) => o.name);
      expect({ path, names }).toEqual({ path, names: [...new Set(names)] });
      const shorts = [...leaf.options, ...COMMON_OPTIONS].flatMap((o) => (o.short ? [o.short] : []));
      expect({ path, shorts }).toEqual({ path, shorts: [...new Set(shorts)] });
    }
  });
});
