import { html, type Html } from '../html';
import type { WebAssetUrls } from '../assets/web-assets';
import { layout, pageHead, type ViewContext } from './layout';

/**
 * What the Build page's script reads from its element (`data-config`, JSON): where everything is,
 * the session's CSRF token for its JSON requests, and the day the checks take as today.
 */
export interface BuildConfig {
  lang: 'en' | 'fr';
  /** YYYY-MM-DD: the day in Paris by the server's clock (the API's `today`). */
  today: string;
  csrf: string;
  workerUrl: string;
  listsUrl: string;
  templateUrl: string;
  mappingsUrl: string;
  generateUrl: string;
  filesUrl: string;
  /** GET: the session's CSRF token, no data (the page's keep-alive, and before Retry). */
  sessionUrl: string;
  signInUrl: string;
  usageUrl: string;
  /** Bodies of more rows go through the asynchronous path (`Prefer: respond-async`, then polling). */
  asyncAboveRows: number;
}

/**
 * The Build page's shell: the layout, and the element the front end (libs/dashboard/web/src/build)
 * renders into, with its configuration as an escaped JSON attribute — no inline script, so the
 * dashboard's CSP stays `script-src 'self'`.
 */
export function buildPage(ctx: ViewContext, view: { config: BuildConfig; urls: WebAssetUrls }): Html {
  const { t } = ctx;
  return layout(ctx, {
    title: t.build.title,
    active: 'build',
    web: { script: view.urls.buildJs, stylesheet: view.urls.buildCss },
    body: html`${pageHead(t.build.title, t.build.lead)}
      <noscript
        ><div class="alert warn" role="status"><p>${t.build.noScript}</p></div></noscript
      >
      <div id="build-app" data-config="${JSON.stringify(view.config)}">
        <p class="muted" aria-live="polite">${t.build.loading}</p>
      </div>`,
  });
}
