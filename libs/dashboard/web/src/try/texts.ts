/**
 * Try it's words in the page's language: the dashboard's own catalogue (views/try-page.texts.ts),
 * the one the server renders the shell with, so that the browser and the server never say a thing
 * two ways.
 */
import { TRY_TEXTS } from '../../../src/views/try-page.texts';

type Localized<T> = { en: T; fr: T };
type InLanguage<C> = { [K in keyof C]: C[K] extends Localized<infer T> ? T : never };

export type Texts = InLanguage<(typeof TRY_TEXTS)['tryIt']>;

export function textsIn(lang: 'en' | 'fr'): Texts {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(TRY_TEXTS.tryIt)) out[key] = (value as Localized<unknown>)[lang];
  return out as Texts;
}
