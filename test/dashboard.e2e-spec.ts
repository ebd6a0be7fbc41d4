import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { ReferenceDirectory } from '@ppfile/refdata';
import { generateFile, validateCsv } from '@ppfile/rules';
import { NIR_A, NIR_B, validBody } from '@ppfile/rules/testing/fixtures';
import type { Locator } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser';
import { startGateway, type Gateway } from './support/gateway';
import { suiteLogs } from './support/logs';
import { runCli } from './support/cli';
import { assertBuilt } from './support/worker';

/**
 * The organizations' dashboard (issue 12, API.md §12) end to end: the operator's
 * `admin user create`, then a person in Debian's Chromium (headless, through playwright-core)
 * against a gateway listening on a real port with the machine's PostgreSQL and Redis and s3rver —
 * invitation, sign-in, keys created in the page and used by the API, usage and files moving, a
 * download, a revocation the API then refuses, Try it with an invalid CSV and its error report,
 * the French pages, sign-out — and the refusals over HTTP: wrong password, CSRF, another
 * organization's ids, throttled sign-in, ended sessions. Each page is screenshotted (the directory
 * is printed; PPFILE_SCREENSHOTS adds a copy there).
 */
jest.setTimeout(180_000);

const ROOT = path.resolve(__dirname, '..');
const BUILT_ADMIN = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'commands', 'admin.js');
const PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'a brand new passphrase 2026';
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** What the page functions below use of the browser (the tests compile without the DOM's types). */
interface BrowserGlobals {
  DataTransfer: new () => { items: { add(file: unknown): void } };
  File: new (parts: string[], name: string, options: { type: string }) => unknown;
  navigator: { clipboard: { readText(): Promise<string> } };
}

let gw: Gateway;
let base: string;
let browser: Browser | undefined;
let orgA: { id: string; live: string; test: string; liveId: string; testId: string };
let orgB: { id: string; live: string; test: string; liveId: string; testId: string };
const emailA = 'claire.martin@acme-formation.example';
const emailB = 'paul@other.example';
let userACreated = false;
let inviteLink = '';

interface Run {
  status: number | null;
  out: string;
  err: string;
}

/** `node bin/ppfile.js …` against the test gateway's database: in process (support/cli.ts). */
function cli(args: string[], env: Record<string, string> = {}): Run {
  const r = runCli(args, { env: { ...process.env, DATABASE_URL: gw.db.url, PUBLIC_BASE_URL: base, ...env } });
  return { status: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
}

beforeAll(async () => {
  assertBuilt('cli', BUILT_ADMIN);
  // Loopback is a trusted proxy here: the tests speak for other client addresses (X-Forwarded-For)
  // and for HTTPS (X-Forwarded-Proto), as an ingress would.
  gw = await startGateway({ trustProxy: ['loopback'] });
  await gw.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
  orgA = await gw.organization('starter', 'Acme Formation');
  orgB = await gw.organization('pro', 'Other Org');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
});

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A body of `holders` holders whose NIRs are the fixtures' (the log audit looks for them). */
function body(
  holders: number,
  declarant: 'employer' | 'training_organization' = 'training_organization',
): Json {
  const b: Json = validBody('adf', declarant, holders);
  b.declarations[0].holders.forEach((h: Json, i: number) => (h.unique_id = `DASH-${Date.now()}-${i}`));
  return { ...b, options: { store: true } };
}

/** An official CSV with errors on rows 2 to 5 (bad NIR, impossible date, missing name, NIR of letters). */
function invalidCsv(): string {
  const file = generateFile(validBody('adf', 'training_organization', 6), {
    refs: new ReferenceDirectory(null).lists('2026-02'),
  });
  const lines = file.content.toString('utf8').split('\r\n');
  const header = lines[0]!.split('|');
  const col = (name: string) => header.indexOf(name);
  const set = (line: number, name: string, value: string) => {
    const cells = lines[line]!.split('|');
    cells[col(name)] = value;
    lines[line] = cells.join('|');
  };
  set(1, 'NIR', '2550814168');
  set(2, 'DATE_DEBUT_VALIDITE', '31/02/2026');
  set(3, 'NOM_TITULAIRE', '');
  set(4, 'NIR', 'ABCDEFGHIJKLM');
  return lines.join('\r\n');
}

/** An element's text as a person reads it: the templates' line breaks and indentation folded (not U+202F). */
async function text(locator: Locator): Promise<string> {
  return ((await locator.textContent()) ?? '').replace(/[\t\n\r ]+/g, ' ').trim();
}

// ---- HTTP helpers -----------------------------------------------------------------------------------

function setCookies(res: request.Response): string[] {
  const raw = res.headers['set-cookie'] as unknown;
  return Array.isArray(raw) ? (raw as string[]) : typeof raw === 'string' ? [raw] : [];
}

function cookieValue(res: request.Response, name: string): string | undefined {
  const line = setCookies(res).find((c) => c.startsWith(`${name}=`));
  return line ? line.slice(name.length + 1).split(';')[0] : undefined;
}

function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error('no CSRF field in the page');
  return m[1]!;
}

/** Signs in over HTTP (another browser); the session cookie header, or the refused answer. */
async function signIn(
  email: string,
  password: string,
  ip = '198.51.100.7',
): Promise<{ res: request.Response; cookie?: string }> {
  const form = await request(gw.http).get('/dashboard/sign-in').set('X-Forwarded-For', ip);
  const pre = cookieValue(form, 'ppfile_csrf')!;
  const res = await request(gw.http)
    .post('/dashboard/sign-in')
    .set('X-Forwarded-For', ip)
    .set('Cookie', `ppfile_csrf=${pre}`)
    .type('form')
    .send({ _csrf: csrfOf(form.text), email, password });
  const session = cookieValue(res, 'ppfile_session');
  return { res, cookie: session ? `ppfile_session=${session}` : undefined };
}

/** A signed-in page and the CSRF token of its forms. */
async function page(cookie: string, url: string): Promise<{ res: request.Response; csrf: string }> {
  const res = await request(gw.http).get(url).set('Cookie', cookie);
  return { res, csrf: res.status === 200 ? csrfOf(res.text) : '' };
}

/** An invited, activated user of an organization (through the store, as the CLI does). */
async function activatedUser(organizationId: string, email: string, password = PASSWORD): Promise<string> {
  const { token } = await gw.stores.users.createWithInvitation({ organizationId, email });
  const form = await request(gw.http).get(`/dashboard/invite/${token}`);
  const pre = cookieValue(form, 'ppfile_csrf')!;
  const res = await request(gw.http)
    .post(`/dashboard/invite/${token}`)
    .set('Cookie', `ppfile_csrf=${pre}`)
    .type('form')
    .send({ _csrf: csrfOf(form.text), password, confirmation: password });
  expect(res.status).toBe(303);
  return `ppfile_session=${cookieValue(res, 'ppfile_session')}`;
}

// ---- the operator's command -------------------------------------------------------------------------

describe('npx ppfile admin user create', () => {
  it('prints the invitation link alone on stdout, the rest on stderr; --json gives every field', async () => {
    const plain = cli(['admin', 'user', 'create', '--org', orgA.id, '--email', ` ${emailA.toUpperCase()} `]);
    expect(plain.status).toBe(0);
    expect(plain.out).toMatch(
      new RegExp(`^${base.replace(/[.:/]/g, '\\$&')}/dashboard/invite/[A-Za-z0-9_-]{43}\\n$`),
    );
    expect(plain.err).toMatch(/^usr_[0-9a-f]{24} \(claire\.martin@acme-formation\.example\): send this link/);
    userACreated = true;
    inviteLink = plain.out.trim();

    const json = cli(['admin', 'user', 'create', '--org', orgB.id, '--email', emailB, '--json']);
    expect(json.status).toBe(0);
    const created = JSON.parse(json.out) as Json;
    expect(created).toEqual({
      id: expect.stringMatching(/^usr_[0-9a-f]{24}$/),
      organization_id: orgB.id,
      email: emailB,
      invitation_url: expect.stringMatching(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}$/),
      expires_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    // 7 days.
    const days = (Date.parse(created.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7.01);
    // Only the token's hash is stored.
    const token = created.invitation_url.split('/').pop();
    const rows = await gw.prisma.user.findMany({ select: { invitationHash: true, passwordHash: true } });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.every((r) => r.passwordHash === null && /^[0-9a-f]{64}$/.test(r.invitationHash ?? ''))).toBe(
      true,
    );
  });

  it('refuses in one line (exit 2): a second user with the same address, an unknown organization, a bad address, a missing option', () => {
    const oneLine = (r: Run, pattern: RegExp) => {
      expect(r.status).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(pattern);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    };
    oneLine(cli(['admin', 'user', 'create', '--org', orgB.id, '--email', emailA]), /already exists/);
    oneLine(
      cli(['admin', 'user', 'create', '--org', 'org_000000000000000000000000', '--email', 'x@y.example']),
      /unknown organization/,
    );
    oneLine(
      cli(['admin', 'user', 'create', '--org', orgA.id, '--email', 'not an address']),
      /--email expects an e-mail address/,
    );
    oneLine(cli(['admin', 'user', 'create', '--org', orgA.id]), /--email is required/);
  });

  it("reinvite prints a new link (the earlier one stops working); remove ends the person's access; both refuse an unknown address", async () => {
    const email = 'leaving@acme-formation.example';
    const first = cli(['admin', 'user', 'create', '--org', orgA.id, '--email', email, '--json']);
    const firstLink = (JSON.parse(first.out) as Json).invitation_url as string;
    const again = cli(['admin', 'user', 'reinvite', '--email', email]);
    expect(again.status).toBe(0);
    expect(again.out).toMatch(/\/dashboard\/invite\/[A-Za-z0-9_-]{43}\n$/);
    expect(again.out.trim()).not.toBe(firstLink);
    expect(again.err).toContain('send this link');
    const path = (link: string) => new URL(link).pathname;
    expect((await request(gw.http).get(path(firstLink))).status).toBe(404);
    expect((await request(gw.http).get(path(again.out.trim()))).status).toBe(200);

    const removed = cli(['admin', 'user', 'remove', '--email', email, '--json']);
    expect(removed.status).toBe(0);
    expect(JSON.parse(removed.out)).toMatchObject({ email, organization_id: orgA.id, removed: true });
    expect((await request(gw.http).get(path(again.out.trim()))).status).toBe(404);
    for (const verb of ['reinvite', 'remove']) {
      const r = cli(['admin', 'user', verb, '--email', email]);
      expect([r.status, r.err.trim()]).toEqual([2, `ppfile admin user ${verb}: unknown user "${email}"`]);
    }
  });
});

describe('users and sessions in PostgreSQL (libs/db)', () => {
  it('an invitation works once, even used concurrently, and not after it expires', async () => {
    const { token, user } = await gw.stores.users.createWithInvitation({
      organizationId: orgB.id,
      email: 'race@other.example',
    });
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => gw.stores.users.acceptInvitation(token, `scrypt$hash-${i}`)),
    );
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    await expect(gw.stores.users.findByInvitation(token)).resolves.toBeNull();
    const stored = await gw.stores.users.get(user.id);
    expect(stored!.passwordHash).toMatch(/^scrypt\$hash-\d$/);

    const short = await gw.stores.users.createWithInvitation({
      organizationId: orgB.id,
      email: 'late@other.example',
      ttlMs: 1000,
    });
    await expect(gw.stores.users.findByInvitation(short.token)).resolves.toMatchObject({
      email: 'late@other.example',
      organization: { id: orgB.id, plan: 'pro' },
    });
    gw.clock.advance(1500);
    await expect(gw.stores.users.findByInvitation(short.token)).resolves.toBeNull();
    await expect(gw.stores.users.acceptInvitation(short.token, 'scrypt$x')).resolves.toBeNull();
    await expect(gw.stores.users.findByInvitation('not-a-token')).resolves.toBeNull();
  });

  it('sessions: resumed while live, purged when ended, deleted per user', async () => {
    const { user } = await gw.stores.users.createWithInvitation({
      organizationId: orgB.id,
      email: 'sessions@other.example',
    });
    const limits = { lifetimeMs: 10 * 60_000, idleMs: 2 * 60_000 };
    const a = await gw.stores.sessions.create(user.id, limits);
    const b = await gw.stores.sessions.create(user.id, limits);
    expect(a.id).not.toBe(b.id);
    await expect(gw.stores.sessions.resume(a.token, limits)).resolves.toMatchObject({
      userId: user.id,
      organization: { id: orgB.id },
    });
    gw.clock.advance(90_000);
    await expect(gw.stores.sessions.resume(a.token, limits)).resolves.not.toBeNull();
    gw.clock.advance(90_000);
    // a was seen 90 s ago, b 180 s ago: b is idle past 2 minutes.
    await expect(gw.stores.sessions.resume(b.token, limits)).resolves.toBeNull();
    await expect(gw.stores.sessions.purgeEnded(user.id, limits)).resolves.toBe(1);
    await expect(gw.stores.sessions.countForUser(user.id)).resolves.toBe(1);
    await expect(gw.stores.sessions.deleteForUser(user.id)).resolves.toBe(1);
    await expect(gw.stores.sessions.resume(a.token, limits)).resolves.toBeNull();
  });

  it('a new invitation drops the password, the sessions and the earlier link; removal ends the sessions too', async () => {
    const users = gw.stores.users;
    const limits = { lifetimeMs: 10 * 60_000, idleMs: 2 * 60_000 };
    const first = await users.createWithInvitation({
      organizationId: orgB.id,
      email: 'forgot@other.example',
    });
    await users.acceptInvitation(first.token, 'scrypt$old');
    const session = await gw.stores.sessions.create(first.user.id, limits);

    const again = await users.reinvite(' FORGOT@other.example ');
    expect(again.user).toMatchObject({ id: first.user.id, passwordHash: null });
    await expect(gw.stores.sessions.resume(session.token, limits)).resolves.toBeNull();
    await expect(users.findByInvitation(first.token)).resolves.toBeNull();
    await expect(users.acceptInvitation(again.token, 'scrypt$new')).resolves.toMatchObject({
      passwordHash: 'scrypt$new',
    });

    const kept = await gw.stores.sessions.create(first.user.id, limits);
    await expect(users.remove('forgot@other.example')).resolves.toMatchObject({ id: first.user.id });
    await expect(users.get(first.user.id)).resolves.toBeNull();
    await expect(gw.stores.sessions.resume(kept.token, limits)).resolves.toBeNull();
    await expect(users.remove('forgot@other.example')).rejects.toThrow('unknown user');
    await expect(users.reinvite('nobody@other.example')).rejects.toThrow('unknown user');
  });
});

// ---- a person in a browser --------------------------------------------------------------------------

describe('the dashboard in Chromium', () => {
  let testKey = '';
  let liveKey = '';
  let testFileId = '';
  let liveFileId = '';

  beforeAll(async () => {
    expect(userACreated).toBe(true);
    browser = await launchBrowser();
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    process.stdout.write(`dashboard screenshots: ${browser.screenshotDir}\n`);
  });

  it('the invitation link sets a password and signs in; the home page welcomes', async () => {
    const page = browser!.page;
    await page.goto(inviteLink);
    await expect(text(page.locator('h1'))).resolves.toBe('Set your password');
    await expect(page.locator('#email').inputValue()).resolves.toBe(emailA);
    await browser!.screenshot('invitation');
    // A mismatch is said, nothing is set.
    await page.fill('#password', PASSWORD);
    await page.fill('#confirmation', `${PASSWORD}!`);
    await page.click('button[type=submit]');
    await expect(text(page.locator('.alert.error'))).resolves.toContain('The two passwords differ.');
    await page.fill('#password', PASSWORD);
    await page.fill('#confirmation', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard?welcome=1`);
    await expect(text(page.locator('.alert.ok'))).resolves.toContain('Your password is set');
    await expect(text(page.locator('#this-month .stat-value'))).resolves.toBe('0 of 2,000 units');
    await browser!.screenshot('usage-new-organization');
    // The link worked once.
    const again = await request(gw.http).get(new URL(inviteLink).pathname);
    expect(again.status).toBe(404);
    expect(again.text).toContain('Invitation link not valid');
  });

  it('signs out, refuses a wrong password, signs in again', async () => {
    const page = browser!.page;
    await page.click('header button:has-text("Sign out")');
    await page.waitForURL(`${base}/dashboard/sign-in?signed_out=1`);
    await expect(text(page.locator('.alert'))).resolves.toContain('You are signed out.');
    await page.goto(`${base}/dashboard/keys`);
    await page.waitForURL(/\/dashboard\/sign-in\?next=%2Fdashboard%2Fkeys$/);
    await page.fill('#email', emailA);
    await page.fill('#password', 'not the password');
    await page.click('button[type=submit]');
    await expect(text(page.locator('.alert.error'))).resolves.toBe('Wrong e-mail address or password.');
    await expect(page.locator('#email').inputValue()).resolves.toBe(emailA);
    await browser!.screenshot('sign-in-wrong-password');
    await page.fill('#password', PASSWORD);
    await page.click('button[type=submit]');
    await page.waitForURL(`${base}/dashboard/keys`);
  });

  it('creates a test key and a live key; each secret is shown once, with a copy button', async () => {
    const page = browser!.page;
    await expect(text(page.locator('h1'))).resolves.toBe('API keys');
    // The organization's keys made by the operator are listed (never their secrets).
    await expect(page.locator(`tr[data-key-id="${orgA.liveId}"]`).count()).resolves.toBe(1);
    await page.fill('#key-name', 'CI <test> key');
    await page.check('input[name=mode][value=test]');
    await page.click('#create button[type=submit]');
    testKey = (await page.locator('#new-key').textContent())!.trim();
    expect(testKey).toMatch(/^pp_test_[A-Za-z0-9]{40}$/);
    await expect(text(page.locator('.alert.warn'))).resolves.toContain('shown only once');
    await page.click('button[data-copy]');
    await page.locator('button[data-copy]', { hasText: 'Copied' }).waitFor();
    await expect(
      page.evaluate(() => (globalThis as unknown as BrowserGlobals).navigator.clipboard.readText()),
    ).resolves.toBe(testKey);
    await browser!.screenshot('key-created');
    await page.click('text=I have stored it');
    await page.waitForURL(`${base}/dashboard/keys`);
    const row = page.locator('tr', { hasText: 'CI <test> key' });
    await expect(text(row.locator('code'))).resolves.toBe(`${testKey.slice(0, 12)}…`);
    expect(await page.content()).not.toContain(testKey);

    await page.fill('#key-name', 'payroll');
    await page.check('input[name=mode][value=live]');
    await page.click('#create button[type=submit]');
    liveKey = (await page.locator('#new-key').textContent())!.trim();
    expect(liveKey).toMatch(/^pp_live_[A-Za-z0-9]{40}$/);
    await page.goto(`${base}/dashboard/keys`);
    await browser!.screenshot('keys');
  });

  it('the API takes the new keys; usage and files move on the pages', async () => {
    const test = await request(gw.http).post('/v1/files/generate').set(bearer(testKey)).send(body(3));
    expect(test.status).toBe(200);
    expect(test.body.mode).toBe('test');
    testFileId = test.body.file_id;
    const live = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(liveKey))
      .send(body(7, 'employer'));
    expect(live.status).toBe(200);
    liveFileId = live.body.file_id;

    const page = browser!.page;
    await page.goto(`${base}/dashboard`);
    await expect(text(page.locator('#this-month .stat-value'))).resolves.toBe('7 of 2,000 units');
    await expect(text(page.locator('[data-test-rows]'))).resolves.toBe('3');
    await expect(page.locator('svg.chart rect.bar.current').count()).resolves.toBe(1);
    await browser!.screenshot('usage');

    await page.click('nav >> text=Files');
    await page.waitForURL(`${base}/dashboard/files`);
    for (const id of [testFileId, liveFileId]) {
      const row = page.locator(`tr[data-file-id="${id}"]`);
      await expect(text(row.locator('.badge.available'))).resolves.toBe('Available');
      await expect(text(row.locator('[data-expires]'))).resolves.toMatch(/^in (23 h \d\d min|1 d 0 h)$/);
    }
    await expect(text(page.locator(`tr[data-file-id="${liveFileId}"] td.num`))).resolves.toBe('7');
    await browser!.screenshot('files');

    // The key pages show when each key was last used.
    await page.goto(`${base}/dashboard/keys`);
    await expect(text(page.locator('tr', { hasText: 'payroll' }).locator('td').nth(4))).resolves.toBe(
      'just now',
    );
  });

  it('downloads a file for the organization, byte for byte what the API serves its creating key', async () => {
    const page = browser!.page;
    await page.goto(`${base}/dashboard/files`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`tr[data-file-id="${testFileId}"] a:has-text("Download")`),
    ]);
    const saved = readFileSync(await download.path());
    const api = await request(gw.http)
      .get(`/v1/files/${testFileId}/download`)
      .set(bearer(testKey))
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    expect(api.status).toBe(200);
    expect(saved.equals(api.body as Buffer)).toBe(true);
    expect(download.suggestedFilename()).toMatch(/^ppfile_adf_\d{8}_[0-9a-f]{8}\.csv$/);
    // The API's rule stays: another key of the same organization does not download it.
    expect((await request(gw.http).get(`/v1/files/${testFileId}/download`).set(bearer(liveKey))).status).toBe(
      404,
    );
    // The dashboard's download carries the API's headers.
    const cookies = await browser!.context.cookies(`${base}/dashboard`);
    const session = cookies.find((c) => c.name === 'ppfile_session')!;
    const direct = await request(gw.http)
      .get(`/dashboard/files/${testFileId}/download`)
      .set('Cookie', `ppfile_session=${session.value}`);
    expect(direct.status).toBe(200);
    expect(direct.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(direct.headers['content-disposition']).toMatch(
      /^attachment; filename="ppfile_adf_\d{8}_[0-9a-f]{8}\.csv"$/,
    );
    expect(direct.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(direct.headers['cache-control']).toBe('no-store');
  });

  it('revokes a key after a confirmation; the API refuses it (401)', async () => {
    const page = browser!.page;
    await page.goto(`${base}/dashboard/keys`);
    // Without the page's script, the server asks: the confirmation page.
    await page
      .locator(`tr[data-key-id="${orgA.testId}"] form`)
      .evaluate((f) => (f as unknown as { submit(): void }).submit());
    await page.waitForURL(new RegExp(`/dashboard/keys/${orgA.testId}/revoke$`));
    await expect(text(page.locator('h1'))).resolves.toBe('Revoke this key?');
    await browser!.screenshot('key-revoke-confirmation');
    await page.click('text=Cancel');
    await page.waitForURL(`${base}/dashboard/keys`);
    expect((await request(gw.http).get('/v1/spec').set(bearer(orgA.test))).status).toBe(200);

    // With it, a dialog: dismissed changes nothing, accepted revokes.
    const row = page.locator('tr', { hasText: 'CI <test> key' });
    page.once('dialog', (d) => void d.dismiss());
    await row.locator('button:has-text("Revoke")').click();
    expect((await request(gw.http).get('/v1/spec').set(bearer(testKey))).status).toBe(200);
    let message = '';
    page.once('dialog', (d) => {
      message = d.message();
      void d.accept();
    });
    await row.locator('button:has-text("Revoke")').click();
    await page.waitForURL(/\/dashboard\/keys\?revoked=key_[0-9a-f]{24}$/);
    expect(message).toContain('Revoke the key “CI <test> key”');
    await expect(text(page.locator('.alert.ok'))).resolves.toContain('was revoked');
    await expect(
      page.locator('tr', { hasText: 'CI <test> key' }).locator('.badge.revoked').count(),
    ).resolves.toBe(1);
    await browser!.screenshot('key-revoked');
    const refused = await request(gw.http).get('/v1/spec').set(bearer(testKey));
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('INVALID_API_KEY');
  });

  it('Try it: a dropped invalid CSV shows its errors by code and by column, and a downloadable report', async () => {
    const page = browser!.page;
    const csv = invalidCsv();
    const expected = validateCsv(
      Buffer.from(csv),
      { type: 'adf', declarant: 'training_organization' },
      { refs: new ReferenceDirectory(null).lists('2026-02'), maxRows: 50 },
    );
    expect(expected.valid).toBe(false);
    await page.goto(`${base}/dashboard/try`);
    await browser!.screenshot('try-it');
    // Drag and drop, as a person does.
    const transfer = await page.evaluateHandle((text) => {
      const w = globalThis as unknown as BrowserGlobals;
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([text], 'acme-session-sst.csv', { type: 'text/csv' }));
      return dt;
    }, csv);
    await page.dispatchEvent('.dropzone', 'dragenter', { dataTransfer: transfer });
    await expect(page.locator('.dropzone.dragging').count()).resolves.toBe(1);
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: transfer });
    await expect(text(page.locator('.dropzone .chosen'))).resolves.toContain('acme-session-sst.csv');
    await page.selectOption('#type', 'adf');
    await page.selectOption('#declarant', 'training_organization');
    await page.click('form.try-form button[type=submit]');
    await page.waitForSelector('#result');
    await expect(text(page.locator('#result h2'))).resolves.toBe('The file has errors.');
    await expect(page.locator('[data-error-count]').getAttribute('data-error-count')).resolves.toBe(
      String(expected.error_count),
    );
    const codes = (
      await page.locator('table[data-group="by-code"] tbody tr td:first-child').allTextContents()
    ).map((c) => c.trim());
    expect(codes.sort()).toEqual(Object.keys(expected.summary.by_code).sort());
    const columns = (
      await page.locator('table[data-group="by-column"] tbody tr td:first-child').allTextContents()
    ).map((c) => c.trim());
    expect(columns).toEqual(expect.arrayContaining(['NIR', 'DATE_DEBUT_VALIDITE', 'NOM_TITULAIRE']));
    const nirRows = await text(
      page.locator('table[data-group="by-column"] tr', { hasText: 'NIR' }).first().locator('.rowlist'),
    );
    expect(nirRows).toBe('2, 5');
    const html = await page.content();
    // The page never shows the file's values (only its filename, codes, columns, rows and messages).
    for (const value of [NIR_A, NIR_B, '2550814168', 'ABCDEFGHIJKLM']) expect(html).not.toContain(value);
    await browser!.screenshot('try-it-result');

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#error-report')]);
    expect(download.suggestedFilename()).toBe('acme-session-sst-errors.csv');
    const report = readFileSync(await download.path(), 'utf8');
    const lines = report
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe('row,column,code,message');
    expect(lines).toHaveLength(expected.errors.length + 1);
    expect(
      lines[1]!.startsWith(
        `${expected.errors[0]!.row},${expected.errors[0]!.column},${expected.errors[0]!.code},`,
      ),
    ).toBe(true);
    // Nothing was counted: still 7 units and 3 test rows this month.
    const usage = await gw.stores.ledger.month(orgA.id, new Date().toISOString().slice(0, 7));
    expect({ used: usage.used, testRows: usage.testRows }).toEqual({ used: 7, testRows: 3 });
  });

  it('Try it checks in the browser with a live key’s limits (51 rows are checked); an empty file is refused; a valid file is valid', async () => {
    const page = browser!.page;
    await page.goto(`${base}/dashboard/try`);
    await page.setInputFiles('#file', { name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
    await page.click('form.try-form button[type=submit]');
    // Checked like any file, it is the API's answer: the file is rejected as a whole (EMPTY_FILE).
    await page.waitForSelector('#result, #try-app [role=alert]');
    expect(await text(page.locator('#try-app'))).toContain('EMPTY_FILE');
    const big = generateFile(validBody('adf', 'employer', 51), {
      refs: new ReferenceDirectory(null).lists('2026-02'),
    }).content;
    await page.setInputFiles('#file', { name: 'big.csv', mimeType: 'text/csv', buffer: big });
    await page.selectOption('#declarant', 'employer');
    await page.click('form.try-form button[type=submit]');
    await expect(text(page.locator('#result h2'))).resolves.toBe('The file is valid.');
    await expect(text(page.locator('#result .counts div:first-child b'))).resolves.toBe('51');
    await expect(page.locator('#error-report').count()).resolves.toBe(0);
  });

  it('in French: the switch, then every page in French', async () => {
    const page = browser!.page;
    await page.goto(`${base}/dashboard/files`);
    await page.click('.lang a:has-text("FR")');
    await page.waitForURL(`${base}/dashboard/files`);
    await expect(page.locator('html').getAttribute('lang')).resolves.toBe('fr');
    await expect(text(page.locator('h1'))).resolves.toBe('Fichiers');
    await expect(text(page.locator(`tr[data-file-id="${liveFileId}"] [data-expires]`))).resolves.toMatch(
      /^dans /,
    );
    await page.goto(`${base}/dashboard`);
    await expect(text(page.locator('#this-month .stat-value'))).resolves.toBe('7 unités sur 2\u202f000');
    await browser!.screenshot('usage-fr');
    await page.goto(`${base}/dashboard/try`);
    const transfer = await page.evaluateHandle((text) => {
      const w = globalThis as unknown as BrowserGlobals;
      const dt = new w.DataTransfer();
      dt.items.add(new w.File([text], 'session.csv', { type: 'text/csv' }));
      return dt;
    }, invalidCsv());
    await page.dispatchEvent('.dropzone', 'drop', { dataTransfer: transfer });
    await page.click('form.try-form button[type=submit]');
    await expect(text(page.locator('#result h2'))).resolves.toBe('Le fichier contient des erreurs.');
    await browser!.screenshot('try-it-result-fr');
    await page.click('.lang a:has-text("EN")');
    await page.waitForURL(`${base}/dashboard/try`);
    await expect(text(page.locator('h1'))).resolves.toBe('Try it');
  });

  it('on a phone-sized screen the pages reflow: nothing wider than the screen but the tables’ own scroll', async () => {
    const page = browser!.page;
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      for (const [url, name] of [
        ['/dashboard', 'usage-phone'],
        ['/dashboard/keys', 'keys-phone'],
      ] as const) {
        await page.goto(`${base}${url}`);
        const width = await page.evaluate(
          () =>
            (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document
              .documentElement.scrollWidth,
        );
        expect({ url, width }).toEqual({ url, width: 390 });
        await browser!.screenshot(name);
      }
    } finally {
      await page.setViewportSize({ width: 1280, height: 900 });
    }
  });

  it('the account page changes the password, which signs the other sessions out', async () => {
    const other = await signIn(emailA, PASSWORD);
    expect(other.res.status).toBe(303);
    expect((await page(other.cookie!, '/dashboard')).res.status).toBe(200);
    const p = browser!.page;
    await p.goto(`${base}/dashboard/account`);
    await expect(text(p.locator('dl.facts'))).resolves.toContain('Acme Formation');
    await browser!.screenshot('account');
    await p.fill('#current', 'wrong current password');
    await p.fill('#password', NEW_PASSWORD);
    await p.fill('#confirmation', NEW_PASSWORD);
    await p.click('form[action="/dashboard/account/password"] button[type=submit]');
    await expect(text(p.locator('.alert.error'))).resolves.toBe('The current password is wrong.');
    await p.fill('#current', PASSWORD);
    await p.fill('#password', NEW_PASSWORD);
    await p.fill('#confirmation', NEW_PASSWORD);
    await p.click('form[action="/dashboard/account/password"] button[type=submit]');
    await p.waitForURL(`${base}/dashboard/account?changed=1`);
    await expect(text(p.locator('.alert.ok'))).resolves.toContain('Your password was changed');
    // This browser stays signed in (a new session); the other one is signed out.
    await p.goto(`${base}/dashboard/keys`);
    await expect(text(p.locator('h1'))).resolves.toBe('API keys');
    const stale = await request(gw.http).get('/dashboard').set('Cookie', other.cookie!);
    expect(stale.status).toBe(303);
    expect(stale.headers.location).toBe('/dashboard/sign-in?expired=1');
    expect((await signIn(emailA, PASSWORD)).res.status).toBe(401);
    expect((await signIn(emailA, NEW_PASSWORD)).res.status).toBe(303);
  });

  it('signs out: the session is gone, the pages ask to sign in', async () => {
    const p = browser!.page;
    const before = (await browser!.context.cookies(`${base}/dashboard`)).find(
      (c) => c.name === 'ppfile_session',
    )!;
    await p.goto(`${base}/dashboard`);
    await p.click('header button:has-text("Sign out")');
    await p.waitForURL(`${base}/dashboard/sign-in?signed_out=1`);
    await browser!.screenshot('signed-out');
    expect(
      (await browser!.context.cookies(`${base}/dashboard`)).find((c) => c.name === 'ppfile_session'),
    ).toBeUndefined();
    // The old cookie, replayed, opens nothing: the session was deleted, not just forgotten by the browser.
    const replay = await request(gw.http)
      .get('/dashboard/keys')
      .set('Cookie', `ppfile_session=${before.value}`);
    expect(replay.status).toBe(303);
    expect(replay.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fkeys&expired=1');
  });
});

// ---- refusals and headers over HTTP -----------------------------------------------------------------

describe("the dashboard forms (DTO classes): a problem is shown on the form, in the page's language", () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await activatedUser(orgB.id, 'forms@other.example');
  });

  it('key creation without a mode or with too long a name: 400, the keys page saying so; nothing created', async () => {
    const before = (await gw.stores.apiKeys.listApiKeys(orgB.id)).length;
    const { csrf } = await page(cookie, '/dashboard/keys');
    const create = (form: Record<string, string | string[]>, lang?: string) => {
      const r = request(gw.http)
        .post('/dashboard/keys')
        .set('Cookie', lang ? `${cookie}; ppfile_lang=${lang}` : cookie);
      return r.type('form').send({ _csrf: csrf, ...form });
    };
    const noMode = await create({ name: 'payroll' });
    expect(noMode.status).toBe(400);
    expect(noMode.text).toContain('Choose test or live.');
    expect(noMode.text).toContain('value="payroll"');
    const fr = await create({ mode: 'both', name: 'paie' }, 'fr');
    expect(fr.status).toBe(400);
    expect(fr.text).toContain('Choisissez test ou live.');
    const long = await create({ mode: 'live', name: 'n'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.text).toContain('The name can have at most 100 characters.');
    expect((await gw.stores.apiKeys.listApiKeys(orgB.id)).length).toBe(before);
    const ok = await create({ mode: 'test', name: 'n'.repeat(100) });
    expect(ok.status).toBe(201);
    expect((await gw.stores.apiKeys.listApiKeys(orgB.id)).length).toBe(before + 1);
  });

  it('sign-in and password forms over HTTP: typed text signs in; a new password is judged after the current one', async () => {
    const email = 'forms-password@other.example';
    await activatedUser(orgB.id, email);
    const noToken = await request(gw.http)
      .post('/dashboard/sign-in')
      .set('X-Forwarded-For', '198.51.100.44')
      .type('form')
      .send('email=a&email=b&password=x');
    expect(noToken.status).toBe(403); // no CSRF token: refused before the form is read
    const { res, cookie: session } = await signIn(email, PASSWORD, '198.51.100.44');
    expect(res.status).toBe(303);
    const { csrf } = await page(session!, '/dashboard/account');
    const change = (form: Record<string, string>) =>
      request(gw.http)
        .post('/dashboard/account/password')
        .set('Cookie', session!)
        .set('X-Forwarded-For', '198.51.100.44')
        .type('form')
        .send({ _csrf: csrf, ...form });
    const short = await change({ current: PASSWORD, password: 'short', confirmation: 'short' });
    expect(short.status).toBe(400);
    const wrongCurrent = await change({ current: 'not it', password: 'short', confirmation: 'short' });
    expect(wrongCurrent.status).toBe(400);
    expect(wrongCurrent.text).not.toBe(short.text);
    const changed = await change({ current: PASSWORD, password: NEW_PASSWORD, confirmation: NEW_PASSWORD });
    expect(changed.status).toBe(303);
    expect(changed.headers.location).toBe('/dashboard/account?changed=1');
    expect((await signIn(email, NEW_PASSWORD, '198.51.100.45')).res.status).toBe(303);
  });

  it('Try it has no upload route: a form post with its token is the 404 page, nothing is checked', async () => {
    const { csrf } = await page(cookie, '/dashboard/keys');
    const res = await request(gw.http)
      .post('/dashboard/try')
      .set('Cookie', cookie)
      .field('_csrf', csrf)
      .field('type', 'adf')
      .field('declarant', 'employer')
      .attach('file', Buffer.from(invalidCsv()), 'f.csv');
    expect(res.status).toBe(404);
    expect(res.text).not.toContain('data-error-count');
  });
});

describe('security of the dashboard', () => {
  let cookieA: string;
  let cookieB: string;
  let fileB: string;

  beforeAll(async () => {
    cookieA = (await signIn(emailA, NEW_PASSWORD)).cookie!;
    cookieB = await activatedUser(orgB.id, 'second@other.example');
    const generated = await request(gw.http).post('/v1/files/generate').set(bearer(orgB.live)).send(body(2));
    expect(generated.status).toBe(200);
    fileB = generated.body.file_id;
  });

  it('every page: strict CSP of its own origin, no inline script or style, nothing from another origin, no-store', async () => {
    const pages = [
      '/dashboard',
      '/dashboard/keys',
      '/dashboard/files',
      '/dashboard/build',
      '/dashboard/try',
      '/dashboard/account',
    ];
    for (const url of [...pages, '/dashboard/sign-in']) {
      const res = await request(gw.http)
        .get(url)
        .set('Cookie', url.endsWith('sign-in') ? '' : cookieA);
      expect({ url, status: res.status }).toEqual({ url, status: 200 });
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self'; script-src 'self'; worker-src 'self'; style-src 'self'; img-src 'self'; font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cache-control']).toBe('no-store');
      // Scripts only by src (own origin), no <style>, no style attribute, no event handler attribute.
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc="\/dashboard\/static\/)[^>]*>/);
      expect(res.text).not.toMatch(/<style|\sstyle="|\son[a-z]+="/i);
      const urls = [...res.text.matchAll(/\s(?:src|href|action)="([^"]*)"/g)].map((m) => m[1]!);
      expect(urls.length).toBeGreaterThan(3);
      expect(urls.filter((u) => !/^(\/(dashboard|docs)(\/|\?|#|$)|#)/.test(u))).toEqual([]);
    }
  });

  it('assets: served from the gateway, cached under their hash, 304 when unchanged, 404 otherwise', async () => {
    const home = await request(gw.http).get('/dashboard/sign-in');
    const cssPath = /href="(\/dashboard\/static\/app\.[0-9a-f]{12}\.css)"/.exec(home.text)![1]!;
    const jsPath = /src="(\/dashboard\/static\/app\.[0-9a-f]{12}\.js)"/.exec(home.text)![1]!;
    const css = await request(gw.http).get(cssPath);
    expect(css.status).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const js = await request(gw.http).get(jsPath);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(js.headers['x-content-type-options']).toBe('nosniff');
    const again = await request(gw.http)
      .get(cssPath)
      .set('If-None-Match', css.headers.etag as string);
    expect(again.status).toBe(304);
    expect((await request(gw.http).get('/dashboard/static/app.000000000000.css')).status).toBe(404);
    const missing = await request(gw.http).get('/dashboard/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Page not found');
  });

  it('the session cookie: HttpOnly, SameSite=Lax, 12 h; over HTTPS (behind a trusted proxy) __Host-, Path=/ and Secure', async () => {
    const { res } = await signIn(emailA, NEW_PASSWORD);
    const line = setCookies(res).find((c) => c.startsWith('ppfile_session='))!;
    expect(line).toMatch(
      /^ppfile_session=[A-Za-z0-9_-]{43}; Path=\/dashboard; HttpOnly; SameSite=Lax; Max-Age=43200$/,
    );
    const form = await request(gw.http).get('/dashboard/sign-in').set('X-Forwarded-Proto', 'https');
    const pre = cookieValue(form, '__Host-ppfile_csrf')!;
    expect(setCookies(form).find((c) => c.startsWith('__Host-ppfile_csrf='))).toMatch(
      /^__Host-ppfile_csrf=[A-Za-z0-9_-]{32}; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    const secure = await request(gw.http)
      .post('/dashboard/sign-in')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', `__Host-ppfile_csrf=${pre}`)
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: emailA, password: NEW_PASSWORD });
    expect(secure.status).toBe(303);
    expect(setCookies(secure).find((c) => c.startsWith('__Host-ppfile_session='))).toMatch(
      /^__Host-ppfile_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=43200; Secure$/,
    );
    // Over HTTPS the bare name is ignored: a cookie planted over HTTP or by a sibling subdomain opens nothing.
    const token = cookieValue(secure, '__Host-ppfile_session')!;
    const planted = await request(gw.http)
      .get('/dashboard')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', `ppfile_session=${token}`);
    expect(planted.status).toBe(303);
    const real = await request(gw.http)
      .get('/dashboard')
      .set('X-Forwarded-Proto', 'https')
      .set('Cookie', `__Host-ppfile_session=${token}`);
    expect(real.status).toBe(200);
    // The database holds the token's SHA-256, never the token.
    const ids = (await gw.prisma.session.findMany({ select: { id: true } })).map((s) => s.id);
    expect(ids).not.toContain(token);
    expect(ids.every((id) => /^[0-9a-f]{64}$/.test(id))).toBe(true);
  });

  it('a wrong password: 401 and the form again; an unknown address answers the same', async () => {
    const wrong = await signIn(emailA, 'wrong password', '198.51.100.20');
    expect(wrong.res.status).toBe(401);
    expect(wrong.cookie).toBeUndefined();
    expect(wrong.res.text).toContain('Wrong e-mail address or password.');
    const unknown = await signIn('nobody@nowhere.example', 'wrong password', '198.51.100.20');
    expect(unknown.res.status).toBe(401);
    expect(unknown.res.text.replace(/value="[^"]*"/g, '')).toBe(wrong.res.text.replace(/value="[^"]*"/g, ''));
  });

  it('CSRF: every POST without the session’s token, with another one, or from another site answers 403 and changes nothing', async () => {
    const { csrf } = await page(cookieA, '/dashboard/keys');
    const { csrf: csrfB } = await page(cookieB, '/dashboard/keys');
    const keysBefore = await gw.stores.apiKeys.listApiKeys(orgA.id);
    const posts: [string, Record<string, string>][] = [
      ['/dashboard/keys', { mode: 'test', name: 'csrf' }],
      [`/dashboard/keys/${orgA.liveId}/revoke`, { confirmed: '1' }],
      [
        '/dashboard/account/password',
        { current: NEW_PASSWORD, password: 'x'.repeat(20), confirmation: 'x'.repeat(20) },
      ],
      ['/dashboard/account/sign-out-everywhere', {}],
      ['/dashboard/sign-out', {}],
    ];
    for (const [url, fields] of posts) {
      for (const token of [undefined, 'forged', csrfB]) {
        const res = await request(gw.http)
          .post(url)
          .set('Cookie', cookieA)
          .type('form')
          .send({ ...fields, ...(token === undefined ? {} : { _csrf: token }) });
        expect({ url, token, status: res.status }).toEqual({ url, token, status: 403 });
        expect(res.text).toContain('Request refused');
      }
      const crossSite = await request(gw.http)
        .post(url)
        .set('Cookie', cookieA)
        .set('Sec-Fetch-Site', 'cross-site')
        .type('form')
        .send({ ...fields, _csrf: csrf });
      expect({ url, crossSite: crossSite.status }).toEqual({ url, crossSite: 403 });
    }
    // The pre-session forms: the double-submit cookie must match.
    const form = await request(gw.http).get('/dashboard/sign-in');
    const noCookie = await request(gw.http)
      .post('/dashboard/sign-in')
      .type('form')
      .send({ _csrf: csrfOf(form.text), email: emailA, password: NEW_PASSWORD });
    expect(noCookie.status).toBe(403);
    expect(await gw.stores.apiKeys.listApiKeys(orgA.id)).toEqual(keysBefore);
    expect((await page(cookieA, '/dashboard')).res.status).toBe(200);
    expect((await signIn(emailA, NEW_PASSWORD)).res.status).toBe(303);
    // With its token the same form works.
    const created = await request(gw.http)
      .post('/dashboard/keys')
      .set('Cookie', cookieA)
      .type('form')
      .send({ _csrf: csrf, mode: 'test', name: 'with token' });
    expect(created.status).toBe(201);
  });

  it('another organization’s file or key: 404 like a missing one, and nothing happens to it', async () => {
    const { csrf } = await page(cookieA, '/dashboard/keys');
    const download = await request(gw.http).get(`/dashboard/files/${fileB}/download`).set('Cookie', cookieA);
    expect(download.status).toBe(404);
    expect(download.text).toContain('Page not found');
    const missing = await request(gw.http)
      .get(`/dashboard/files/file_${'0'.repeat(32)}/download`)
      .set('Cookie', cookieA);
    expect(missing.status).toBe(404);
    const same = (text: string) => text.replace(/value="[^"]*"/g, '').replace(/file_[0-9a-f]{32}/g, 'file_…');
    expect(same(missing.text)).toBe(same(download.text));
    expect(
      (await request(gw.http).get('/dashboard/files/../../v1/spec/download').set('Cookie', cookieA)).status,
    ).toBe(404);
    const revoke = await request(gw.http)
      .post(`/dashboard/keys/${orgB.liveId}/revoke`)
      .set('Cookie', cookieA)
      .type('form')
      .send({ _csrf: csrf, confirmed: '1' });
    expect(revoke.status).toBe(404);
    expect((await request(gw.http).get('/v1/spec').set(bearer(orgB.live))).status).toBe(200);
    // Lists show only one's own organization.
    const files = await request(gw.http).get('/dashboard/files').set('Cookie', cookieA);
    expect(files.text).not.toContain(fileB);
    const keys = await request(gw.http).get('/dashboard/keys').set('Cookie', cookieA);
    expect(keys.text).not.toContain(orgB.liveId);
    // B, for its own file, downloads.
    expect(
      (await request(gw.http).get(`/dashboard/files/${fileB}/download`).set('Cookie', cookieB)).status,
    ).toBe(200);
  });

  it('pages without a session redirect to the sign-in, and come back after it', async () => {
    const res = await request(gw.http).get('/dashboard/files?page=2');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Ffiles%3Fpage%3D2');
    const post = await request(gw.http).post('/dashboard/keys').type('form').send({ mode: 'live' });
    expect(post.status).toBe(303);
    expect(post.headers.location).toBe('/dashboard/sign-in');
  });

  it('sign-in throttled: past 10 failures for an e-mail address, 429 with Retry-After even with the right password, for any browser that never signed in to it', async () => {
    // The failures of the tests above (wrong passwords on purpose) fall out of the 15-minute window.
    gw.clock.advance(15 * 60_000);
    for (let i = 0; i < 10; i++) {
      const r = await signIn(emailA, `guess ${i}`, `203.0.113.${i + 1}`);
      expect(r.res.status).toBe(401);
    }
    const right = await signIn(emailA, NEW_PASSWORD, '203.0.113.99');
    expect(right.res.status).toBe(429);
    expect(right.cookie).toBeUndefined();
    const retryAfter = Number(right.res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(right.res.text).toContain('Too many failed sign-ins. Try again in 15 minutes.');
    // Another person is not affected; the counters live in Redis under QUEUE_PREFIX.
    expect((await signIn('second@other.example', PASSWORD, '203.0.113.99')).res.status).toBe(303);
    const keys = await gw.redis.keys(`${gw.config.queue.prefix}:dashboard:{opauth}:*`);
    expect(keys.length).toBeGreaterThanOrEqual(2);
    expect(keys.join(' ')).not.toContain(emailA);
    gw.clock.advance(retryAfter * 1000);
    expect((await signIn(emailA, NEW_PASSWORD, '203.0.113.99')).res.status).toBe(303);
  });

  it('sign-in throttled per address: past 20 failures from one address, 429 for any e-mail from it', async () => {
    for (let i = 0; i < 20; i++)
      expect((await signIn(`someone${i}@x.example`, 'nope', '192.0.2.50')).res.status).toBe(401);
    const blocked = await signIn('second@other.example', PASSWORD, '192.0.2.50');
    expect(blocked.res.status).toBe(429);
    expect((await signIn('second@other.example', PASSWORD, '192.0.2.51')).res.status).toBe(303);
  });

  it('a session ends after an hour unused, and after 12 hours whatever its use', async () => {
    const fresh = (await signIn(emailA, NEW_PASSWORD, '198.51.100.30')).cookie!;
    gw.clock.advance(59 * 60_000);
    expect((await request(gw.http).get('/dashboard').set('Cookie', fresh)).status).toBe(200);
    gw.clock.advance(59 * 60_000);
    expect((await request(gw.http).get('/dashboard').set('Cookie', fresh)).status).toBe(200);
    gw.clock.advance(61 * 60_000);
    const idle = await request(gw.http).get('/dashboard').set('Cookie', fresh);
    expect(idle.status).toBe(303);
    expect(idle.headers.location).toBe('/dashboard/sign-in?expired=1');

    // Used every 55 minutes: alive until 12 hours after sign-in (715 min), over at 770.
    const busy = (await signIn(emailA, NEW_PASSWORD, '198.51.100.31')).cookie!;
    for (let step = 1; step <= 14; step++) {
      gw.clock.advance(55 * 60_000);
      const r = await request(gw.http).get('/dashboard/keys').set('Cookie', busy);
      expect({ step, status: r.status }).toEqual({ step, status: step <= 13 ? 200 : 303 });
    }
  });

  it('the access log names dashboard routes by template: no file id, key id or invitation token', () => {
    const access = suiteLogs.entries('access').filter((e) => String(e.route).startsWith('/dashboard'));
    const routes = new Set(access.map((e) => String(e.route)));
    for (const template of [
      '/dashboard/files/:id/download',
      '/dashboard/keys/:id/revoke',
      '/dashboard/invite/:token',
      '/dashboard/static/:name',
      '/dashboard/sign-in',
      '/dashboard',
    ]) {
      expect(routes).toContain(template);
    }
    expect([...routes].filter((r) => /file_|key_|usr_|[A-Za-z0-9_-]{43}/.test(r))).toEqual([]);
    expect(access.some((e) => e.status === 403 && e.code === 'CSRF_REJECTED')).toBe(true);
    expect(access.some((e) => e.status === 429 && e.code === 'RATE_LIMIT_EXCEEDED')).toBe(true);
    const everything = suiteLogs.lines.join('\n');
    for (const secret of [emailA, NEW_PASSWORD, PASSWORD]) expect(everything).not.toContain(secret);
  });
});
