import { newSecretToken } from '@ppfile/db';
import {
  clearCookie,
  csrfTokenFor,
  isCrossSite,
  newCsrfCookieValue,
  parseCookies,
  safeNext,
  sameToken,
  serializeCookie,
  SESSION_COOKIE,
  SESSION_LIMITS,
} from './session-cookies';

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, scoped to /dashboard, and Secure only over HTTPS', () => {
    const plain = serializeCookie(SESSION_COOKIE, 'abc', { secure: false, maxAgeSeconds: 60 });
    expect(plain).toBe('ppfile_session=abc; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=60');
    const secure = serializeCookie(SESSION_COOKIE, 'abc', { secure: true });
    expect(secure.split('; ')).toEqual([
      'ppfile_session=abc',
      'Path=/dashboard',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
  });

  it('is deleted with Max-Age=0 and the same scope', () => {
    expect(clearCookie(SESSION_COOKIE, true)).toBe(
      'ppfile_session=; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
  });

  it('refuses a value that could split the header', () => {
    expect(() => serializeCookie(SESSION_COOKIE, 'a; Domain=evil', { secure: false })).toThrow(RangeError);
    expect(() => serializeCookie('a b', 'x', { secure: false })).toThrow(RangeError);
  });

  it('lives 12 hours at most and 1 hour idle', () => {
    expect(SESSION_LIMITS).toEqual({ lifetimeMs: 12 * 3600_000, idleMs: 3600_000 });
  });
});

describe('parseCookies', () => {
  it('reads pairs, trims, unquotes, keeps the first of duplicates, skips junk', () => {
    const c = parseCookies(' a=1; b="two" ; junk; =x; a=3; ppfile_lang=fr');
    expect([...c]).toEqual([
      ['a', '1'],
      ['b', 'two'],
      ['ppfile_lang', 'fr'],
    ]);
    expect(parseCookies(undefined).size).toBe(0);
  });
});

describe('CSRF tokens', () => {
  it('are bound to the session: same session same token, another session another token', () => {
    const a = newSecretToken();
    const b = newSecretToken();
    expect(csrfTokenFor(a)).toBe(csrfTokenFor(a));
    expect(csrfTokenFor(a)).not.toBe(csrfTokenFor(b));
    expect(csrfTokenFor(a)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // The token does not reveal the session token.
    expect(csrfTokenFor(a)).not.toContain(a.slice(0, 10));
  });

  it('are compared exactly, in constant time, refusing missing or non-string values', () => {
    const t = csrfTokenFor(newSecretToken());
    expect(sameToken(t, t)).toBe(true);
    expect(sameToken(`${t.slice(0, -1)}x`, t)).toBe(false);
    expect(sameToken(t.slice(1), t)).toBe(false);
    expect(sameToken(undefined, t)).toBe(false);
    expect(sameToken([t], t)).toBe(false);
    expect(sameToken('', '')).toBe(false);
    expect(sameToken(t, undefined)).toBe(false);
  });

  it('pre-session cookie values are random', () => {
    expect(newCsrfCookieValue()).not.toBe(newCsrfCookieValue());
    expect(newCsrfCookieValue()).toMatch(/^[A-Za-z0-9_-]{32}$/);
  });

  it('cross-site requests (Sec-Fetch-Site) are refused; same-origin, same-site, none or absent are left to the token', () => {
    expect(isCrossSite('cross-site')).toBe(true);
    for (const v of ['same-origin', 'same-site', 'none', undefined]) expect(isCrossSite(v)).toBe(false);
  });
});

describe('safeNext', () => {
  it.each([
    ['/dashboard/keys', '/dashboard/keys'],
    ['/dashboard', '/dashboard'],
    ['/dashboard/files?page=2', '/dashboard/files?page=2'],
    ['/dashboard/sign-in?next=%2Fdashboard%2Fkeys', '/dashboard/sign-in?next=%2Fdashboard%2Fkeys'],
    ['//evil.example/dashboard', '/dashboard'],
    ['/\\evil.example', '/dashboard'],
    ['https://evil.example/dashboard', '/dashboard'],
    ['/dashboard/../v1/spec', '/dashboard'],
    ['/dashboardx', '/dashboard'],
    ['/dashboard/keys#x', '/dashboard'],
    [undefined, '/dashboard'],
    [['/dashboard/keys'], '/dashboard'],
  ])('%j → %s', (value, expected) => {
    expect(safeNext(value)).toBe(expected);
  });
});
