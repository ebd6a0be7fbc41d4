import type { NextFunction, Request, Response } from 'express';
import {
  DASHBOARD_CSP,
  DATA_CSP,
  PAGE_CSP,
  isDashboard,
  isHtmlPage,
  isNoStorePath,
  securityHeaders,
} from './security-headers';

function run(path: string, secure = false): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = value),
  } as unknown as Response;
  const next = jest.fn() as NextFunction;
  securityHeaders()({ path, secure } as Request, res, next);
  expect(next).toHaveBeenCalledTimes(1);
  return headers;
}

describe('securityHeaders', () => {
  it.each(['/v1/files/generate', '/health/live', '/docs-json', '/nowhere', '/admin'])(
    '%s: nosniff, no framing, no referrer, data CSP',
    (path) => {
      const h = run(path);
      expect(h).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'referrer-policy': 'no-referrer',
        'content-security-policy': DATA_CSP,
      });
    },
  );

  it.each(['/docs', '/docs/', '/docs/swagger-ui-init.js', '/admin/queues', '/admin/queues/queue/x', '/DOCS'])(
    '%s: the page CSP',
    (path) => {
      expect(run(path)['content-security-policy']).toBe(PAGE_CSP);
    },
  );

  it('the page CSP allows the own origin only: no third party, no inline or evaluated script, no framing', () => {
    expect(PAGE_CSP).not.toMatch(/https?:|\*|'unsafe-eval'/);
    const directives = new Map(
      PAGE_CSP.split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(DATA_CSP).toBe("default-src 'none'; frame-ancestors 'none'");
  });

  it.each([
    '/dashboard',
    '/dashboard/',
    '/dashboard/keys',
    '/dashboard/static/app.0123456789ab.css',
    '/DASHBOARD/files',
    '//dashboard',
  ])('%s: the dashboard CSP', (path) => {
    expect(run(path)['content-security-policy']).toBe(DASHBOARD_CSP);
  });

  it('the dashboard CSP allows its own origin only, and nothing inline: no inline script or style, no data: URL', () => {
    const directives = new Map(
      DASHBOARD_CSP.split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values]),
    );
    expect(DASHBOARD_CSP).not.toMatch(/https?:|\*|'unsafe-|data:|'nonce-/);
    for (const name of ['default-src', 'script-src', 'style-src', 'img-src', 'connect-src', 'form-action']) {
      expect(directives.get(name)).toEqual(["'self'"]);
    }
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
  });

  it.each([
    ['/dashboard', true],
    ['/dashboard/keys', true],
    ['/dashboardx', false],
    ['/v1/files/generate', true],
    ['/v1/files/f_1/download', true],
    ['/V1/declarations/validate', true],
    ['//v1/files/validate', true],
    ['/v1', true],
    ['/admin/queues', true],
    ['/admin/queues/api/queues', true],
    ['/v10/x', false],
    ['/administrator', false],
    ['/docs', false],
    ['/health/ready', false],
  ])('%s: Cache-Control no-store = %s', (path, noStore) => {
    expect(run(path)['cache-control']).toBe(noStore ? 'no-store' : undefined);
  });

  it('sends exactly these headers, with these values (nothing more from helmet)', () => {
    expect(run('/v1/spec')).toEqual({
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'DENY',
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'content-security-policy': DATA_CSP,
      'cache-control': 'no-store',
    });
    expect(Object.keys(run('/health/live')).sort()).toEqual([
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'referrer-policy',
      'x-content-type-options',
      'x-frame-options',
    ]);
  });

  it('Strict-Transport-Security over TLS only, one year, without includeSubDomains', () => {
    for (const path of ['/v1/spec', '/dashboard', '/health/live']) {
      expect(run(path, true)['strict-transport-security']).toBe('max-age=31536000');
      expect(run(path, false)['strict-transport-security']).toBeUndefined();
    }
  });

  it('page and API prefixes match whole path segments only', () => {
    expect(isHtmlPage('/docs-json')).toBe(false);
    expect(isHtmlPage('/admin/queuesx')).toBe(false);
    expect(isNoStorePath('/v1x')).toBe(false);
    expect(isDashboard('/dashboardx')).toBe(false);
    expect(isHtmlPage('/dashboard')).toBe(false);
  });
});
