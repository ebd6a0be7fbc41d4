import request from 'supertest';
import { escapeHtml } from '@ppfile/dashboard/html';
import { MESSAGES } from '@ppfile/dashboard/i18n';
import { startGateway, type Gateway } from './support/gateway';
import { suiteLogs } from './support/logs';

/**
 * The dashboard against a hostile review (issue 19), over HTTP on the real stack (PostgreSQL, Redis,
 * s3rver): device cookies keep a known browser from being locked out by strangers' failures
 * (finding 8); weak new passwords are refused with their reason, in English and French (finding 9);
 * the pre-session CSRF cookie is `__Host-` over HTTPS, and form posts another site sent are refused
 * whatever they carry (finding 10c). Loopback is a trusted proxy: X-Forwarded-For speaks for other
 * client addresses, X-Forwarded-Proto for HTTPS.
 */
jest.setTimeout(120_000);

const PASSWORD = 'orange kayak under the bridge';
type Res = request.Response;

let gw: Gateway;
let orgId: string;

beforeAll(async () => {
  gw = await startGateway({ trustProxy: ['loopback'] });
  orgId = (await gw.organization('starter', 'Hostile Review')).id;
}, 240_000);

afterAll(async () => {
  await gw?.close();
});

// ---- HTTP helpers ----------------------------------------------------------------------------------

function setCookies(res: Res): string[] {
  const raw = res.headers['set-cookie'] as unknown;
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
}

function cookieLine(res: Res, name: string): string | undefined {
  return setCookies(res).find((c) => c.startsWith(`${name}=`));
}

function cookieValue(res: Res, name: string): string | undefined {
  return cookieLine(res, name)
    ?.slice(name.length + 1)
    .split(';')[0];
}

function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field in the page');
  return m[1]!;
}

interface Attempt {
  ip: string;
  /** The value of the browser's device cookie, if it has one. */
  device?: string;
  headers?: Record<string, string>;
}

/** A sign-in from a browser at `ip`; its answer, its session cookie and its new device cookie. */
async function signIn(
  email: string,
  password: string,
  { ip, device, headers = {} }: Attempt,
): Promise<{ res: Res; session?: string; device?: string }> {
  const form = await request(gw.http).get('/dashboard/sign-in').set('X-Forwarded-For', ip);
  const csrf = cookieValue(form, 'ppfile_csrf')!;
  const cookies = [`ppfile_csrf=${csrf}`, ...(device ? [`ppfile_device=${device}`] : [])];
  const res = await request(gw.http)
    .post('/dashboard/sign-in')
    .set('X-Forwarded-For', ip)
    .set(headers)
    .set('Cookie', cookies.join('; '))
    .type('form')
    .send({ _csrf: csrfOf(form.text), email, password });
  return { res, session: cookieValue(res, 'ppfile_session'), device: cookieValue(res, 'ppfile_device') };
}

/** An invitation for a new person of the organization: its path. */
async function invitation(email: string): Promise<string> {
  const { token } = await gw.stores.users.createWithInvitation({ organizationId: orgId, email });
  return `/dashboard/invite/${token}`;
}

/** Posts the invitation form with `password` (in `lang`); the answer. */
async function acceptInvitation(path: string, password: string, lang = 'en'): Promise<Res> {
  const form = await request(gw.http).get(path).set('Cookie', `ppfile_lang=${lang}`);
  expect(form.status).toBe(200);
  const csrf = cookieValue(form, 'ppfile_csrf')!;
  return request(gw.http)
    .post(path)
    .set('Cookie', `ppfile_csrf=${csrf}; ppfile_lang=${lang}`)
    .type('form')
    .send({ _csrf: csrfOf(form.text), password, confirmation: password });
}

/** A person with a password set through their invitation. */
async function person(email: string): Promise<void> {
  expect((await acceptInvitation(await invitation(email), PASSWORD)).status).toBe(303);
}

/** Posts the password form of a signed-in browser. */
async function changePassword(
  session: string,
  fields: { current: string; password: string },
  { ip, device, lang = 'en' }: { ip: string; device?: string; lang?: string },
): Promise<Res> {
  const cookies = [
    `ppfile_session=${session}`,
    `ppfile_lang=${lang}`,
    ...(device ? [`ppfile_device=${device}`] : []),
  ];
  const page = await request(gw.http).get('/dashboard/account').set('Cookie', cookies.join('; '));
  expect(page.status).toBe(200);
  return request(gw.http)
    .post('/dashboard/account/password')
    .set('X-Forwarded-For', ip)
    .set('Cookie', cookies.join('; '))
    .type('form')
    .send({ _csrf: csrfOf(page.text), ...fields, confirmation: fields.password });
}

// ---- finding 8: lockout -------------------------------------------------------------------------------

describe('sign-in throttling with device cookies (finding 8)', () => {
  const email = 'locked.out@hostile.example';
  let deviceA = '';
  let deviceB = '';

  beforeAll(async () => {
    await person(email);
    // Two browsers the person signed in with before: each now holds a device cookie.
    const a = await signIn(email, PASSWORD, { ip: '198.51.100.1' });
    const b = await signIn(email, PASSWORD, { ip: '198.51.100.2' });
    expect([a.res.status, b.res.status]).toEqual([303, 303]);
    deviceA = a.device!;
    deviceB = b.device!;
  });

  it('a successful sign-in gives the browser a signed, long-lived device cookie (__Host- over HTTPS)', async () => {
    const plain = await signIn(email, PASSWORD, { ip: '198.51.100.3' });
    expect(cookieLine(plain.res, 'ppfile_device')).toMatch(
      /^ppfile_device=[0-9a-z]+-[0-9a-f]{32}-[0-9a-f]{32}; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=31536000$/,
    );
    expect(plain.device).not.toContain('hostile');

    const form = await request(gw.http).get('/dashboard/sign-in').set('X-Forwarded-Proto', 'https');
    const csrf = cookieValue(form, '__Host-ppfile_csrf')!;
    const secure = await request(gw.http)
      .post('/dashboard/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-For', '198.51.100.4')
      .set('Cookie', `__Host-ppfile_csrf=${csrf}`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password: PASSWORD });
    expect(secure.status).toBe(303);
    expect(cookieLine(secure, '__Host-ppfile_device')).toMatch(
      /^__Host-ppfile_device=[0-9a-z]+-[0-9a-f]{32}-[0-9a-f]{32}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=31536000; Secure$/,
    );
  });

  it('10 strangers failing from 10 addresses: a new browser is refused (429) even with the right password; a known one signs in', async () => {
    for (let i = 0; i < 10; i++) {
      const guess = await signIn(email, `guess number ${i}`, { ip: `203.0.113.${i + 1}` });
      expect({ i, status: guess.res.status }).toEqual({ i, status: 401 });
    }
    const stranger = await signIn(email, PASSWORD, { ip: '203.0.113.99' });
    expect(stranger.res.status).toBe(429);
    expect(stranger.session).toBeUndefined();
    expect(Number(stranger.res.headers['retry-after'])).toBeGreaterThan(800);
    expect(stranger.res.text).toContain('Too many failed sign-ins.');
    // A device cookie of another account, or an altered one, is no device cookie.
    const other = 'someone.else@hostile.example';
    await person(other);
    const foreign = (await signIn(other, PASSWORD, { ip: '198.51.100.9' })).device!;
    expect((await signIn(email, PASSWORD, { ip: '203.0.113.99', device: foreign })).res.status).toBe(429);
    const altered = deviceA.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    expect((await signIn(email, PASSWORD, { ip: '203.0.113.99', device: altered })).res.status).toBe(429);

    // The person's browser, from any address (the strangers' ones too): signed in, a new device cookie.
    const known = await signIn(email, PASSWORD, { ip: '203.0.113.1', device: deviceA });
    expect(known.res.status).toBe(303);
    expect(known.session).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(
      (await request(gw.http).get('/dashboard').set('Cookie', `ppfile_session=${known.session}`)).status,
    ).toBe(200);
    expect(known.device).toBeDefined();
    expect(known.device).not.toBe(deviceA);
    deviceA = known.device!;
  });

  it('a device cookie failing 5 times is locked for the window (429 even with the right password); the other browser is not', async () => {
    for (let i = 0; i < 5; i++) {
      const wrong = await signIn(email, `typo ${i}`, { ip: '198.51.100.2', device: deviceB });
      expect({ i, status: wrong.res.status }).toEqual({ i, status: 401 });
    }
    const locked = await signIn(email, PASSWORD, { ip: '198.51.100.2', device: deviceB });
    expect(locked.res.status).toBe(429);
    const retryAfter = Number(locked.res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect((await signIn(email, PASSWORD, { ip: '198.51.100.2', device: deviceA })).res.status).toBe(303);
    // Counted in Redis under QUEUE_PREFIX, by digests: no address, e-mail or cookie in the keys.
    const keys = await gw.redis.keys(`${gw.config.queue.prefix}:dashboard:{opauth}:*`);
    expect(keys.some((k) => k.includes(':{opauth}:device:'))).toBe(true);
    expect(keys.join(' ')).not.toContain(email);
    expect(keys.join(' ')).not.toContain(deviceB.split('-')[1]);
    // After the window, the locked cookie signs in again.
    gw.clock.advance(retryAfter * 1000);
    expect((await signIn(email, PASSWORD, { ip: '198.51.100.2', device: deviceB })).res.status).toBe(303);
  });

  it('the password form follows the same rules: a wrong current password counts under the device, or under the e-mail without one', async () => {
    const session = (await signIn(email, PASSWORD, { ip: '198.51.100.5' })).session!;
    // Strangers lock the e-mail again for untrusted clients.
    for (let i = 0; i < 10; i++) await signIn(email, `again ${i}`, { ip: `192.0.2.${i + 1}` });
    expect((await signIn(email, PASSWORD, { ip: '192.0.2.99' })).res.status).toBe(429);
    // A signed-in browser without its device cookie is an untrusted client: the form answers 429.
    const untrusted = await changePassword(
      session,
      { current: PASSWORD, password: 'a new passphrase for spring' },
      { ip: '198.51.100.5' },
    );
    expect(untrusted.status).toBe(429);
    expect(untrusted.text).toContain('Too many failed sign-ins.');
    // With it: a wrong current password counts against that browser only, then the change goes through.
    const wrong = await changePassword(
      session,
      { current: 'not my password', password: 'a new passphrase for spring' },
      { ip: '198.51.100.5', device: deviceA },
    );
    expect(wrong.status).toBe(400);
    expect(wrong.text).toContain('The current password is wrong.');
    const changed = await changePassword(
      session,
      { current: PASSWORD, password: 'a new passphrase for spring' },
      { ip: '198.51.100.5', device: deviceA },
    );
    expect(changed.status).toBe(303);
    expect(cookieValue(changed, 'ppfile_device')).toBeDefined();
    // Four more wrong current passwords lock that browser's device cookie.
    const fresh = cookieValue(changed, 'ppfile_session')!;
    const device = cookieValue(changed, 'ppfile_device')!;
    for (let i = 0; i < 5; i++)
      expect(
        (
          await changePassword(
            fresh,
            { current: `wrong ${i}`, password: 'another passphrase again' },
            { ip: '198.51.100.5', device },
          )
        ).status,
      ).toBe(400);
    const locked = await changePassword(
      fresh,
      { current: 'a new passphrase for spring', password: 'another passphrase again' },
      { ip: '198.51.100.5', device },
    );
    expect(locked.status).toBe(429);
  });
});

// ---- finding 9: weak passwords ------------------------------------------------------------------------

describe('weak new passwords are refused, with their reason in English and French (finding 9)', () => {
  const email = 'weak.passwords@hostile.example';
  type Problem = 'blank' | 'repeated' | 'sequence' | 'common' | 'contains_email';
  /** Each class of weak password, for a person whose address starts with `local`. */
  const cases = (local: string): [string, Problem][] => [
    [' '.repeat(12), 'blank'],
    ['aaaaaaaaaaaa', 'repeated'],
    ['abcabcabcabc', 'repeated'],
    ['121212121212', 'repeated'],
    ['123456789012', 'sequence'],
    ['abcdefghijkl', 'sequence'],
    ['azertyuiop12', 'common'],
    ['Password2026!', 'common'],
    [`${local.toUpperCase()} 2026`, 'contains_email'],
  ];

  it.each(['en', 'fr'] as const)('on the invitation page (%s)', async (lang) => {
    const path = await invitation(`${lang}.${email}`);
    for (const [password, problem] of cases(`${lang}.weak.passwords`)) {
      const res = await acceptInvitation(path, password, lang);
      const message = MESSAGES[lang].password[problem];
      expect({ password, status: res.status }).toEqual({ password, status: 400 });
      expect({ password, shown: res.text.includes(escapeHtml(message)) }).toEqual({ password, shown: true });
      expect(cookieValue(res, 'ppfile_session')).toBeUndefined();
    }
    // Nothing was set: the link still works, with a good password.
    expect((await acceptInvitation(path, PASSWORD, lang)).status).toBe(303);
  });

  it.each(['en', 'fr'] as const)('on the password change page (%s)', async (lang) => {
    const owner = `change.${lang}.${email}`;
    await person(owner);
    const signedIn = await signIn(owner, PASSWORD, { ip: `198.51.100.${lang === 'en' ? 60 : 61}` });
    for (const [password, problem] of cases(`change.${lang}.weak.passwords`)) {
      const res = await changePassword(
        signedIn.session!,
        { current: PASSWORD, password },
        { ip: '198.51.100.62', device: signedIn.device, lang },
      );
      const message = MESSAGES[lang].password[problem];
      expect({ password, status: res.status }).toEqual({ password, status: 400 });
      expect({ password, shown: res.text.includes(escapeHtml(message)) }).toEqual({ password, shown: true });
    }
    // The password did not change.
    expect((await signIn(owner, PASSWORD, { ip: '198.51.100.63' })).res.status).toBe(303);
  });
});

// ---- finding 10c: login CSRF --------------------------------------------------------------------------

describe('form posts from another site and planted pre-session cookies (finding 10c)', () => {
  const email = 'origin.check@hostile.example';
  const PUBLIC_ORIGIN = 'http://ppfile.test';

  beforeAll(async () => {
    expect(gw.config.publicBaseUrl).toBe(PUBLIC_ORIGIN);
    await person(email);
  });

  it('the pre-session CSRF cookie is __Host-ppfile_csrf over HTTPS; a bare one (plantable) is not taken there', async () => {
    const form = await request(gw.http).get('/dashboard/sign-in').set('X-Forwarded-Proto', 'https');
    expect(cookieLine(form, '__Host-ppfile_csrf')).toMatch(
      /^__Host-ppfile_csrf=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(cookieLine(form, 'ppfile_csrf')).toBeUndefined();
    // An attacker who planted `ppfile_csrf` (a sibling subdomain, a plain-HTTP answer) and knows its
    // value cannot pass the double submit over HTTPS.
    const planted = 'A'.repeat(32);
    const res = await request(gw.http)
      .post('/dashboard/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', `ppfile_csrf=${planted}`)
      .type('form')
      .send({ _csrf: planted, email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.text).toContain('Request refused');
  });

  it('sign-in, invitation and signed-in forms from another site: 403 (the dashboard’s page) whatever their token', async () => {
    const foreign: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://ppfile.test.evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'same-site' },
      { Origin: PUBLIC_ORIGIN, 'Sec-Fetch-Site': 'same-site' },
    ];
    const signedIn = await signIn(email, PASSWORD, { ip: '198.51.100.70' });
    const keys = await request(gw.http)
      .get('/dashboard/keys')
      .set('Cookie', `ppfile_session=${signedIn.session}`);
    const keysBefore = await gw.stores.apiKeys.listApiKeys(orgId);
    const path = await invitation('not.yet@hostile.example');
    for (const headers of foreign) {
      const login = await signIn(email, PASSWORD, { ip: '198.51.100.71', headers });
      expect({ headers, status: login.res.status }).toEqual({ headers, status: 403 });
      expect(login.res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(login.res.text).toContain('Request refused');
      expect(login.session).toBeUndefined();

      const form = await request(gw.http).get(path);
      const invite = await request(gw.http)
        .post(path)
        .set(headers)
        .set('Cookie', `ppfile_csrf=${cookieValue(form, 'ppfile_csrf')}`)
        .type('form')
        .send({ _csrf: csrfOf(form.text), password: PASSWORD, confirmation: PASSWORD });
      expect({ headers, status: invite.status }).toEqual({ headers, status: 403 });

      const create = await request(gw.http)
        .post('/dashboard/keys')
        .set(headers)
        .set('Cookie', `ppfile_session=${signedIn.session}`)
        .type('form')
        .send({ _csrf: csrfOf(keys.text), mode: 'live', name: 'from evil' });
      expect({ headers, status: create.status }).toEqual({ headers, status: 403 });
    }
    expect(await gw.stores.apiKeys.listApiKeys(orgId)).toEqual(keysBefore);
    expect((await request(gw.http).get(path)).status).toBe(200);
    const refused = suiteLogs.entries('access').filter((e) => e.status === 403 && e.code === 'CSRF_REJECTED');
    expect(refused.length).toBeGreaterThanOrEqual(foreign.length * 3);
  });

  it('our own origin is accepted: PUBLIC_BASE_URL’s, or the one the request was sent to (behind the trusted proxy)', async () => {
    const own = await signIn(email, PASSWORD, {
      ip: '198.51.100.72',
      headers: { Origin: PUBLIC_ORIGIN, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(own.res.status).toBe(303);
    // What Chromium sends for the dashboard's own forms (its pages are Referrer-Policy: no-referrer).
    const nullOrigin = await signIn(email, PASSWORD, {
      ip: '198.51.100.72',
      headers: { Origin: 'null', 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(nullOrigin.res.status).toBe(303);
    // The origin the browser was on, as the proxy forwards it: scheme and host.
    const form = await request(gw.http)
      .get('/dashboard/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'dashboard.acme.example');
    const proxied = await request(gw.http)
      .post('/dashboard/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('X-Forwarded-Host', 'dashboard.acme.example')
      .set('X-Forwarded-For', '198.51.100.73')
      .set('Origin', 'https://dashboard.acme.example')
      .set('Sec-Fetch-Site', 'same-origin')
      .set('Cookie', `__Host-ppfile_csrf=${cookieValue(form, '__Host-ppfile_csrf')}`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email, password: PASSWORD });
    expect(proxied.status).toBe(303);
    expect(cookieValue(proxied, '__Host-ppfile_session')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Another scheme of that host is another origin.
    const http = await signIn(email, PASSWORD, {
      ip: '198.51.100.74',
      headers: {
        Origin: 'http://dashboard.acme.example',
        'X-Forwarded-Proto': 'https',
        'X-Forwarded-Host': 'dashboard.acme.example',
      },
    });
    expect(http.res.status).toBe(403);
    // Without Origin or Sec-Fetch-Site (curl, older browsers) the CSRF token alone decides, as before.
    expect((await signIn(email, PASSWORD, { ip: '198.51.100.75' })).res.status).toBe(303);
  });
});

describe('logs', () => {
  it('no e-mail address, password or device cookie in any log line', () => {
    const everything = suiteLogs.lines.join('\n');
    for (const secret of [
      '@hostile.example',
      PASSWORD,
      'guess number',
      'a new passphrase for spring',
      'Password2026!',
    ])
      expect({ secret, logged: everything.includes(secret) }).toEqual({ secret, logged: false });
    expect(everything).not.toMatch(/[0-9a-z]+-[0-9a-f]{32}-[0-9a-f]{32}/);
    // Refused before routing (a form from another site), a path is still logged by its template.
    const routes = suiteLogs.entries('access').map((e) => String(e.route));
    expect(routes).toContain('/dashboard/invite/:token');
    expect(routes.filter((r) => /[A-Za-z0-9_-]{43}/.test(r))).toEqual([]);
    const signIns = suiteLogs.entries().filter((e) => e.event === 'sign_in');
    expect(signIns.some((e) => e.trusted_device === true)).toBe(true);
  });
});
