import { inLanguage, localize, type Localized } from './catalogue';
import { issueMessage } from './messages';

describe('the one shape of catalogues', () => {
  const catalogue = {
    title: { en: 'Files', fr: 'Fichiers' },
    nav: {
      keys: { en: 'API keys', fr: 'Clés d’API' },
      count: { en: (n: number) => `${n} files`, fr: (n: number) => `${n} fichiers` },
    },
  } satisfies Record<string, unknown>;

  it('looks an entry up in a language, text or template', () => {
    const entry: Localized<(n: number) => string> = catalogue.nav.count;
    expect(localize(entry, 'fr')(3)).toBe('3 fichiers');
    expect(localize(catalogue.title, 'en')).toBe('Files');
  });

  it('gives a whole catalogue, sections included, in one language', () => {
    const fr = inLanguage(catalogue, 'fr');
    expect(fr.title).toBe('Fichiers');
    expect(fr.nav.keys).toBe('Clés d’API');
    expect(fr.nav.count(2)).toBe('2 fichiers');
    const en = inLanguage(catalogue, 'en');
    expect([en.title, en.nav.keys, en.nav.count(1)]).toEqual(['Files', 'API keys', '1 files']);
  });

  it('is the shape of the format’s own catalogue', () => {
    expect(issueMessage('REQUIRED_FIELD', 'fr', { column: 'NIR' })).toMatch(/NIR/);
    expect(issueMessage('REQUIRED_FIELD', 'en', { column: 'NIR' })).not.toBe(
      issueMessage('REQUIRED_FIELD', 'fr', { column: 'NIR' }),
    );
  });
});
