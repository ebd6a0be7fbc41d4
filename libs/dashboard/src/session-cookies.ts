import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionLimits } from '@ppfile/db';

/**
 * The dashboard's cookies and CSRF tokens: pure functions, unit-tested.
 *
 * - `ppfile_session`: the session token (256 random bits). HttpOnly, SameSite=Lax, Secure when the
 *   request came over HTTPS (req.secure, which believes X-Forwarded-Proto only from the proxies of
 *   TRUST_PROXY). The database keeps its SHA-256 only.
 * - CSRF: every form carries a hidden `_csrf` field checked on every POST. Signed in, the token is an
 *   HMAC of the session token: bound to the session, nothing more to store, unknown to whoever reads
 *   the database (which holds only the token's hash). Before sign-in (the sign-in and invitation
 *   forms) a random `ppfile_csrf` cookie is compared with the field (double submit), so that another
 *   site cannot sign a browser into an account of its choosing.
 * - `ppfile_device`: the device cookie of sign-in throttling (device-cookies.ts), a year,
 *   SameSite=Strict (only the dashboard's own forms need it).
 * - `ppfile_lang`: `en` or `fr`, set by the language switch; else Accept-Language decides.
 *
 * Over HTTPS the session, CSRF and device cookies are named `__Host-ppfile_…`, with Path=/ and
 * Secure: a browser takes such a cookie only from this very origin over TLS, so a sibling
 * subdomain or a man in the middle of a plain-HTTP request cannot plant one (a planted session or
 * CSRF cookie would sign the person in to the planter's account: login CSRF). Over plain HTTP
 * (`npm start` on localhost, where browsers would refuse a Secure cookie from some addresses) they
 * keep their bare names and Path=/dashboard, without Secure; a request reads only the name of its
 * own scheme, so a bare cookie is ignored over HTTPS.
 *
 * SameSite=Lax rather than Strict for the session: a person following a link to the dashboard (from
 * an e-mail, the API docs) arrives signed in; Lax still keeps the cookie off cross-site POSTs, and
 * the CSRF token and the Origin check stop any that gets through.
 */
export interface DashboardCookie {
  name: string;
  /** `__Host-` prefixed (and Path=/) over HTTPS. */
  hostOnly: boolean;
  sameSite: 'Lax' | 'Strict';
}

export const SESSION_COOKIE: DashboardCookie = { name: 'ppfile_session', hostOnly: true, sameSite: 'Lax' };
export const CSRF_COOKIE: DashboardCookie = { name: 'ppfile_csrf', hostOnly: true, sameSite: 'Lax' };
export const DEVICE_COOKIE: DashboardCookie = { name: 'ppfile_device', hostOnly: true, sameSite: 'Strict' };
export const LANG_COOKIE: DashboardCookie = { name: 'ppfile_lang', hostOnly: false, sameSite: 'Lax' };
export const COOKIE_PATH = '/dashboard';
export const CSRF_FIELD = '_csrf';

/** 12 hours at most from sign-in; 1 hour without a request ends it earlier. */
export const SESSION_LIMITS: Readonly<SessionLimits> = { lifetimeMs: 12 * 3600_000, idleMs: 3600_000 };

/** The cookies of a `Cookie` header; a malformed pair is skipped, the first of two same names wins. */
export function parseCookies(header: string | undefined): Map<string, string> {
  const out = new Map<string, string>();
  if (!header) return out;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    const name = eq < 0 ? '' : part.slice(0, eq).trim();
    if (!name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    if (!out.has(name)) out.set(name, value);
  }
  return out;
}

export interface CookieOptions {
  /** Whether the request came over HTTPS: the cookie then never travels in clear. */
  secure: boolean;
  /** Seconds; 0 deletes the cookie. Absent: a browser-session cookie. */
  maxAgeSeconds?: number;
}

/** A cookie's name for a request over HTTPS (`secure`) or plain HTTP. */
export function cookieName(cookie: DashboardCookie, secure: boolean): string {
  return cookie.hostOnly && secure ? `__Host-${cookie.name}` : cookie.name;
}

/** A dashboard cookie of the request: by the name of the request's scheme only. */
export function readCookie(
  cookies: Map<string, string>,
  cookie: DashboardCookie,
  secure: boolean,
): string | undefined {
  return cookies.get(cookieName(cookie, secure));
}

/** A Set-Cookie value for a dashboard cookie: HttpOnly, its SameSite, its name and path for the scheme. */
export function serializeCookie(cookie: DashboardCookie, value: string, options: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cookie.name) || !/^[A-Za-z0-9_-]*$/.test(value))
    throw new RangeError('cookie name or value out of the safe set');
  const hostOnly = cookie.hostOnly && options.secure;
  const parts = [
    `${cookieName(cookie, options.secure)}=${value}`,
    `Path=${hostOnly ? '/' : COOKIE_PATH}`,
    'HttpOnly',
    `SameSite=${cookie.sameSite}`,
  ];
  if (options.maxAgeSeconds !== undefined)
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearCookie(cookie: DashboardCookie, secure: boolean): string {
  return serializeCookie(cookie, '', { secure, maxAgeSeconds: 0 });
}

/** The CSRF token of a signed-in session: HMAC-SHA256 keyed by the session token. */
export function csrfTokenFor(sessionToken: string): string {
  return createHmac('sha256', sessionToken).update('ppfile dashboard csrf v1').digest('base64url');
}

/** A random token for the pre-session double-submit cookie. */
export function newCsrfCookieValue(): string {
  return randomBytes(24).toString('base64url');
}

/** Constant-time equality of a submitted token with the expected one; anything not a string is false. */
export function sameToken(submitted: unknown, expected: string | undefined): boolean {
  if (typeof submitted !== 'string' || !expected || submitted.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(submitted), Buffer.from(expected));
}

/**
 * Where to go after signing in or switching language: a dashboard path, never another site
 * (`//evil.example`, `/\evil.example`, `https://…`) nor a path with odd characters. Default /dashboard.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== 'string') return '/dashboard';
  const m = /^\/dashboard(?:\/[A-Za-z0-9_-]+)*\/?(\?[A-Za-z0-9_=&%.-]*)?$/.exec(value);
  return m ? value : '/dashboard';
}

/** What a browser says of where a state-changing request comes from. */
export interface RequestSource {
  /** The `Origin` header, when sent. */
  origin?: string;
  /** The `Sec-Fetch-Site` header, when sent. */
  secFetchSite?: string;
}

/**
 * Whether a form post (any request but GET, HEAD and OPTIONS) came from another site, by what
 * browsers send on their own and a page cannot forge: `Sec-Fetch-Site` other than `same-origin` or
 * `none` (a sibling subdomain is `same-site`, refused too), or an `Origin` that is not one of
 * `ownOrigins`. Refused whatever the CSRF token (OWASP CSRF Prevention Cheat Sheet, "Fetch
 * Metadata" and "Verifying Origin With Standard Headers").
 *
 * `Origin: null` proves nothing either way: browsers send it for our own forms, since our pages
 * are `Referrer-Policy: no-referrer` (security-headers.ts), and also after a cross-origin redirect
 * or from a sandboxed frame — which current browsers mark `Sec-Fetch-Site: cross-site`, refused
 * above. A request with neither header (curl, older browsers) is left to the token, as is `null`.
 */
export function isForeignRequest(source: RequestSource, ownOrigins: readonly string[]): boolean {
  const site = source.secFetchSite?.trim().toLowerCase();
  if (site === 'cross-site' || site === 'same-site') return true;
  const origin = source.origin?.trim();
  if (origin === undefined || origin === 'null') return false;
  const parsed = originOf(origin);
  return parsed === null || !ownOrigins.includes(parsed);
}

/** `scheme://host[:port]` of a URL, lower-case, default port dropped; null when it is not an http(s) URL. */
export function originOf(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : null;
  } catch {
    return null;
  }
}

/**
 * The origins the gateway's own pages post from: PUBLIC_BASE_URL's (the one its links name), and
 * the one the request itself was sent to — its scheme and Host (X-Forwarded-Proto and
 * X-Forwarded-Host when they come from a TRUST_PROXY proxy). A browser sets Host and Origin itself:
 * they agree only when the page that posted is of the origin it posted to.
 */
export function ownOrigins(publicBaseUrl: string, protocol: string, host: string | undefined): string[] {
  const origins = [originOf(publicBaseUrl)];
  if (host) origins.push(originOf(`${protocol}://${host}`));
  return origins.filter((o): o is string => o !== null);
}
