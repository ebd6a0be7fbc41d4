import type { Lang } from '@ppfile/rules';
import { ASSETS } from '../assets/assets';
import type { DashboardRequest, SignedIn } from '../dashboard-request';
import { html, trustedHtml, type Html } from '../html';
import { Formats, MESSAGES, type Messages } from '../i18n';
import { CSRF_FIELD, safeNext } from '../session-cookies';

/** What every view needs: the language, its texts and formats, the page's path, who is signed in. */
export interface ViewContext {
  lang: Lang;
  t: Messages;
  f: Formats;
  /** The page's path and query (the language switch comes back to it). */
  path: string;
  user: SignedIn | null;
}

const FORMATS: Record<Lang, Formats> = { en: new Formats('en'), fr: new Formats('fr') };

export function viewContext(req: DashboardRequest): ViewContext {
  const lang = req.dashboard.lang;
  return {
    lang,
    t: MESSAGES[lang],
    f: FORMATS[lang],
    path: req.originalUrl ?? req.url,
    user: req.dashboard.session,
  };
}

export type NavKey = 'usage' | 'keys' | 'files' | 'build' | 'try' | 'account';

const NAV: ReadonlyArray<readonly [NavKey, string]> = [
  ['usage', '/dashboard'],
  ['keys', '/dashboard/keys'],
  ['files', '/dashboard/files'],
  ['build', '/dashboard/build'],
  ['try', '/dashboard/try'],
  ['account', '/dashboard/account'],
];

/** The hidden field of the session's CSRF token, in every signed-in form. */
export function csrfField(ctx: ViewContext): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${ctx.user?.csrf ?? ''}" />`;
}

const LOGO = trustedHtml(
  '<svg viewBox="0 0 32 32" aria-hidden="true"><rect width="32" height="32" rx="7" fill="#3b5be0"/><path d="M10 7h9l5 5v13a1 1 0 0 1-1 1H10a1 1 0 0 1-1-1V8a1 1 0 0 1 1-1z" fill="#fff"/><path d="M12.5 18.5l3 3 5.5-6" fill="none" stroke="#3b5be0" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/></svg>',
);

function langSwitch(ctx: ViewContext): Html {
  const next = encodeURIComponent(safeNext(ctx.path));
  const item = (lang: Lang, label: string) =>
    lang === ctx.lang
      ? html`<span aria-current="true">${label}</span>`
      : html`<a href="/dashboard/lang/${lang}?next=${next}" hreflang="${lang}" lang="${lang}">${label}</a>`;
  return html`<span class="lang" role="group" aria-label="${ctx.t.langSwitch}"
    >${item('en', 'EN')}${item('fr', 'FR')}</span
  >`;
}

/** The page around a view's content: head (own-origin stylesheet and script only), top bar, footer. */
export function layout(
  ctx: ViewContext,
  page: {
    title: string;
    active?: NavKey;
    body: Html;
    bare?: boolean;
    /** A page shown once (a new key's secret): no language switch, which would reload it without. */
    once?: boolean;
    /**
     * A page of the front end (libs/dashboard/web): its module script and stylesheet, own-origin
     * hashed URLs (web-assets.ts), after the dashboard's own.
     */
    web?: { script: string; stylesheet?: string };
  },
): Html {
  const { t, user } = ctx;
  const nav = user
    ? html`<nav class="nav" aria-label="Dashboard">
        ${NAV.map(([key, href]) => html`<a href="${href}" ${page.active === key ? trustedHtml(' aria-current="page"') : ''}>${t.nav[key]}</a>`)}
      </nav>`
    : '';
  const end = html`<div class="topbar-end">
    ${
      user
        ? html`<span class="org" title="${user.email}"
            ><span class="org-name">${user.organization.name}</span> ·
            ${t.plans[user.organization.plan]}</span
          >`
        : ''
    }
    ${page.once ? '' : langSwitch(ctx)}
    ${
      user
        ? html`<form method="post" action="/dashboard/sign-out">
            ${csrfField(ctx)}<button type="submit" class="linklike">${t.nav.signOut}</button>
          </form>`
        : ''
    }
  </div>`;
  return html`${trustedHtml('<!doctype html>')}
    <html lang="${t.htmlLang}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="referrer" content="no-referrer" />
        <title>${page.title} · ppfile</title>
        <link rel="icon" href="${ASSETS.icon.path}" type="image/svg+xml" />
        <link rel="stylesheet" href="${ASSETS.css.path}" />
        <script src="${ASSETS.js.path}" defer></script>
        ${page.web?.stylesheet ? html`<link rel="stylesheet" href="${page.web.stylesheet}" />` : ''}
        ${page.web ? html`<script type="module" src="${page.web.script}"></script>` : ''}
      </head>
      <body>
        <a class="skip" href="#main">${t.skip}</a>
        <header class="topbar">
          <div class="wrap topbar-inner">
            <a class="brand" href="/dashboard" title="ppfile — ${t.brandSub}">${LOGO}<span>ppfile</span></a>
            ${nav} ${end}
          </div>
        </header>
        <main id="main" class="wrap">${page.body}</main>
        <footer class="wrap footer">
          <p>${t.footer} <a href="/docs">${t.nav.docs}</a></p>
        </footer>
      </body>
    </html> `;
}

/** A titled page head with an optional lead paragraph. */
export function pageHead(title: string, lead?: string | Html): Html {
  return html`<div class="page-head">
    <h1>${title}</h1>
    ${lead ? html`<p>${lead}</p>` : ''}
  </div>`;
}

export type AlertKind = 'ok' | 'error' | 'warn' | 'info';

export function alert(kind: AlertKind, text: string | Html, title?: string): Html {
  const role = kind === 'error' ? 'alert' : 'status';
  return html`<div class="alert ${kind}" role="${role}">
    ${title ? html`<strong>${title}</strong>` : ''}
    <p>${text}</p>
  </div>`;
}
