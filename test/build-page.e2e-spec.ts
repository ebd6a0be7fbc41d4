import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { INestApplicationContext } from '@nestjs/common';
import request from 'supertest';
import { monthOf } from '@ppfile/db';
import { CURRENT_SPEC_VERSION, formatIsoDate, parisDay } from '@ppfile/rules';
import { NIR_A, validBody } from '@ppfile/rules/testing/fixtures';
import { DASHBOARD_CSP } from '../apps/gateway/src/common/security-headers';
import { runCli } from './support/cli';
import { startGateway, type Gateway } from './support/gateway';
import { csrfField, signedInPerson } from './support/dashboard-session';
import { startWorker, workerConfigFor } from './support/worker';

/**
 * The server's side of the Build page (issue 36) over HTTP against a gateway with the machine's
 * PostgreSQL, Redis and s3rver, and a worker for the queued path: the page's shell (its config, its
 * scripts, the CSP), the template, the saved mappings and their refusals, and Generate on behalf of
 * the signed-in person's organization — live units counted once, one file per Idempotency-Key, the
 * asynchronous path polled to a download whose bytes are the CLI's for the same body.
 *
 * The front end's bundle is the one `npm run build:web` wrote to dist/dashboard-web (the e2e global
 * setup builds it when stale).
 */
jest.setTimeout(120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ROOT = path.resolve(__dirname, '..');
const WEB_DIR = path.join(ROOT, 'dist', 'dashboard-web');
/** Bodies of more rows go through the queue (and the page's asynchronous path). */
const QUEUE_ABOVE_ROWS = 20;

let gw: Gateway;
let worker: INestApplicationContext | undefined;
let org: { id: string; live: string; liveId: string };
let other: { id: string; live: string };
let cookie: string;
let otherCookie: string;
let tmp: string;

/** An invited person who set a password: their session cookie, as a Cookie header. */
async function signedIn(organizationId: string, email: string): Promise<string> {
  return `ppfile_session=${await signedInPerson(gw, organizationId, email)}`;
}

const UNESCAPE: Record<string, string> = {
  '&quot;': '"',
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&#39;': "'",
  '&#96;': '`',
};

/** The Build page's `data-config`, as the browser reads the attribute. */
function configOf(html: string): Json {
  const m = /<div id="build-app" data-config="([^"]*)"/.exec(html);
  if (!m) throw new Error('no #build-app in the page');
  return JSON.parse(m[1]!.replace(/&(quot|amp|lt|gt|#39|#96);/g, (e) => UNESCAPE[e]!)) as Json;
}

async function buildConfig(who = cookie): Promise<Json> {
  const res = await request(gw.http).get('/dashboard/build').set('Cookie', who);
  expect(res.status).toBe(200);
  return configOf(res.text);
}

/** A body of `holders` holders with ids of their own (so two bodies differ), stored. */
function body(holders: number, tag: string): Json {
  const b: Json = validBody('adf', 'training_organization', holders);
  b.declarations[0].holders.forEach((h: Json, i: number) => (h.unique_id = `BUILD-${tag}-${i}`));
  return { ...b, options: { store: true } };
}

/** What the CLI writes for the same body on the server's day (API.md §11: `ppfile generate -o`). */
function cliBytes(b: Json, today: string): Buffer {
  const input = path.join(tmp, `body-${Math.random().toString(16).slice(2)}.json`);
  const out = `${input}.csv`;
  writeFileSync(input, JSON.stringify(b));
  const run = runCli(['generate', input, '-o', out, '--today', today]);
  expect(run.status).toBe(0);
  return readFileSync(out);
}

function generate(b: unknown, key: string | null, csrf: string | null, extra: Record<string, string> = {}) {
  let req = request(gw.http).post('/dashboard/build/generate').set('Cookie', cookie);
  if (csrf !== null) req = req.set('X-CSRF-Token', csrf);
  if (key !== null) req = req.set('Idempotency-Key', key);
  for (const [name, value] of Object.entries(extra)) req = req.set(name, value);
  return req.send(b as object);
}

/** A GET over a real socket, its body's bytes as they came (no decoding of Content-Encoding). */
async function rawGet(
  urlPath: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  const server = gw.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    get({ host: '127.0.0.1', port, path: urlPath, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    }).on('error', reject);
  });
}

async function liveUsed(organizationId: string): Promise<number> {
  return (await gw.stores.ledger.month(organizationId, monthOf(gw.clock.now()))).used;
}

async function filesOf(organizationId: string): Promise<number> {
  return gw.prisma.fileRecord.count({ where: { organizationId } });
}

beforeAll(async () => {
  if (!existsSync(path.join(WEB_DIR, 'manifest.json')))
    throw new Error(
      `${WEB_DIR}/manifest.json is missing: run npm run build:web (the e2e setup builds it when stale)`,
    );
  tmp = mkdtempSync(path.join(tmpdir(), 'ppfile-build-'));
  gw = await startGateway({ queue: { generateThresholdRows: QUEUE_ABOVE_ROWS } });
  org = await gw.organization('starter', 'Build Org');
  other = await gw.organization('starter', 'Other Build Org');
  cookie = await signedIn(org.id, 'builder@build.example');
  otherCookie = await signedIn(other.id, 'someone@other-build.example');
}, 120_000);

afterAll(async () => {
  await worker?.close();
  await gw?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('GET /dashboard/build: the page’s shell', () => {
  const manifest = (): Record<string, string> =>
    JSON.parse(readFileSync(path.join(WEB_DIR, 'manifest.json'), 'utf8')) as Record<string, string>;

  it('gives the front end its config, its module script and stylesheet, under the strict CSP', async () => {
    const res = await request(gw.http)
      .get('/dashboard/build')
      .set('Cookie', cookie)
      .set('Accept-Language', 'en');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(DASHBOARD_CSP);
    expect(DASHBOARD_CSP).toContain("script-src 'self'");
    expect(DASHBOARD_CSP).toContain("worker-src 'self'");
    expect(DASHBOARD_CSP).toContain("connect-src 'self'");
    expect(res.headers['cache-control']).toBe('no-store');
    const files = manifest();
    const config = configOf(res.text);
    // The session's CSRF token: the one its forms carry.
    const files_page = await request(gw.http).get('/dashboard/files').set('Cookie', cookie);
    expect(config).toEqual({
      lang: 'en',
      today: formatIsoDate(parisDay(gw.clock.now())),
      csrf: csrfField(files_page.text),
      workerUrl: `/dashboard/static/${files['engine-worker.js']}`,
      listsUrl: expect.stringMatching(
        new RegExp(`^/dashboard/static/reference-lists-${CURRENT_SPEC_VERSION}\\.[0-9a-f]{12}\\.json$`),
      ),
      templateUrl: '/dashboard/build/template',
      mappingsUrl: '/dashboard/build/mappings',
      generateUrl: '/dashboard/build/generate',
      filesUrl: '/dashboard/files',
      sessionUrl: '/dashboard/build/session',
      signInUrl: '/dashboard/sign-in',
      usageUrl: '/dashboard',
      asyncAboveRows: QUEUE_ABOVE_ROWS,
    });
    expect(res.text).toContain(
      `<script type="module" src="/dashboard/static/${files['build.js']}"></script>`,
    );
    expect(res.text).toContain(`<link rel="stylesheet" href="/dashboard/static/${files['build.css']}" />`);
    // Every script is a file of the origin: none inline, none with a style attribute.
    expect(
      [...res.text.matchAll(/<script\b[^>]*>/g)].every((m) => / src="\/dashboard\/static\//.test(m[0])),
    ).toBe(true);
    expect(res.text).not.toMatch(/\sstyle="/);
    expect(res.text).toMatch(/<noscript\s*>[\s\S]*needs JavaScript[\s\S]*<\/noscript\s*>/);
    expect(res.text).toMatch(/<a href="\/dashboard\/build"\s+aria-current="page">Build a file<\/a>/);
  });

  it('speaks French, and its nav entry is on the other pages', async () => {
    const res = await request(gw.http)
      .get('/dashboard/build')
      .set('Cookie', cookie)
      .set('Accept-Language', 'fr');
    expect(configOf(res.text).lang).toBe('fr');
    expect(res.text).toContain('<title>Construire un fichier · ppfile</title>');
    expect(res.text).toContain('nécessite JavaScript');
    const usage = await request(gw.http).get('/dashboard').set('Cookie', cookie).set('Accept-Language', 'fr');
    expect(usage.text).toContain('<a href="/dashboard/build" >Construire un fichier</a>');
  });

  it('serves the bundle and the reference lists it names, hashed, immutable, the lists compressed', async () => {
    const config = await buildConfig();
    const worker_ = await request(gw.http).get(config.workerUrl as string);
    expect(worker_.status).toBe(200);
    expect(worker_.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(worker_.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(worker_.text).toBe(readFileSync(path.join(WEB_DIR, manifest()['engine-worker.js']!), 'utf8'));

    // Raw bytes: supertest would inflate them.
    const br = await rawGet(config.listsUrl as string, { 'Accept-Encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toBe('Accept-Encoding');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const lists = JSON.parse(brotliDecompressSync(br.body).toString('utf8')) as Json;
    expect(lists.spec_version).toBe(CURRENT_SPEC_VERSION);
    expect(Object.keys(lists.lists as Json)).toEqual(['rome', 'formacode', 'nsf', 'rs']);
    expect((lists.lists.rome.codes as string).split('\n').length).toBeGreaterThan(10_000);
    // Without Accept-Encoding: the same JSON, plain.
    const plain = await request(gw.http)
      .get(config.listsUrl as string)
      .set('Accept-Encoding', 'identity');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toEqual(lists);
  });

  it('sends a browser that is not signed in to the sign-in page', async () => {
    const res = await request(gw.http).get('/dashboard/build');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/sign-in?next=%2Fdashboard%2Fbuild');
  });
});

describe('GET /dashboard/build/template', () => {
  it('is the API’s template: the same bytes and headers', async () => {
    for (const [type, declarant] of [
      ['adf', 'employer'],
      ['jdr', 'training_organization'],
    ]) {
      const query = `type=${type}&declarant=${declarant}`;
      const binary = (req: request.Test) =>
        req
          .set('Accept-Language', 'fr')
          .buffer(true)
          .parse((res, done) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => done(null, Buffer.concat(chunks)));
          });
      const mine = await binary(
        request(gw.http).get(`/dashboard/build/template?${query}`).set('Cookie', cookie),
      );
      const api = await binary(
        request(gw.http)
          .get(`/v1/spec/${CURRENT_SPEC_VERSION}/template?${query}`)
          .set('Authorization', `Bearer ${org.live}`),
      );
      expect(mine.status).toBe(200);
      expect(api.status).toBe(200);
      expect((mine.body as Buffer).equals(api.body as Buffer)).toBe(true);
      expect(mine.headers['content-type']).toBe(api.headers['content-type']);
      expect(mine.headers['content-disposition']).toBe(api.headers['content-disposition']);
    }
  });

  it('refuses an unknown kind with the API’s error shape, and a browser not signed in with 401', async () => {
    const bad = await request(gw.http)
      .get('/dashboard/build/template?type=xyz&declarant=employer')
      .set('Cookie', cookie);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: {
        code: 'INVALID_REQUEST',
        details: { fields: [{ field: 'type' }] },
        request_id: expect.any(String),
      },
    });
    const anonymous = await request(gw.http).get('/dashboard/build/template?type=adf&declarant=employer');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: { code: 'SIGN_IN_REQUIRED' } });
  });
});

describe('GET /dashboard/build/session (the page’s keep-alive, and its token before Retry)', () => {
  it('gives the session’s CSRF token, not cached, and 401 SIGN_IN_REQUIRED to a browser not signed in', async () => {
    const { csrf } = await buildConfig();
    const res = await request(gw.http).get('/dashboard/build/session').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({ csrf });
    const anonymous = await request(gw.http).get('/dashboard/build/session');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toMatchObject({ error: { code: 'SIGN_IN_REQUIRED' } });
  });
});

describe('/dashboard/build/mappings', () => {
  const url = '/dashboard/build/mappings?type=adf&declarant=training_organization';
  const put = (mapping: unknown, csrf: string | null, who = cookie) => {
    let req = request(gw.http).put(url).set('Cookie', who);
    if (csrf !== null) req = req.set('X-CSRF-Token', csrf);
    return req.send({ mapping } as object);
  };

  it('keeps an organization’s mapping per kind of file: header texts → official columns or null', async () => {
    const { csrf } = await buildConfig();
    expect((await request(gw.http).get(url).set('Cookie', cookie)).body).toEqual({ mapping: {} });
    const mapping = { 'N° de sécurité sociale': 'NIR', 'Nom de naissance': 'NOM_TITULAIRE', Remarques: null };
    const saved = await put(mapping, csrf as string);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ mapping });
    expect((await request(gw.http).get(url).set('Cookie', cookie)).body).toEqual({ mapping });
    // Another kind, another organization: their own.
    const jdr = await request(gw.http)
      .get('/dashboard/build/mappings?type=jdr&declarant=training_organization')
      .set('Cookie', cookie);
    expect(jdr.body).toEqual({ mapping: {} });
    expect((await request(gw.http).get(url).set('Cookie', otherCookie)).body).toEqual({ mapping: {} });
    // Replaced as a whole.
    expect((await put({ NIR: 'NIR' }, csrf as string)).status).toBe(200);
    expect((await request(gw.http).get(url).set('Cookie', cookie)).body).toEqual({ mapping: { NIR: 'NIR' } });
  });

  it('refuses a cell-like text, an unknown column, and a write without the CSRF token; keeps nothing of them', async () => {
    const { csrf } = await buildConfig();
    const before = (await request(gw.http).get(url).set('Cookie', cookie)).body as Json;
    const cell = `${NIR_A} MARTIN Claire, née le 12/03/1985 à Lyon — `.repeat(8);
    const long = await put({ NIR: 'NIR', [cell]: 'NOM_TITULAIRE' }, csrf as string);
    expect(long.status).toBe(400);
    expect(long.body.error.code).toBe('INVALID_REQUEST');
    expect(long.text).not.toContain(NIR_A);
    expect(long.text).toContain('255');
    // Short, but a cell all the same: a NIR, an e-mail address, a date.
    for (const short of [NIR_A, 'claire.martin@example.fr', '12/03/1985']) {
      const refused = await put({ NIR: 'NIR', [short]: null }, csrf as string);
      expect(refused.status).toBe(400);
      expect(refused.body.error.details.fields).toEqual([
        { field: 'mapping', message: expect.stringContaining('header no. 2 looks like a cell') },
      ]);
      expect(refused.text).not.toContain(short);
    }
    const unknown = await put({ NIR: 'SALAIRE_BRUT' }, csrf as string);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields[0].field).toBe('mapping');
    const tooMany = await put(
      Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`H${i}`, null])),
      csrf as string,
    );
    expect(tooMany.status).toBe(400);
    const noCsrf = await put({ NIR: 'NIR' }, null);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body).toMatchObject({ error: { code: 'CSRF_REJECTED', request_id: expect.any(String) } });
    const otherCsrf = await put({ NIR: 'NIR' }, (await buildConfig(otherCookie)).csrf as string);
    expect(otherCsrf.status).toBe(403);
    const anonymous = await request(gw.http).put(url).send({ mapping: {} });
    expect(anonymous.status).toBe(401);
    const notJson = await request(gw.http)
      .put(url)
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf as string)
      .type('form')
      .send('mapping=x');
    expect(notJson.status).toBe(415);
    expect((await request(gw.http).get(url).set('Cookie', cookie)).body).toEqual(before);
  });
});

describe('POST /dashboard/build/generate', () => {
  it('generates for the organization in live mode: units counted once, one file per Idempotency-Key', async () => {
    const { csrf, today } = await buildConfig();
    const b = body(3, 'sync');
    const usedBefore = await liveUsed(org.id);
    const filesBefore = await filesOf(org.id);

    const first = await generate(b, 'build-sync-1', csrf as string);
    expect(first.status).toBe(200);
    expect(first.headers['content-type']).toMatch(/^application\/json/);
    expect(first.body).toMatchObject({
      success: true,
      mode: 'live',
      stored: true,
      rows: 3,
      download_url: `/dashboard/files/${first.body.file_id}/download`,
    });
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same key again (a double click): the same file, counted once.
    const again = await generate(b, 'build-sync-1', csrf as string);
    expect(again.status).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.file_id).toBe(first.body.file_id);
    expect(await liveUsed(org.id)).toBe(usedBefore + 3);
    expect(await filesOf(org.id)).toBe(filesBefore + 1);
    // The same key with another body is the API's 409.
    const reused = await generate(body(2, 'other'), 'build-sync-1', csrf as string);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    // Recorded under the person's dashboard key: not an API key of the organization.
    const record = (await gw.stores.files.getFileRecord(first.body.file_id as string))!;
    expect(record).toMatchObject({ organizationId: org.id, mode: 'live', units: 3 });
    const key = await gw.prisma.apiKey.findUnique({ where: { id: record.apiKeyId } });
    expect(key).toMatchObject({
      organizationId: org.id,
      mode: 'LIVE',
      prefix: 'pp_dashboard',
      revokedAt: null,
    });
    expect(key!.userId).toMatch(/^usr_/);
    const keysPage = await request(gw.http).get('/dashboard/keys').set('Cookie', cookie);
    expect(keysPage.text).not.toContain('pp_dashboard');

    // Under Files, downloadable, with the CLI's bytes for the same body.
    const files = await request(gw.http)
      .get('/dashboard/files')
      .set('Cookie', cookie)
      .set('Accept-Language', 'en');
    expect(files.text).toContain(`title="${first.body.file_id}"`);
    expect(files.text).toContain('Build a file (dashboard)');
    const download = await request(gw.http)
      .get(first.body.download_url as string)
      .set('Cookie', cookie)
      .buffer(true);
    expect(download.status).toBe(200);
    expect(Buffer.from(download.text, 'utf8').equals(cliBytes(b, today as string))).toBe(true);
  });

  it('keeps a removed person’s dashboard key out of the API keys: their files stay, labelled as built here', async () => {
    const leaving = await signedIn(org.id, 'leaving@build.example');
    const { csrf } = await buildConfig(leaving);
    const made = await request(gw.http)
      .post('/dashboard/build/generate')
      .set('Cookie', leaving)
      .set('Idempotency-Key', 'build-leaving-1')
      .set('X-CSRF-Token', csrf as string)
      .send(body(1, 'leaving'));
    expect(made.status).toBe(200);
    const record = (await gw.stores.files.getFileRecord(made.body.file_id as string))!;
    await gw.stores.users.remove('leaving@build.example');
    // The person's row is gone, so their key's user_id is null (ON DELETE SET NULL): the file keeps its key.
    const key = await gw.prisma.apiKey.findUnique({ where: { id: record.apiKeyId } });
    expect(key).toMatchObject({ prefix: 'pp_dashboard', userId: null });

    const keysPage = await request(gw.http).get('/dashboard/keys').set('Cookie', cookie);
    expect(keysPage.status).toBe(200);
    expect(keysPage.text).not.toContain('pp_dashboard');
    expect(keysPage.text).not.toContain(record.apiKeyId);
    const revoke = await request(gw.http)
      .post(`/dashboard/keys/${record.apiKeyId}/revoke`)
      .set('Cookie', cookie)
      .set('Origin', 'http://127.0.0.1')
      .type('form')
      .send({ _csrf: csrf as string, confirmed: '1' });
    expect(revoke.status).not.toBe(303);
    const files = await request(gw.http)
      .get('/dashboard/files')
      .set('Cookie', cookie)
      .set('Accept-Language', 'en');
    expect(files.text).toContain(`title="${record.id}"`);
    expect(files.text).not.toContain('pp_dashboard…');
  });

  it('takes the large path with Prefer: respond-async: 202, then available, downloadable with the CLI’s bytes', async () => {
    worker ??= await startWorker(workerConfigFor(gw));
    const { csrf, today } = await buildConfig();
    const rows = QUEUE_ABOVE_ROWS + 5;
    const b = body(rows, 'async');
    const usedBefore = await liveUsed(org.id);
    const accepted = await generate(b, 'build-async-1', csrf as string, { Prefer: 'respond-async' });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({ file_id: expect.stringMatching(/^file_/), status: 'processing' });
    expect(accepted.headers.location).toBe(`/dashboard/build/files/${accepted.body.file_id}`);
    expect(accepted.headers['preference-applied']).toBe('respond-async');
    // A second click meanwhile: the same file.
    const twice = await generate(b, 'build-async-1', csrf as string, { Prefer: 'respond-async' });
    expect([200, 202]).toContain(twice.status);
    expect(twice.body.file_id).toBe(accepted.body.file_id);

    let status: Json = {};
    for (let i = 0; i < 120; i++) {
      const polled = await request(gw.http)
        .get(accepted.headers.location as string)
        .set('Cookie', cookie);
      expect(polled.status).toBe(200);
      status = polled.body as Json;
      if (status.status !== 'processing') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toMatchObject({
      file_id: accepted.body.file_id,
      status: 'available',
      rows,
      download_url: `/dashboard/files/${accepted.body.file_id}/download`,
    });
    expect(await liveUsed(org.id)).toBe(usedBefore + rows);
    const download = await request(gw.http)
      .get(status.download_url as string)
      .set('Cookie', cookie)
      .buffer(true);
    expect(download.status).toBe(200);
    expect(Buffer.from(download.text, 'utf8').equals(cliBytes(b, today as string))).toBe(true);
    // Another organization's person does not see it.
    const foreign = await request(gw.http)
      .get(accepted.headers.location as string)
      .set('Cookie', otherCookie);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.code).toBe('NOT_FOUND');
  });

  it('refuses without Idempotency-Key, without CSRF token, without session, or a malformed body: nothing made or counted', async () => {
    const { csrf } = await buildConfig();
    const b = body(2, 'refused');
    const usedBefore = await liveUsed(org.id);
    const filesBefore = await filesOf(org.id);

    const noKey = await generate(b, null, csrf as string);
    expect(noKey.status).toBe(400);
    expect(noKey.body.error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [{ field: 'Idempotency-Key' }] },
    });
    const badKey = await generate(b, 'é', csrf as string);
    expect(badKey.status).toBe(400);
    const noCsrf = await generate(b, 'build-refused-1', null);
    expect(noCsrf.status).toBe(403);
    expect(noCsrf.body.error.code).toBe('CSRF_REJECTED');
    const anonymous = await request(gw.http)
      .post('/dashboard/build/generate')
      .set('Idempotency-Key', 'build-refused-2')
      .send(b);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.error.code).toBe('SIGN_IN_REQUIRED');
    const malformed = await generate({ ...b, declarant: 'nobody' }, 'build-refused-3', csrf as string);
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('INVALID_REQUEST');
    const notJson = await request(gw.http)
      .post('/dashboard/build/generate')
      .set('Cookie', cookie)
      .set('X-CSRF-Token', csrf as string)
      .set('Idempotency-Key', 'build-refused-4')
      .type('text/plain')
      .send('NIR;NOM');
    expect(notJson.status).toBe(415);
    // A form sent by another site is refused before anything is read.
    const foreign = await generate(b, 'build-refused-5', csrf as string, { Origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);

    expect(await liveUsed(org.id)).toBe(usedBefore);
    expect(await filesOf(org.id)).toBe(filesBefore);
    // A refused request keeps no claim: the same key then works.
    const retried = await generate(b, 'build-refused-3', csrf as string);
    expect(retried.status).toBe(200);
    expect(await liveUsed(org.id)).toBe(usedBefore + 2);
  });
});
