import type { NextFunction, Request, Response } from 'express';
import { strictTransportSecurity } from 'helmet';

/**
 * The browser-facing hardening every answer of the gateway carries (issue "Hostile input and
 * abuse"). app.factory.ts installs it as the very first express middleware, before Nest's own, so
 * that early errors (unknown key, body too large, draining, 404) carry it too.
 *
 * - No answer may be sniffed into another type, framed, or leak its address in a Referer.
 * - The HTML pages (Swagger UI at /docs, Bull Board at /admin/queues) get a CSP that allows their
 *   own origin only: no CDN, no Google Fonts, no inline script. Both pages put inline <style>
 *   elements and style attributes in their HTML, hence style-src 'unsafe-inline' (styles only).
 *   Both use data: images (icons in their CSS).
 * - Everything else is data (JSON, CSV, text): `default-src 'none'`, nothing may run or load.
 * - The API (/v1) answers carry personal data (declarations, generated CSVs, row details of a 422),
 *   and the operator pages show jobs: `Cache-Control: no-store`, so that no browser or shared cache
 *   keeps a copy. (Static files keep it too: serve-static does not replace a Cache-Control set here.)
 *
 * - The organizations' dashboard (/dashboard, API.md §12) is ppfile's own HTML: a stricter CSP
 *   still — no inline style either, no data: URL, `base-uri 'none'` — and no-store, since its pages
 *   show keys, files and usage (its hashed static files set their own Cache-Control).
 *
 * A new HTML page served by the gateway must be added to HTML_PAGE_PREFIXES, or its scripts and
 * styles will not load.
 *
 * helmet writes HSTS. Written here: the headers that are the same on every answer (the values
 * helmet's middlewares of the same names write; calling its chain of five middlewares per request
 * cost about 1 % of the gateway's CPU under bench:http, issue 35), the choice of a CSP by path, the
 * CSP itself (helmet joins directives with ";" where ours read "; ", and holds one fixed policy per
 * middleware), and Cache-Control (not helmet's concern).
 */
export const HTML_PAGE_PREFIXES: readonly string[] = ['/docs', '/admin/queues'];

/** The dashboard's pages and assets (libs/dashboard, mounted by AppModule). */
export const DASHBOARD_PREFIX = '/dashboard';

/**
 * The dashboard's CSP: its own stylesheets, scripts, Web Worker (the Build and Try pages' engine) and
 * icon; nothing inline, nothing from elsewhere.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "worker-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The CSP of the HTML pages: the gateway's own origin only. */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The CSP of everything that is not an HTML page (JSON, CSV, plain text). */
export const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Whether `path` is one of the HTML pages (or their assets): the prefix itself or below it. */
export function isHtmlPage(path: string): boolean {
  return HTML_PAGE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** Whether `path` is the dashboard or below it. */
export function isDashboard(path: string): boolean {
  return path === DASHBOARD_PREFIX || path.startsWith(`${DASHBOARD_PREFIX}/`);
}

/** The API, the operator pages and the dashboard: personal data, keys or jobs, never cached. */
export const NO_STORE_PREFIXES: readonly string[] = ['/v1', '/admin', DASHBOARD_PREFIX];

/** Whether answers under `path` must not be stored by any cache. */
export function isNoStorePath(path: string): boolean {
  return NO_STORE_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** One year, as browsers' preload lists expect. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 3600;

/**
 * nosniff, no framing, no Referer, and no window or resource shared with another origin. helmet's
 * other headers stay off, so that the answers carry what they did (those address Flash, old
 * Internet Explorer and retired XSS filters); express's X-Powered-By is disabled in app.factory.ts.
 */
const SAME_ON_EVERY_ANSWER: readonly (readonly [string, string])[] = [
  ['Cross-Origin-Opener-Policy', 'same-origin'],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * Over TLS only (directly, or through a proxy TRUST_PROXY believes): browsers ignore it on plain
 * HTTP, and a local `npm start` must stay reachable over http. Not includeSubDomains: the gateway
 * does not know what else the operator serves under its domain.
 */
const hsts = strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: false });

export function securityHeaders() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const path = normalize(req.path ?? '/');
    for (const [name, value] of SAME_ON_EVERY_ANSWER) res.setHeader(name, value);
    res.setHeader(
      'Content-Security-Policy',
      isDashboard(path) ? DASHBOARD_CSP : isHtmlPage(path) ? PAGE_CSP : DATA_CSP,
    );
    if (isNoStorePath(path)) res.setHeader('Cache-Control', 'no-store');
    if (req.secure) hsts(req, res, next);
    else next();
  };
}

/**
 * The request's path (express parses it, also from an absolute-form target), compared the way the
 * routers match it: case-insensitively, and "//v1" counts as "/v1". Decoding is not needed: the
 * prefixes are plain ASCII, and a percent-encoded variant reaches neither a page nor the API.
 */
function normalize(path: string): string {
  return path.replace(/\/{2,}/g, '/').toLowerCase();
}
