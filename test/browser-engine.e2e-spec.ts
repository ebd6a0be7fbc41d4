import { readdirSync, readFileSync, statSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import request from 'supertest';
import { ReferenceDirectory } from '@ppfile/refdata';
import { generateFile, normalizeBody, type RequestError } from '@ppfile/rules';
import { NIR_A, NIR_B, validBody } from '@ppfile/rules/testing/fixtures';
import { sheet } from '@ppfile/sheets/testing/workbooks';
import { launchBrowser, type Browser } from './support/browser';
import { leaks, recordRequests } from './support/requests';
import { startGateway, type Gateway } from './support/gateway';
import { signedInPerson } from './support/dashboard-session';

/**
 * The engine in the browser (issue 36): libs/rules and libs/sheets bundled by build:web, run in
 * Debian's Chromium by the engine worker the gateway serves, against the reference lists the gateway
 * serves. (a) For every CSV fixture of the tests and for the spreadsheet cases, the worker's answer
 * is the API's, to the byte of the JSON (a live key, the same bytes, form, day and language). (b) Try
 * it checks a file with no request carrying any of its NIRs or names — and the check of the requests
 * catches a deliberate upload. (c) The page says so, in English and in French.
 */
jest.setTimeout(240_000);

const ROOT = path.resolve(__dirname, '..');
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let gw: Gateway;
let base: string;
let browser: Browser;
let org: { id: string; live: string };
let session: string;
let config: { lang: string; today: string; workerUrl: string; listsUrl: string };

const KINDS = [
  ['adf', 'employer'],
  ['adf', 'training_organization'],
  ['jdr', 'employer'],
  ['jdr', 'training_organization'],
] as const;

/** Every file below `dir` whose name ends with one of `exts`. */
function filesUnder(dir: string, exts: string[]): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const p = path.join(dir, name);
    if (statSync(p).isDirectory()) out.push(...filesUnder(p, exts));
    else if (exts.some((e) => name.toLowerCase().endsWith(e))) out.push(p);
  }
  return out.sort();
}

const FIXTURE_DIRS = ['test/fixtures', 'libs/rules/test', 'libs/sheets/test'].map((d) => path.join(ROOT, d));

/** The page's #try-app configuration, as the gateway rendered it. */
async function pageConfig(lang: 'en' | 'fr' = 'en'): Promise<typeof config> {
  const res = await request(gw.http)
    .get('/dashboard/try')
    .set('Cookie', `ppfile_session=${session}; ppfile_lang=${lang}`);
  expect(res.status).toBe(200);
  const attr = /id="try-app" data-config="([^"]*)"/.exec(res.text)![1]!;
  return JSON.parse(
    attr
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&'),
  );
}

interface EngineCase {
  op: 'validate-csv' | 'import';
  bytes: Buffer;
  form: Json;
}

/**
 * Runs the cases in the page, through the engine worker the gateway serves and the protocol
 * (protocol.ts) by hand: each answer JSON.stringify'd in the page, as the bytes a response would be.
 */
/** A request of the body ops (validate-body, normalize-body), the message's fields without id and op. */
interface BodyCase {
  op: 'validate-body' | 'normalize-body';
  message: Json;
}

async function inWorker(cases: (EngineCase | BodyCase)[], lang: 'en' | 'fr' = 'en'): Promise<string[]> {
  const cfg = lang === config.lang ? config : await pageConfig(lang);
  return browser.page.evaluate(
    async ({ cfg, lang, cases }) => {
      const g = globalThis as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      const worker = new g.Worker(cfg.workerUrl);
      const pending = new Map<number, (v: string) => void>();
      worker.onmessage = (event: {
        data: { id: number; type: string; result?: unknown; error?: unknown };
      }) => {
        const m = event.data;
        if (m.type === 'progress') return;
        pending.get(m.id)?.(JSON.stringify(m.type === 'result' ? { result: m.result } : { error: m.error }));
      };
      const ask = (message: Record<string, unknown>, transfer: unknown[] = []) =>
        new Promise<string>((resolve) => {
          pending.set(message.id as number, resolve);
          worker.postMessage(message, transfer);
        });
      let id = 1;
      const init = JSON.parse(
        await ask({ id: id++, op: 'init', init: { listsUrl: cfg.listsUrl, today: cfg.today, lang } }),
      );
      if (init.error) throw new Error(JSON.stringify(init.error));
      const out: string[] = [];
      for (const c of cases) {
        if (c.base64 === null) {
          out.push(await ask({ id: id++, op: c.op, ...c.message }));
          continue;
        }
        const bytes = Uint8Array.from(g.atob(c.base64) as string, (ch: string) => ch.charCodeAt(0)).buffer;
        out.push(await ask({ id: id++, op: c.op, bytes, ...c.message }, [bytes]));
      }
      worker.terminate();
      return out;
    },
    {
      cfg,
      lang,
      cases: cases.map((c) =>
        'bytes' in c
          ? { op: c.op, message: { form: c.form }, base64: c.bytes.toString('base64') }
          : { op: c.op, message: c.message, base64: null },
      ),
    },
  );
}

/** What the API answers for the same case with the live key, in the same shape as inWorker's. */
async function viaApi(c: EngineCase, lang: 'en' | 'fr' = 'en'): Promise<string> {
  const url = c.op === 'validate-csv' ? '/v1/files/validate' : '/v1/declarations/import';
  let req = request(gw.http)
    .post(url)
    .set('Authorization', `Bearer ${org.live}`)
    .set('Accept-Language', lang)
    .field('type', c.form.type)
    .field('declarant', c.form.declarant)
    .field('strict_references', String(c.form.strict_references));
  if (c.form.sheet !== undefined) req = req.field('sheet', c.form.sheet);
  if (c.form.mapping !== undefined) req = req.field('mapping', JSON.stringify(c.form.mapping));
  const res = await req.attach('file', c.bytes, c.form.filename);
  if (res.status === 200) return `{"result":${res.text}}`;
  const { code, message, details } = res.body.error;
  return JSON.stringify({ error: { status: res.status, code, message, details } });
}

/** The engine's error as the API's error, field order aside: `{status, code, message, details}`. */
function normalized(answer: string): string {
  const parsed = JSON.parse(answer);
  if (!parsed.error) return answer;
  const { status, code, message, details } = parsed.error;
  return JSON.stringify({ error: { status, code, message, details } });
}

/** Compares every case; answers how many were results (not refusals), for the tests to say they checked something. */
async function expectParity(
  cases: (EngineCase & { name: string })[],
  lang: 'en' | 'fr' = 'en',
): Promise<number> {
  const browserAnswers = await inWorker(cases, lang);
  let results = 0;
  for (const [i, c] of cases.entries()) {
    const api = await viaApi(c, lang);
    const page = browserAnswers[i]!;
    // `result` answers are compared as the bytes they are; errors after their fields are put in order.
    expect({ name: c.name, answer: api.startsWith('{"result"') ? page : normalized(page) }).toEqual({
      name: c.name,
      answer: api.startsWith('{"result"') ? api : normalized(api),
    });
    if (api.startsWith('{"result"')) results++;
  }
  return results;
}

const goldenCsv = (type: string, declarant: string) =>
  readFileSync(path.join(ROOT, 'libs/rules/test/golden', `${type}-${declarant}.csv`));

/** An official CSV with errors on rows 2 to 5 (bad NIR, impossible date, missing name, NIR of letters). */
function invalidCsv(): string {
  const file = generateFile(validBody('adf', 'training_organization', 6), {
    refs: new ReferenceDirectory(null).lists('2026-02'),
  });
  const lines = file.content.toString('utf8').split('\r\n');
  const header = lines[0]!.split('|');
  const set = (line: number, name: string, value: string) => {
    const cells = lines[line]!.split('|');
    cells[header.indexOf(name)] = value;
    lines[line] = cells.join('|');
  };
  set(1, 'NIR', '2550814168');
  set(2, 'DATE_DEBUT_VALIDITE', '31/02/2026');
  set(3, 'NOM_TITULAIRE', '');
  set(4, 'NIR', 'ABCDEFGHIJKLM');
  return lines.join('\r\n');
}

/** CSVs the fixtures do not hold: the encodings and line ends validate reads, and its refusals. */
function madeCsvs(): { name: string; bytes: Buffer }[] {
  const golden = goldenCsv('adf', 'training_organization').toString('utf8');
  const accented = golden.replace(/DUPONT/g, 'DUPONT-HÉLÈNE').replace(/MARTIN/g, 'MARTIN Œuvre’s');
  const latin = Buffer.from(
    accented.replace(/Œ/g, '\u0152').replace(/’/g, '\u2019'),
    'latin1', // U+0152 and U+2019 become 0x52 and 0x19 in latin1: bytes that are not UTF-8 either way
  );
  const cp1252 = Buffer.from(accented.replace(/[Œ’]/g, 'e'), 'latin1');
  const mixed = Buffer.concat([Buffer.from(accented, 'utf8'), Buffer.from('\r\ncafé|', 'latin1')]);
  // Rows repeated past the API's slices (256 KB), with their duplicates reported past the listing cap.
  const [header, ...rows] = golden.trimEnd().split('\r\n');
  const many = Buffer.from(
    [header, ...Array.from({ length: 1500 }, (_, i) => rows[i % rows.length])].join('\r\n') + '\r\n',
  );
  return [
    { name: 'invalid rows', bytes: Buffer.from(invalidCsv(), 'utf8') },
    { name: 'accented UTF-8', bytes: Buffer.from(accented, 'utf8') },
    { name: 'with a BOM', bytes: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(accented)]) },
    { name: 'latin1 bytes', bytes: latin },
    { name: 'windows-1252', bytes: cp1252 },
    { name: 'mixed encodings', bytes: mixed },
    {
      name: 'broken UTF-8',
      bytes: Buffer.concat([
        Buffer.from(golden.slice(0, 400)),
        Buffer.from([0xf0, 0x9f, 0x98, 0x41, 0xed, 0xa0, 0x80]),
      ]),
    },
    { name: 'LF line ends', bytes: Buffer.from(golden.replace(/\r\n/g, '\n')) },
    { name: 'no final line end', bytes: Buffer.from(golden.trimEnd()) },
    { name: 'not a CSV', bytes: Buffer.from('hello, world\n') },
    { name: '1,500 rows (slices)', bytes: many },
    { name: 'over the row limit', bytes: Buffer.from('x\n'.repeat(50_002)) },
  ];
}

beforeAll(async () => {
  gw = await startGateway();
  await gw.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
  org = await gw.organization('pro', 'Engine Org');
  session = await signedInPerson(gw, org.id, 'engine@acme.example');
  config = await pageConfig('en');
  browser = await launchBrowser();
  await browser.context.addCookies([{ name: 'ppfile_session', value: session, url: base }]);
  await browser.page.goto(`${base}/dashboard/try`);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
});

describe('the engine in Chromium answers what the API answers, to the byte', () => {
  it('POST /v1/files/validate: every CSV fixture of the tests, in each kind of file', async () => {
    const fixtures = FIXTURE_DIRS.flatMap((d) => filesUnder(d, ['.csv', '.tsv']));
    // The goldens, the CLI's, the peer vectors, the official exports and column lists, the producers' exports.
    expect(fixtures.length).toBeGreaterThanOrEqual(15);
    const cases = fixtures.flatMap((file) =>
      KINDS.map(([type, declarant]) => ({
        name: `${path.relative(ROOT, file)} as ${type}/${declarant}`,
        op: 'validate-csv' as const,
        bytes: readFileSync(file),
        form: { type, declarant, strict_references: true, filename: path.basename(file) },
      })),
    );
    const results = await expectParity(cases);
    // Every one is a validation answer (an official export or a column list is a file rejected as a whole).
    expect(results).toBe(cases.length);
  });

  it('POST /v1/files/validate: encodings, line ends, slices, refusals; lenient references; in French', async () => {
    const made = madeCsvs();
    const cases = made.flatMap(({ name, bytes }) =>
      KINDS.slice(1, 2).map(([type, declarant]) => ({
        name,
        op: 'validate-csv' as const,
        bytes,
        form: { type, declarant, strict_references: true, filename: 'made.csv' },
      })),
    );
    const lenient = cases.map((c) => ({
      ...c,
      name: `${c.name}, lenient`,
      form: { ...c.form, strict_references: false },
    }));
    const wrongForm = {
      name: 'a wrong type',
      op: 'validate-csv' as const,
      bytes: goldenCsv('adf', 'employer'),
      form: { type: 'xyz', declarant: 'employer', strict_references: true, filename: 'x.csv' },
    };
    const results = await expectParity([...cases, ...lenient, wrongForm]);
    // All answered but the file over the row limit (strict and lenient) and the wrong type: the API's refusals.
    expect(results).toBe(cases.length * 2 - 2);
    await expectParity([...cases.slice(0, 6), wrongForm], 'fr');
  });

  it('POST /v1/declarations/import: the workbooks of the tests (made by other programs too), CSV and TSV, mappings, sheets, refusals', async () => {
    const workbooks = FIXTURE_DIRS.flatMap((d) => filesUnder(d, ['.xlsx', '.fods']));
    expect(workbooks.length).toBeGreaterThanOrEqual(8);
    const spreadsheets = FIXTURE_DIRS.flatMap((d) => filesUnder(d, ['.csv'])).filter((f) =>
      f.includes(`${path.sep}sheets${path.sep}`),
    );
    const cases: (EngineCase & { name: string })[] = [];
    for (const file of [...workbooks, ...spreadsheets])
      for (const [type, declarant] of KINDS)
        cases.push({
          name: `${path.relative(ROOT, file)} as ${type}/${declarant}`,
          op: 'import',
          bytes: readFileSync(file),
          form: { type, declarant, strict_references: true, filename: path.basename(file) },
        });
    // The goldens as a workbook, as TSV and as the official CSV itself (official headers).
    for (const [type, declarant] of KINDS) {
      const rows = goldenCsv(type, declarant)
        .toString('utf8')
        .trimEnd()
        .split('\r\n')
        .map((l) => l.split('|'));
      const form = { type, declarant, strict_references: true };
      cases.push(
        {
          name: `golden ${type}/${declarant} xlsx`,
          op: 'import',
          bytes: sheet(rows),
          form: { ...form, filename: 'g.xlsx' },
        },
        {
          name: `golden ${type}/${declarant} tsv`,
          op: 'import',
          bytes: Buffer.from(rows.map((r) => r.join('\t')).join('\r\n')),
          form: { ...form, filename: 'g.tsv' },
        },
        {
          name: `golden ${type}/${declarant} csv`,
          op: 'import',
          bytes: goldenCsv(type, declarant),
          form: { ...form, filename: 'g.csv' },
        },
      );
    }
    // Headers people write, a mapping that overrides them, a sheet named, and a sheet that is not there.
    const rows = goldenCsv('adf', 'employer')
      .toString('utf8')
      .trimEnd()
      .split('\r\n')
      .map((l) => l.split('|'));
    const renamed = [
      rows[0]!.map((h) => (h === 'NIR' ? 'Numéro de sécu' : h === 'NOM_TITULAIRE' ? 'Nom' : h)),
      ...rows.slice(1),
    ];
    const form = { type: 'adf', declarant: 'employer', strict_references: false, filename: 'r.xlsx' };
    cases.push(
      { name: 'renamed headers', op: 'import', bytes: sheet(renamed), form },
      {
        name: 'a mapping',
        op: 'import',
        bytes: sheet(renamed),
        form: { ...form, mapping: { 'Numéro de sécu': 'NIR', Nom: 'NOM_TITULAIRE' } },
      },
      {
        name: 'a header ignored',
        op: 'import',
        bytes: sheet(renamed),
        form: { ...form, mapping: { Nom: null } },
      },
      { name: 'a sheet named', op: 'import', bytes: sheet(rows), form: { ...form, sheet: 'Declarations' } },
      { name: 'an unknown sheet', op: 'import', bytes: sheet(rows), form: { ...form, sheet: 'Nope' } },
      {
        name: 'a bad mapping',
        op: 'import',
        bytes: sheet(rows),
        form: { ...form, mapping: { Nom: 'NOT_A_COLUMN' } },
      },
      { name: 'not a spreadsheet', op: 'import', bytes: Buffer.from([0, 1, 2, 3, 4, 5, 6, 7, 8]), form },
    );
    const results = await expectParity(cases);
    // The rest are the API's refusals: an encrypted workbook, a flat ODS, an unknown sheet, a bad mapping…
    expect(results).toBeGreaterThan(cases.length / 2);
    await expectParity(cases.slice(-8), 'fr');
  });

  it('POST /v1/declarations/validate: the goldens, the imported bodies, bodies with errors and refusals; normalize-body is libs/rules normalizeBody', async () => {
    const bodies: { name: string; body: Json }[] = [];
    for (const [type, declarant] of KINDS) {
      const golden = JSON.parse(
        readFileSync(path.join(ROOT, 'libs/rules/test/golden', `${type}-${declarant}.json`), 'utf8'),
      );
      bodies.push({ name: `golden ${type}/${declarant}`, body: golden });
      const broken = structuredClone(golden);
      broken.declarations[0].holders[0].nir = ' 12 34 ';
      broken.declarations[0].holders[0].validity_start = '2026-13-45';
      broken.declarations[0].reference = '  Session\u0301 ';
      bodies.push({ name: `broken ${type}/${declarant}`, body: broken });
    }
    // The body an import makes (what the Build page checks again after an edit).
    const imported = JSON.parse(
      (
        await inWorker([
          {
            op: 'import',
            bytes: goldenCsv('adf', 'training_organization'),
            form: {
              type: 'adf',
              declarant: 'training_organization',
              strict_references: true,
              filename: 'g.csv',
            },
          },
        ])
      )[0]!,
    ).result.body;
    bodies.push({ name: 'an imported body', body: imported });
    bodies.push({ name: 'not a body', body: { type: 'adf', declarations: 'x' } as Json });
    let results = 0;
    for (const strict of [true, false]) {
      const answers = await inWorker(
        bodies.map(({ body }) => ({
          op: 'validate-body' as const,
          message: { body, strict_references: strict },
        })),
      );
      for (const [i, { name, body }] of bodies.entries()) {
        const res = await request(gw.http)
          .post('/v1/declarations/validate')
          .set('Authorization', `Bearer ${org.live}`)
          .send({ ...body, options: { ...(body.options ?? {}), strict_references: strict } });
        const api =
          res.status === 200
            ? `{"result":${res.text}}`
            : JSON.stringify({
                error: {
                  status: res.status,
                  code: res.body.error.code,
                  message: res.body.error.message,
                  details: res.body.error.details,
                },
              });
        if (res.status === 200) results++;
        expect({ name, strict, answer: res.status === 200 ? answers[i] : normalized(answers[i]!) }).toEqual({
          name,
          strict,
          answer: api,
        });
      }
    }
    expect(results).toBe((bodies.length - 1) * 2);
    const normalizedAnswers = await inWorker(
      bodies.map(({ body }) => ({ op: 'normalize-body' as const, message: { body } })),
    );
    for (const [i, { name, body }] of bodies.entries()) {
      let expected: string;
      try {
        expected = JSON.stringify({ result: normalizeBody(body, 'en') });
      } catch (e) {
        expected = JSON.stringify({ error: { code: (e as RequestError).code } });
      }
      const answer = JSON.parse(normalizedAnswers[i]!);
      expect({
        name,
        answer: answer.error ? JSON.stringify({ error: { code: answer.error.code } }) : normalizedAnswers[i],
      }).toEqual({
        name,
        answer: expected,
      });
    }
    expect(JSON.parse(normalizedAnswers[1]!).result.changes.length).toBeGreaterThan(3);
  });
});

// ---- Try it: nothing of the file leaves the page --------------------------------------------------------

describe('Try it checks the file on the computer', () => {
  const NAMES = ['DUPONT', 'MARTIN'];
  const NIRS = [NIR_A, NIR_B];

  /** Records every request of the browser (pages and workers) from now on. */
  const record = () => recordRequests(browser.context);

  it('shows the result the API gives, with no request carrying a NIR or a name of the file', async () => {
    const page = browser.page;
    const csv = Buffer.from(invalidCsv(), 'utf8');
    for (const s of [...NIRS, ...NAMES]) expect(csv.toString('utf8')).toContain(s);
    const recorder = record();
    await page.goto(`${base}/dashboard/try`);
    await page.setInputFiles('#file', { name: 'acme-session-sst.csv', mimeType: 'text/csv', buffer: csv });
    await page.selectOption('#type', 'adf');
    await page.selectOption('#declarant', 'training_organization');
    await page.click('form.try-form button[type=submit]');
    await page.waitForSelector('#result');
    recorder.stop();
    const api = await viaApi({
      op: 'validate-csv',
      bytes: csv,
      form: {
        type: 'adf',
        declarant: 'training_organization',
        strict_references: true,
        filename: 'acme-session-sst.csv',
      },
    });
    const expected = JSON.parse(api).result;
    await expect(page.locator('[data-error-count]').getAttribute('data-error-count')).resolves.toBe(
      String(expected.error_count),
    );
    await expect(page.locator('#result h2').textContent()).resolves.toBe('The file has errors.');
    const codes = (
      await page.locator('table[data-group="by-code"] tbody tr td:first-child').allTextContents()
    ).map((c) => c.trim());
    expect(codes.sort()).toEqual(Object.keys(expected.summary.by_code).sort());
    // The requests were seen (the page, its scripts, the worker and the lists it fetched)…
    expect(recorder.seen.some((r) => r.url.includes('/dashboard/static/reference-lists-'))).toBe(true);
    expect(recorder.seen.some((r) => r.url.includes('/dashboard/static/engine-worker.'))).toBe(true);
    // …and none after the page was loaded carries anything of the file, nor any POST at all.
    expect(leaks(recorder.seen, [...NIRS, ...NAMES])).toEqual([]);
    expect(recorder.seen.filter((r) => r.method !== 'GET')).toEqual([]);
    // The page shows no value of the file either.
    const html = await page.content();
    for (const value of [...NIRS, '2550814168', 'ABCDEFGHIJKLM']) expect(html).not.toContain(value);
  });

  it('refuses a file over the API’s 20 MB before reading it; an empty file gets the API’s answer (EMPTY_FILE)', async () => {
    const page = browser.page;
    await page.goto(`${base}/dashboard/try`);
    const submit = 'form.try-form button[type=submit]';
    await page.setInputFiles('#file', {
      name: 'big.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(Math.round(25.3 * 1024 * 1024), 0x41),
    });
    await page.click(submit);
    await expect(page.locator('#try-app [role=alert]').innerText()).resolves.toBe(
      'This file is 25.3 MB; the limit is 20 MB.',
    );
    await page.setInputFiles('#file', { name: 'empty.csv', mimeType: 'text/csv', buffer: Buffer.alloc(0) });
    await page.click(submit);
    const form = {
      type: 'adf',
      declarant: 'training_organization',
      strict_references: true,
      filename: 'empty.csv',
    };
    const api = JSON.parse(await viaApi({ op: 'validate-csv', bytes: Buffer.alloc(0), form }));
    expect(JSON.stringify(api)).toContain('EMPTY_FILE');
    await page.waitForSelector('#result, #try-app [role=alert]');
    const shown = (await page.locator('#try-app').innerText()).replace(/\s+/g, ' ');
    expect(shown).toContain('EMPTY_FILE');
  });

  it('the check of the requests catches a page that would send the file', async () => {
    const page = browser.page;
    const csv = invalidCsv();
    const recorder = record();
    await page.evaluate(async (text) => {
      const g = globalThis as any; // eslint-disable-line @typescript-eslint/no-explicit-any
      // What the old Try it did: the file in a multipart POST (its body is not readable here).
      const form = new g.FormData();
      form.append('file', new g.Blob([text], { type: 'text/csv' }), 'x.csv');
      await g.fetch('/dashboard/try', { method: 'POST', body: form });
      // A body as JSON, a name in a URL.
      await g.fetch('/dashboard/nothing', { method: 'POST', body: JSON.stringify({ csv: text }) });
      await g.fetch(`/dashboard/nothing?name=${encodeURIComponent('MARTIN')}`);
    }, csv);
    recorder.stop();
    expect(leaks(recorder.seen, [NIR_A])).toHaveLength(2);
    expect(leaks(recorder.seen, ['MARTIN'])).toHaveLength(3);
    expect(leaks(recorder.seen.slice(1), [NIR_A])).toEqual([
      expect.stringMatching(/^POST .*\/dashboard\/nothing holds a value of the file$/),
    ]);
    expect(leaks([{ url: 'http://x/?q=MARTIN', method: 'GET', body: null }], ['DUPONT'])).toEqual([]);
    // There is no upload route any more: the old form post is not answered with a check.
    const res = await request(gw.http)
      .post('/dashboard/try')
      .set('Cookie', `ppfile_session=${session}`)
      .attach('file', Buffer.from(csv), 'x.csv');
    expect(res.status).not.toBe(200);
    expect(res.text).not.toContain('data-error-count');
  });

  it('says in plain words, English and French, that the file is checked here and nothing of it is sent', async () => {
    const page = browser.page;
    await page.goto(`${base}/dashboard/try`);
    const en = ((await page.locator('#privacy').textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(en).toBe(
      'Your file is checked here, on this computer, by your browser: nothing of it is sent to ppfile or anywhere else — not a row, not a name, not a social security number.',
    );
    await page.goto(`${base}/dashboard/lang/fr?next=${encodeURIComponent('/dashboard/try')}`);
    await page.waitForURL(`${base}/dashboard/try`);
    const fr = ((await page.locator('#privacy').textContent()) ?? '').replace(/\s+/g, ' ').trim();
    expect(fr).toBe(
      'Votre fichier est vérifié ici, sur votre ordinateur, par votre navigateur : rien n’en est envoyé, ni à ppfile ni ailleurs — pas une ligne, pas un nom, pas un numéro de sécurité sociale.',
    );
    // The check itself speaks French too.
    await page.setInputFiles('#file', {
      name: 's.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(invalidCsv()),
    });
    await page.click('form.try-form button[type=submit]');
    await page.waitForSelector('#result');
    await expect(page.locator('#result h2').textContent()).resolves.toBe('Le fichier contient des erreurs.');
    await page.goto(`${base}/dashboard/lang/en?next=${encodeURIComponent('/dashboard/try')}`);
  });
});
