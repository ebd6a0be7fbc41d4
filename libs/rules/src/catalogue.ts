/** The languages ppfile speaks: every catalogue holds each entry in both. */
export type Lang = 'en' | 'fr';
export const LANGS: readonly Lang[] = ['en', 'fr'];

/**
 * The one shape of every catalogue of words in ppfile — the format's messages (libs/rules), the
 * HTTP contract's (libs/contract), the command line's words (apps/cli) and the dashboard's texts
 * (libs/dashboard, one catalogue a page joined in i18n.ts): each entry holds its text in every
 * language, side by side, a string or a function of the entry's parameters. A catalogue may group
 * entries in sections. An entry missing a language fails `tsc`; `localize` and `inLanguage` are the
 * one lookup.
 */
export type Localized<T> = { readonly [L in Lang]: T };

/** An entry's text in a language (call it with the entry's parameters when it takes some). */
export function localize<T>(entry: Localized<T>, lang: Lang): T {
  return entry[lang];
}

/** A catalogue as one language sees it: every entry replaced by its text in that language. */
export type InLanguage<C> = C extends Localized<infer T> ? T : { readonly [K in keyof C]: InLanguage<C[K]> };

const isEntry = (node: object): node is Localized<unknown> =>
  Object.keys(node).length === 2 && 'en' in node && 'fr' in node;

/** A whole catalogue (sections and entries) in one language: what a page is rendered with. */
export function inLanguage<C extends object>(catalogue: C, lang: Lang): InLanguage<C> {
  const walk = (node: unknown): unknown => {
    if (node === null || typeof node !== 'object') return node;
    if (isEntry(node)) return localize(node, lang);
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
  };
  return walk(catalogue) as InLanguage<C>;
}
