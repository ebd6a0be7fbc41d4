/**
 * The page's settings, written by the server into `#build-app`'s data-config. One declaration for
 * both sides: libs/dashboard/src/views/build-config.ts, which imports nothing, so this tsconfig
 * reads it without the server's code.
 */
import type { BuildConfig } from '../../../src/views/build-config';

export type { BuildConfig };

export function readConfig(element: HTMLElement): BuildConfig {
  const raw = JSON.parse(element.dataset.config ?? '{}') as Partial<BuildConfig>;
  return {
    lang: raw.lang === 'fr' ? 'fr' : 'en',
    today: raw.today ?? new Date().toISOString().slice(0, 10),
    csrf: raw.csrf ?? '',
    workerUrl: raw.workerUrl ?? '',
    listsUrl: raw.listsUrl ?? '',
    templateUrl: raw.templateUrl ?? '/dashboard/build/template',
    mappingsUrl: raw.mappingsUrl ?? '/dashboard/build/mappings',
    generateUrl: raw.generateUrl ?? '/dashboard/build/generate',
    filesUrl: raw.filesUrl ?? '/dashboard/files',
    sessionUrl: raw.sessionUrl ?? '/dashboard/build/session',
    signInUrl: raw.signInUrl ?? '/dashboard/sign-in',
    usageUrl: raw.usageUrl ?? '/dashboard',
    asyncAboveRows: typeof raw.asyncAboveRows === 'number' ? raw.asyncAboveRows : 2000,
  };
}
