import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SessionLimits } from '@ppfile/db';

/**
 * The dashboard's cookies and CSRF tokens: pure functions, unit-tested.
 *
 * - `ppfile_session`: the session token (256 random bits). HttpOnly, SameSite=Lax, Path=/dashboard,
 *   Secure when the request came over HTTPS (req.secure, which believes X-Forwarded-Proto only from
 *   the proxies of TRUST_PROXY). The database keeps its SHA-256 only.
 * - CSRF: every form carries a hidden `_csrf` field checked on every POST. Signed in, the token is an
 *   HMAC of the session token: bound to the session, nothing more to store, unknown to whoever reads
 *   the database (which holds only the token's hash). Before sign-in (the sign-in and invitation
 *   forms) a random `ppfile_csrf` cookie is compared with the field (double submit), so that another
 *   site cannot sign a browser into an account of its choosing.
 * - `ppfile_lang`: `en` or `fr`, set by the language switch; else Accept-Language decides.
 *
 * SameSite=Lax rather than Strict: a person following a link to the dashboard (from an e-mail, the
 * API docs) arrives signed in; Lax still keeps the cookie off cross-site POSTs, and the CSRF token
 * stops any that gets through.
 */
export const SESSION_COOKIE = 'ppfile_session';
export const CSRF_COOKIE = 'ppfile_csrf';
export const LANG_COOKIE = 'ppfile_lang';
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

/** A Set-Cookie value for the dashboard's cookies: HttpOnly, SameSite=Lax, Path=/dashboard. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  if (!/^[A-Za-z0-9_-]+$/.test(name) || !/^[A-Za-z0-9_-]*$/.test(value))
    throw new RangeError('cookie name or value out of the safe set');
  const parts = [`${name}=${value}`, `Path=${COOKIE_PATH}`, 'HttpOnly', 'SameSite=Lax'];
  if (options.maxAgeSeconds !== undefined)
    parts.push(`Max-Age=${Math.max(0, Math.floor(options.maxAgeSeconds))}`);
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

export function clearCookie(name: string, secure: boolean): string {
  return serializeCookie(name, '', { secure, maxAgeSeconds: 0 });
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

/**
 * A browser tells where a request comes from (Sec-Fetch-Site, sent by every current browser): a
 * cross-site form post is refused whatever it carries. Older browsers send nothing: the CSRF token
 * alone decides.
 */
export function isCrossSite(secFetchSite: string | undefined): boolean {
  return secFetchSite === 'cross-site';
}
