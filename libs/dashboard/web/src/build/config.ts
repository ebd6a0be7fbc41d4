/** The page's settings, written by the server into `#build-app`'s data-config (build-design.md). */
import type { Lang } from './texts';

export interface BuildConfig {
  lang: Lang;
  /** YYYY-MM-DD, the server's Paris day: the `today` dates are checked against. */
  today: string;
  csrf: string;
  workerUrl: string;
  listsUrl: string;
  templateUrl: string;
  mappingsUrl: string;
  generateUrl: string;
  filesUrl: string;
  /** GET: the session's CSRF token, no data (keep-alive, and before Retry). */
  sessionUrl: string;
  signInUrl: string;
  usageUrl: string;
  /** Bodies with more rows are generated the asynchronous way (Prefer: respond-async). */
  asyncAboveRows: number;
}

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
