import { html, type Html } from '../html';
import type { WebAssetUrls } from '../assets/web-assets';
import type { BuildConfig } from './build-config';
import { layout, pageHead, type ViewContext } from './layout';

export type { BuildConfig };

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
