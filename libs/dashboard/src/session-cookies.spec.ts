import { newSecretToken } from '@ppfile/db';
import {
  clearCookie,
  CSRF_COOKIE,
  csrfTokenFor,
  DEVICE_COOKIE,
  isForeignRequest,
  LANG_COOKIE,
  newCsrfCookieValue,
  originOf,
  ownOrigins,
  parseCookies,
  readCookie,
  safeNext,
  sameToken,
  serializeCookie,
  SESSION_COOKIE,
  SESSION_LIMITS,
} from './session-cookies';

describe('session cookie', () => {
  it('over HTTP: its bare name, HttpOnly, SameSite=Lax, scoped to /dashboard, not Secure', () => {
    const plain = serializeCookie(SESSION_COOKIE, 'abc', { secure: false, maxAgeSeconds: 60 });
    expect(plain).toBe('ppfile_session=abc; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=60');
  });

  it('over HTTPS: __Host- prefixed, so Path=/ and Secure (a browser takes it from this origin over TLS only)', () => {
    const secure = serializeCookie(SESSION_COOKIE, 'abc', { secure: true });
    expect(secure.split('; ')).toEqual([
      '__Host-ppfile_session=abc',
      'Path=/',
      'HttpOnly',
      'SameSite=Lax',
      'Secure',
    ]);
  });

  it('is deleted with Max-Age=0 under the same name and scope', () => {
    expect(clearCookie(SESSION_COOKIE, true)).toBe(
      '__Host-ppfile_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0; Secure',
    );
    expect(clearCookie(SESSION_COOKIE, false)).toBe(
      'ppfile_session=; Path=/dashboard; HttpOnly; SameSite=Lax; Max-Age=0',
    );
  });

  it('refuses a value that could split the header', () => {
    expect(() => serializeCookie(SESSION_COOKIE, 'a; Domain=evil', { secure: false })).toThrow(RangeError);
    expect(() => serializeCookie({ ...SESSION_COOKIE, name: 'a b' }, 'x', { secure: false })).toThrow(
      RangeError,
    );
  });

  it('lives 12 hours at most and 1 hour idle', () => {
    expect(SESSION_LIMITS).toEqual({ lifetimeMs: 12 * 3600_000, idleMs: 3600_000 });
  });
});

describe('the other cookies', () => {
  it('the pre-session CSRF cookie is __Host- prefixed over HTTPS, like the session cookie', () => {
    expect(serializeCookie(CSRF_COOKIE, 'x', { secure: true })).toBe(
      '__Host-ppfile_csrf=x; Path=/; HttpOnly; SameSite=Lax; Secure',
    );
    expect(serializeCookie(CSRF_COOKIE, 'x', { secure: false })).toBe(
      'ppfile_csrf=x; Path=/dashboard; HttpOnly; SameSite=Lax',
    );
  });

  it('the device cookie: __Host- prefixed over HTTPS, SameSite=Strict', () => {
    expect(serializeCookie(DEVICE_COOKIE, 'd', { secure: true, maxAgeSeconds: 10 })).toBe(
      '__Host-ppfile_device=d; Path=/; HttpOnly; SameSite=Strict; Max-Age=10; Secure',
    );
  });

  it('the language keeps its name and path (nothing to protect)', () => {
    expect(serializeCookie(LANG_COOKIE, 'fr', { secure: true })).toBe(
      'ppfile_lang=fr; Path=/dashboard; HttpOnly; SameSite=Lax; Secure',
    );
  });

  it('a request reads the name of its own scheme only: over HTTPS a bare (plantable) cookie is ignored', () => {
    const cookies = parseCookies('ppfile_csrf=planted; __Host-ppfile_session=real');
    expect(readCookie(cookies, CSRF_COOKIE, true)).toBeUndefined();
    expect(readCookie(cookies, SESSION_COOKIE, true)).toBe('real');
    expect(readCookie(cookies, CSRF_COOKIE, false)).toBe('planted');
    expect(readCookie(cookies, SESSION_COOKIE, false)).toBeUndefined();
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
});

describe('form posts from another site', () => {
  const own = ownOrigins('https://ppfile.example.com', 'http', '127.0.0.1:3000');

  it('own origins: PUBLIC_BASE_URL’s and the one the request was sent to', () => {
    expect(own).toEqual(['https://ppfile.example.com', 'http://127.0.0.1:3000']);
    expect(ownOrigins('https://ppfile.example.com/base/', 'https', 'PPFILE.example.com:443')).toEqual([
      'https://ppfile.example.com',
      'https://ppfile.example.com',
    ]);
    expect(ownOrigins('http://localhost:3000', 'http', undefined)).toEqual(['http://localhost:3000']);
  });

  it('Sec-Fetch-Site cross-site or same-site: refused whatever the Origin', () => {
    for (const site of ['cross-site', 'same-site', 'Cross-Site'])
      expect(isForeignRequest({ secFetchSite: site, origin: 'https://ppfile.example.com' }, own)).toBe(true);
  });

  it('an Origin other than our own (or not an origin): refused', () => {
    for (const origin of [
      'https://evil.example',
      'http://ppfile.example.com',
      'https://ppfile.example.com:8443',
      'https://sub.ppfile.example.com',
      'garbage',
      'file://',
    ])
      expect({ origin, foreign: isForeignRequest({ origin, secFetchSite: 'same-origin' }, own) }).toEqual({
        origin,
        foreign: true,
      });
  });

  it('our own origin, same-origin, none, or no header at all (curl, older browsers): left to the CSRF token', () => {
    expect(isForeignRequest({ origin: 'https://ppfile.example.com', secFetchSite: 'same-origin' }, own)).toBe(
      false,
    );
    expect(isForeignRequest({ origin: 'https://PPFILE.example.com:443' }, own)).toBe(false);
    expect(isForeignRequest({ origin: 'http://127.0.0.1:3000' }, own)).toBe(false);
    expect(isForeignRequest({ secFetchSite: 'none' }, own)).toBe(false);
    expect(isForeignRequest({}, own)).toBe(false);
  });

  it('Origin: null (what browsers send for our own forms under Referrer-Policy: no-referrer) decides nothing', () => {
    expect(isForeignRequest({ origin: 'null', secFetchSite: 'same-origin' }, own)).toBe(false);
    expect(isForeignRequest({ origin: 'null' }, own)).toBe(false);
    // After a cross-origin redirect or from a sandboxed frame: Sec-Fetch-Site says so.
    expect(isForeignRequest({ origin: 'null', secFetchSite: 'cross-site' }, own)).toBe(true);
  });

  it('originOf: http(s) only, lower-case, default port dropped', () => {
    expect(originOf('HTTPS://Example.COM:443/x?y')).toBe('https://example.com');
    expect(originOf('http://example.com:8080')).toBe('http://example.com:8080');
    expect(originOf('ftp://example.com')).toBeNull();
    expect(originOf('null')).toBeNull();
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
