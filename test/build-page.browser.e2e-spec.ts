import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import request from 'supertest';
import type { Page } from 'playwright-core';
import { monthOf } from '@ppfile/db';
import { launchBrowser, type Browser } from './support/browser';
import { runCli } from './support/cli';
import { startGateway, type Gateway } from './support/gateway';
import { signedInPerson } from './support/dashboard-session';
import { leaks, recordRequests, type Seen } from './support/requests';

/**
 * The Build page (issue 36) in Debian's Chromium against a gateway on a real port (PostgreSQL, Redis,
 * s3rver), one person of one organization, one workbook made by another program (openpyxl: a notes
 * sheet, then the data with a formula never computed, date cells, a NIR as a number):
 *
 * 1. nothing of the file — none of its NIRs or birth names, in any URL or body of any request of the
 *    page or its worker — is sent until Generate is pressed; Generate's request carries them;
 * 2. the problems the page lists are POST /v1/declarations/import's for the same workbook and kind;
 * 3. an invalid cell edited in the grid with the keyboard and checked again is no longer a problem;
 *    "Apply safe fixes" lists what it changed and the grid shows the new values;
 * 4. Generate's download is the CLI's bytes for the body the page sent, on the same day; a double
 *    click makes one file, under Files, its units counted once;
 * 5. axe-core finds no serious or critical violation on the Build page and Try it, English on a
 *    desktop and French on a phone;
 * 6. the flow from the kind to Generate is done with the keyboard alone;
 * 7. screenshots at desktop and phone sizes (the docs' images when PPFILE_DOC_SCREENSHOTS is set).
 *
 * The `it`s are one person's session, in order: each starts where the one before left the page.
 * The body has 3 rows: Generate takes the synchronous path (no worker needed).
 */
jest.setTimeout(120_000);

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
/** The browser's globals, in the functions run in the page (the tests' tsconfig has no DOM library). */
declare const document: Json;
declare const window: Json;

const ROOT = path.resolve(__dirname, '..');
const WORKBOOK = path.join(ROOT, 'libs/sheets/test/fixtures/producers/openpyxl.xlsx');
const KIND = { type: 'adf', declarant: 'training_organization' } as const;
/** The workbook's personal data (libs/sheets/test/fixtures/producers/corpus.json). */
const NIRS = ['2550814168025', '1850578006084', '180122B012345'];
const NAMES = ['DUPONT', 'BÉRANGER', 'GARÇON'];
const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 390, height: 844 };
/** Code lists of 3 values or more (the workbook's hold 1 or 2: VALUE_COUNT errors). */
const SKILLS = '115650/121885/400635/114955';

let gw: Gateway;
let base: string;
let browser: Browser;
let page: Page;
let org: { id: string; live: string };
let tmp: string;
/** Every request of the browser since the Build page was opened, until Generate. */
let recorder: ReturnType<typeof recordRequests>;
let beforeGenerate: Seen[] = [];
let config: { today: string; csrf: string };
let firstFileId: string;

async function liveUsed(): Promise<number> {
  return (await gw.stores.ledger.month(org.id, monthOf(gw.clock.now()))).used;
}

const filesOf = () => gw.prisma.fileRecord.count({ where: { organizationId: org.id } });

/** What the CLI writes for the same body on the same day (`ppfile generate -o --today`). */
function cliBytes(body: Json, today: string): Buffer {
  const input = path.join(tmp, `body-${Math.random().toString(16).slice(2)}.json`);
  const out = `${input}.csv`;
  writeFileSync(input, JSON.stringify(body));
  const run = runCli(['generate', input, '-o', out, '--today', today]);
  expect(run.status).toBe(0);
  return readFileSync(out);
}

/** The API's answer for the workbook, as a live key of the organization gets it. */
async function apiImport(lang: 'en' | 'fr' = 'en'): Promise<Json> {
  const res = await request(gw.http)
    .post('/v1/declarations/import')
    .set('Authorization', `Bearer ${org.live}`)
    .set('Accept-Language', lang)
    .field('type', KIND.type)
    .field('declarant', KIND.declarant)
    .field('strict_references', 'true')
    .attach('file', readFileSync(WORKBOOK), path.basename(WORKBOOK));
  expect(res.status).toBe(200);
  return res.body as Json;
}

// ---- the page, as a person reaches it ----------------------------------------------------------------

/** Presses Tab until the focused element matches `selector`; fails after `max` presses. */
async function tabTo(selector: string, max = 80, key = 'Tab'): Promise<void> {
  for (let i = 0; i < max; i++) {
    await page.keyboard.press(key);
    if (await page.evaluate((s) => document.activeElement?.matches(s) ?? false, selector)) return;
  }
  const at = await page.evaluate(() => document.activeElement?.outerHTML.slice(0, 120));
  throw new Error(`${max} presses of ${key} did not reach ${selector} (focus on ${at})`);
}

async function focusedCell(): Promise<[number, number]> {
  const cell = await page.evaluate(() => document.activeElement?.getAttribute('data-cell') ?? null);
  if (!cell) throw new Error('the focus is not on a cell of the grid');
  const [row, col] = cell.split(':').map(Number);
  return [row!, col!];
}

/** The grid's column index (0-based, data-cell's) of an official column. */
async function columnIndex(name: string): Promise<number> {
  const cell = await page.locator(`td[data-column="${name}"]`).first().getAttribute('data-cell');
  return Number(cell!.split(':')[1]);
}

/** Moves the grid's focus with the arrow keys to the cell (row, column), from the focused cell. */
async function arrowTo(row: number, column: string): Promise<void> {
  const col = await columnIndex(column);
  const [r, c] = await focusedCell();
  for (let i = r; i < row; i++) await page.keyboard.press('ArrowDown');
  for (let i = r; i > row; i--) await page.keyboard.press('ArrowUp');
  for (let i = c; i < col; i++) await page.keyboard.press('ArrowRight');
  for (let i = c; i > col; i--) await page.keyboard.press('ArrowLeft');
  expect(await focusedCell()).toEqual([row, col]);
}

/**
 * Enter on the focused cell, the text typed over its value, Enter: the editor is the cell's, labelled
 * with its column and the workbook's row (grid row r is the sheet's row r + 2: headers on row 1).
 */
async function typeInCell(row: number, column: string, text: string): Promise<void> {
  await arrowTo(row, column);
  await page.keyboard.press('Enter');
  const editor = page.getByLabel(`${column}, sheet row ${row + 2}`, { exact: true });
  await expect(editor.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
  await expect(page.locator(`td[data-cell="${row}:${await columnIndex(column)}"]`).innerText()).resolves.toBe(
    text,
  );
}

/** Waits until no check runs (the progress bar gone, the buttons enabled again). */
async function settled(): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector('[data-testid=build-progress]') &&
      document.querySelector('[data-testid=build-check-again]')?.getAttribute('aria-disabled') !== 'true',
  );
}

const counts = () => page.getByTestId('build-problem-counts').innerText();

/** The problems listed by the page: severity, code, where (cell), column, message. */
function listedProblems(): Promise<Json[]> {
  return page.locator('ol.build-problem-list > li.build-problem').evaluateAll((items) =>
    items.map((li) => {
      const code = li.getAttribute('data-code')!;
      const where = (li.querySelector('.build-go') ?? li.querySelector('span.mono:not(.small)'))!
        .textContent!;
      const [cell, column] = where.split(' · ');
      return {
        severity: li.classList.contains('bad') ? 'error' : 'warning',
        code,
        cell,
        column: column ?? null,
        message: li.textContent!.slice(li.textContent!.indexOf(`${code} — `) + code.length + 3),
      };
    }),
  );
}

/** The counts of a "by code" or "by column" panel: key → [errors, warnings]. */
function groupCounts(by: 'code' | 'column'): Promise<Record<string, [number, number]>> {
  return page
    .getByTestId(`build-groups-${by}`)
    .locator('button[data-key]')
    .evaluateAll((buttons) =>
      Object.fromEntries(
        buttons.map((b) => [
          b.getAttribute('data-key')!,
          [
            Number(b.querySelector('.badge.invalid')?.textContent?.replace(/\D/g, '') ?? 0),
            Number(b.querySelector('.badge.build-badge-warn')?.textContent?.replace(/\D/g, '') ?? 0),
          ],
        ]),
      ),
    );
}

/** axe-core in the page (evaluated: the CSP refuses an inline script tag): its serious and critical violations. */
async function seriousViolations(): Promise<string[]> {
  const source = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Json> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return (result.violations as Json[]).map((v) => ({
      id: v.id as string,
      impact: v.impact as string,
      nodes: (v.nodes as Json[]).map((n) => (n.target as string[]).join(' ')),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.nodes.slice(0, 5).join(', ')}`);
}

/** Scrolls the page so that the element is near the top of the viewport (its card's edge in view). */
async function scrollToTop(selector: string, margin = 40): Promise<void> {
  await page.evaluate(
    ([s, m]) => {
      const top = document.querySelector(s)!.getBoundingClientRect().top + window.scrollY;
      window.scrollTo(0, Math.max(0, top - m));
    },
    [selector, margin] as const,
  );
}

async function buildPageWithWorkbook(): Promise<void> {
  await page.goto(`${base}/dashboard/build`);
  await page.getByTestId('build-file-input').setInputFiles(WORKBOOK);
  await page.getByTestId('build-read-summary').waitFor();
  await settled();
}

async function tryPageWithResult(): Promise<void> {
  await page.goto(`${base}/dashboard/try`);
  // The golden official CSV with two errors: a NIR cut short, an impossible date.
  const lines = readFileSync(path.join(ROOT, 'libs/rules/test/golden/adf-training_organization.csv'), 'utf8')
    .split('\r\n')
    .map((l) => l.split('|'));
  const at = (name: string) => lines[0]!.indexOf(name);
  lines[1]![at('NIR')] = '1920469123';
  lines[2]![at('DATE_DEBUT_VALIDITE')] = '31/02/2026';
  const csv = Buffer.from(lines.map((l) => l.join('|')).join('\r\n'), 'utf8');
  await page.setInputFiles('#file', { name: 'sessions-sst.csv', mimeType: 'text/csv', buffer: csv });
  await page.selectOption('#type', 'adf');
  await page.selectOption('#declarant', 'training_organization');
  await page.click('form.try-form button[type=submit]');
  await page.waitForSelector('#result');
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(tmpdir(), 'ppfile-build-browser-'));
  gw = await startGateway();
  await gw.app.listen(0, '127.0.0.1');
  base = `http://127.0.0.1:${(gw.app.getHttpServer().address() as AddressInfo).port}`;
  org = await gw.organization('starter', 'Build Browser Org');
  const session = await signedInPerson(gw, org.id, 'builder@build-browser.example');
  browser = await launchBrowser();
  page = browser.page;
  await browser.context.addCookies([
    { name: 'ppfile_session', value: session, url: base },
    { name: 'ppfile_lang', value: 'en', url: `${base}/dashboard` },
  ]);
  process.stdout.write(`build page screenshots: ${browser.screenshotDir}\n`);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await gw?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the Build page in Chromium, from a workbook to the portal’s file', () => {
  it('6, 1, 2: keyboard alone from the kind to the file; the problems are the API’s; nothing of the file sent', async () => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    recorder = recordRequests(browser.context);
    await page.goto(`${base}/dashboard/build`);
    const raw = await page.locator('#build-app').getAttribute('data-config');
    config = JSON.parse(raw!) as typeof config;
    await browser.screenshot('build-empty', { fullPage: false, doc: 'build-desktop-en.png' });

    // The kind: Tab to its radios, arrows to change (JDR, then back to ADF; employer, then training organization).
    await tabTo('input[name=build-type]');
    await expect(page.getByRole('radio', { name: /^ADF — / }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: /^JDR — / }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('radio', { name: /^ADF — / }).isChecked()).resolves.toBe(true);
    await tabTo('input[name=build-declarant]');
    await page.keyboard.press('ArrowLeft');
    await expect(page.getByRole('radio', { name: 'Employer' }).isChecked()).resolves.toBe(true);
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('radio', { name: 'Training organization' }).isChecked()).resolves.toBe(true);

    // The file input takes the focus; Space opens the file chooser.
    await tabTo('[data-testid=build-file-input]');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(WORKBOOK);
    await page.getByTestId('build-read-summary').waitFor();
    await settled();
    await expect(page.getByTestId('build-read-summary').innerText()).resolves.toBe(
      '3 rows read from sheet “Stagiaires” (headers on row 1), 2 declarations.',
    );
    await expect(page.getByTestId('build-strict').isChecked()).resolves.toBe(true);

    // 2. The problems listed are the import's answer for the same workbook and kind: reading issues
    // (warnings: the value was left out), errors and warnings — code, cell, column, message.
    const api = await apiImport();
    const v = api.validation as Json;
    expect(v.error_count).toBeGreaterThan(0);
    expect(api.issue_count).toBeGreaterThan(0);
    const entry = (severity: string) => (e: Json) => ({
      severity,
      code: e.code as string,
      cell: e.cell as string,
      column: e.column as string | null,
      message: e.message as string,
    });
    const expected = [
      ...(api.issues as Json[]).map(entry('warning')),
      ...(v.errors as Json[]).map(entry('error')),
      ...(v.warnings as Json[]).map(entry('warning')),
    ];
    const byKey = (a: Json, b: Json) => JSON.stringify(a).localeCompare(JSON.stringify(b));
    expect((await listedProblems()).sort(byKey)).toEqual(expected.sort(byKey));
    const warnings = (v.warning_count as number) + (api.issue_count as number);
    await expect(counts()).resolves.toBe(
      `${v.error_count} error${v.error_count === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
    );
    for (const by of ['code', 'column'] as const) {
      const want: Record<string, [number, number]> = {};
      for (const p of expected) {
        const key = (by === 'code' ? p.code : p.column) ?? '';
        want[key] ??= [0, 0];
        if (p.severity === 'warning') want[key][1]++;
      }
      const summary = v.summary[by === 'code' ? 'by_code' : 'by_column'] as Record<string, number>;
      for (const [key, n] of Object.entries(summary)) (want[key] ??= [0, 0])[0] = n;
      expect(await groupCounts(by)).toEqual(want);
    }
    // The cells of the errors are marked in the grid.
    await expect(
      page.locator('td[data-column=ID_UNIQUE_PARTENAIRE][aria-invalid=true]').count(),
    ).resolves.toBe(1);

    // 1. So far: the page, its scripts, the worker and the reference lists it fetched — none carrying
    // a NIR or a name of the file, and nothing but GETs.
    expect(recorder.seen.some((r) => r.url.includes('/dashboard/static/reference-lists-'))).toBe(true);
    expect(recorder.seen.some((r) => r.url.includes('/dashboard/static/engine-worker.'))).toBe(true);
    expect(leaks(recorder.seen, [...NIRS, ...NAMES])).toEqual([]);
    expect(recorder.seen.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`)).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('5, 7: the problems and the grid pass axe-core (EN, desktop); a cell shown from its problem is highlighted', async () => {
    expect(await seriousViolations()).toEqual([]);
    // The rows are named by the workbook's rows (headers on row 1), the cells by their references.
    await expect(page.locator('th.build-row-head').allInnerTexts()).resolves.toEqual(['2', '3', '4']);
    await expect(page.locator('table.build-grid thead th').first().innerText()).resolves.toMatch(
      /^sheet row$/i,
    );
    await expect(
      page.locator(`td[data-cell="2:${await columnIndex('NIR')}"]`).getAttribute('title'),
    ).resolves.toBe('Stagiaires!L4');
    // A reading issue (the formula saved without its value) is shown in the grid too, at its cell.
    await page.locator('li.build-problem[data-code=UNCOMPUTED_FORMULA] .build-go').click();
    const read = page.locator('td.build-target');
    await expect(read.getAttribute('data-column')).resolves.toBe('ID_UNIQUE_PARTENAIRE');
    await expect(read.getAttribute('data-cell')).resolves.toMatch(/^0:/);
    await expect(read.getAttribute('title')).resolves.toMatch(/^Stagiaires!C2\n/);
    await page.locator('li.build-problem.bad[data-code=REQUIRED_FIELD] .build-go').click();
    const target = page.locator('td.build-target');
    await expect(target.getAttribute('data-column')).resolves.toBe('ID_UNIQUE_PARTENAIRE');
    await expect(target.evaluate((e) => e === document.activeElement)).resolves.toBe(true);
    // The problems listed, and below them the grid with its cell highlighted.
    await page.evaluate(() => {
      const grid = document.querySelector('[data-testid=build-grid]')!.getBoundingClientRect();
      window.scrollTo(0, grid.bottom + window.scrollY + 24 - window.innerHeight);
    });
    await browser.screenshot('build-problems', { fullPage: false, doc: 'build-problems-desktop-en.png' });
  });

  it('3, 6: cells edited with the keyboard, checked again: the errors go; the safe fixes show what they changed', async () => {
    const before = await counts();
    expect(before).toMatch(/^3 errors, /);
    // Into the grid with Tab, at its first cell.
    await page.locator('#build-problems-title').focus();
    await tabTo('td[data-cell]');
    await typeInCell(0, 'ID_UNIQUE_PARTENAIRE', 'SST-2026-09-E1');
    await expect(page.getByTestId('build-edited').isVisible()).resolves.toBe(true);
    await expect(page.getByTestId('build-generate').isDisabled()).resolves.toBe(true);
    await tabTo('[data-testid=build-check-again]');
    await page.keyboard.press('Enter');
    await page.getByTestId('build-edited').waitFor({ state: 'detached' });
    await settled();
    // The button kept the focus through the check (aria-disabled while busy, not disabled).
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe(
      'build-check-again',
    );
    await expect(counts()).resolves.toMatch(/^2 errors, /);
    await expect(page.locator('li.build-problem[data-code=REQUIRED_FIELD]').count()).resolves.toBe(0);
    await expect(
      page.locator('td[data-column=ID_UNIQUE_PARTENAIRE][aria-invalid=true]').count(),
    ).resolves.toBe(0);

    // The two code lists of 1 and 2 values (a declaration's cell: row 1 for the first, row 3 for the
    // second); a date of validity typed as ISO, which is no date of the file's format until fixed.
    await page.locator('td[data-cell="0:0"]').focus();
    await typeInCell(0, 'COMPETENCE_TRANSFERABLE', SKILLS);
    // A declaration's cell: its second row shows the value given on its first.
    await expect(
      page.locator(`td[data-cell="1:${await columnIndex('COMPETENCE_TRANSFERABLE')}"]`).innerText(),
    ).resolves.toBe(SKILLS);
    await typeInCell(2, 'COMPETENCE_TRANSFERABLE', SKILLS);
    await typeInCell(2, 'DATE_FIN_VALIDITE', '2028-10-06');
    await tabTo('[data-testid=build-check-again]');
    await page.keyboard.press('Enter');
    await page.getByTestId('build-edited').waitFor({ state: 'detached' });
    await settled();
    await expect(page.locator('li.build-problem[data-code=VALUE_COUNT]').count()).resolves.toBe(0);
    const afterEdits = await counts();
    const dateErrors = await page.locator('li.build-problem.bad').evaluateAll((l) => l.length);
    expect(afterEdits).toMatch(new RegExp(`^${dateErrors} errors?, `));
    expect(dateErrors).toBeLessThan(2);

    // Apply safe fixes (Space): the change listed, before → after, and the grid's cell changed.
    await tabTo('[data-testid=build-apply-fixes]');
    await page.keyboard.press('Space');
    await page.getByTestId('build-fixes').waitFor();
    await settled();
    await expect(page.getByTestId('build-fixes-count').innerText()).resolves.toBe('1 value fixed.');
    await expect(page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).resolves.toBe(
      'build-apply-fixes',
    );
    const rows = await page
      .getByTestId('build-fixes')
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    expect(rows).toEqual([['3', 'DATE_FIN_VALIDITE', '2028-10-06', '06/10/2028']]);
    const date = `td[data-cell="2:${await columnIndex('DATE_FIN_VALIDITE')}"]`;
    await expect(page.locator(date).innerText()).resolves.toBe('06/10/2028');
    await expect(counts()).resolves.toMatch(/^0 errors, /);
    await expect(page.locator('[aria-invalid=true]').count()).resolves.toBe(0);
  });

  let generated: Json;

  it('6, 1: Generate with Enter — its request, and only it, carries the file’s NIRs and names', async () => {
    const usedBefore = await liveUsed();
    await tabTo('[data-testid=build-generate]');
    // Nothing carried the file's data before Generate: reading, four edits, two checks, the fixes.
    beforeGenerate = [...recorder.seen];
    expect(leaks(beforeGenerate, [...NIRS, ...NAMES])).toEqual([]);
    expect(beforeGenerate.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.url}`)).toEqual([]);

    const answered = page.waitForResponse((r) => r.url().endsWith('/dashboard/build/generate'));
    await page.keyboard.press('Enter');
    const response = await answered;
    expect(response.status()).toBe(200);
    await page.getByTestId('build-generated').waitFor();
    generated = (await response.json()) as Json;
    firstFileId = generated.file_id as string;
    const sent = recorder.seen.slice(beforeGenerate.length);
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.url)).toEqual([`${base}/dashboard/build/generate`]);
    // Each of the NIRs and names is in Generate's body: the check reads bodies.
    for (const secret of [...NIRS, ...NAMES]) expect(leaks(posts, [secret])).toHaveLength(1);
    const body = JSON.parse(posts[0]!.body!.toString('utf8')) as Json;
    expect(body.declarations[0].holders.map((h: Json) => h.nir)).toEqual(NIRS.slice(0, 2));
    expect(await liveUsed()).toBe(usedBefore + 3);
    await expect(
      page
        .getByTestId('build-generated')
        .locator('p')
        .first()
        .evaluate((e) => e === document.activeElement),
    ).resolves.toBe(true);
  });

  it('Generate’s failures are said in its section, focused: session ended → Retry with the same key; 503; 429 waits', async () => {
    const keys: string[] = [];
    const answers = [
      { status: 403, body: { error: { code: 'CSRF_REJECTED', message: 'Refused' } } },
      null, // Retry: the real answer (the same data: the file already made, replayed)
      { status: 503, body: '' },
      { status: 429, body: '', headers: { 'Retry-After': '2' } },
    ];
    await page.route('**/dashboard/build/generate', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const answer = answers.shift();
      if (!answer) return route.continue();
      return route.fulfill({
        status: answer.status,
        headers: { 'Content-Type': 'application/json', ...(answer.headers ?? {}) },
        body: typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body),
      });
    });
    const focused = () =>
      page
        .getByTestId('build-generate-failed')
        .locator('p')
        .first()
        .evaluate((e) => e === document.activeElement);
    const filesBefore = await filesOf();
    try {
      await page.getByTestId('build-generate').click();
      await page.getByTestId('build-generate-failed').waitFor();
      await expect(page.getByTestId('build-generate-failed').innerText()).resolves.toMatch(
        /Your session ended/,
      );
      await expect(page.getByTestId('build-sign-in').getAttribute('target')).resolves.toBe('_blank');
      await expect(focused()).resolves.toBe(true);
      const session = page.waitForResponse((r) => r.url().endsWith('/dashboard/build/session'));
      await page.getByTestId('build-retry').click();
      expect((await session).status()).toBe(200);
      await page.getByTestId('build-generated').waitFor();
      expect(keys).toHaveLength(2);
      expect(keys[1]).toBe(keys[0]);
      expect(await filesOf()).toBe(filesBefore); // the same data: no second file

      await page.getByTestId('build-generate').click();
      await page.getByTestId('build-generate-failed').waitFor();
      await expect(page.getByTestId('build-generate-failed').innerText()).resolves.toMatch(
        /try again in a few minutes/,
      );
      await expect(focused()).resolves.toBe(true);
      await page.getByTestId('build-generate').click();
      await page.waitForFunction(() =>
        /wait 2 seconds/.test(
          document.querySelector('[data-testid=build-generate-failed]')?.textContent ?? '',
        ),
      );
      await expect(page.getByTestId('build-generate').isDisabled()).resolves.toBe(true);
      await page.waitForFunction(
        () => !document.querySelector('[data-testid=build-generate]')?.hasAttribute('disabled'),
        undefined,
        { timeout: 5000 },
      );
    } finally {
      await page.unroute('**/dashboard/build/generate');
    }
    expect(new Set(keys).size).toBe(1);

    // Save this mapping refused once for its token (as after a sign-in in another tab): the session's
    // token is read again and the same mapping is sent again with it, and saved.
    const tokens: string[] = [];
    await page.route('**/dashboard/build/mappings?*', async (route) => {
      if (route.request().method() !== 'PUT') return route.continue();
      tokens.push(route.request().headers()['x-csrf-token'] ?? '');
      if (tokens.length > 1) return route.continue();
      return route.fulfill({
        status: 403,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ error: { code: 'CSRF_REJECTED', message: 'Refused' } }),
      });
    });
    try {
      const session = page.waitForResponse((r) => r.url().endsWith('/dashboard/build/session'));
      await page.getByTestId('build-save-mapping').click();
      expect((await session).status()).toBe(200);
      await page.waitForFunction(() =>
        /Mapping saved/.test(document.querySelector('[data-testid=build-announce]')?.textContent ?? ''),
      );
    } finally {
      await page.unroute('**/dashboard/build/mappings?*');
    }
    expect(tokens).toHaveLength(2);

    // Edited data: choosing another kind asks first; declined, the kind and the data stay.
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.dismiss();
    });
    await page
      .getByRole('radio', { name: /^JDR — / })
      .check({ force: true })
      .catch(() => undefined);
    expect(asked).toBe('Your changes to the data will be lost. Continue?');
    await expect(page.getByRole('radio', { name: /^ADF — / }).isChecked()).resolves.toBe(true);
    await expect(page.getByTestId('build-generated').count()).resolves.toBe(0);
  });

  it('4: a double click on Generate makes one file; its download is the CLI’s bytes for the body sent; under Files', async () => {
    // Another body (a reference changed): a new file, with a new Idempotency-Key.
    await page.locator('td[data-cell="0:0"]').focus();
    await typeInCell(0, 'REFERENCE_DECLARATION', 'Session SST de septembre 2026');
    await page.getByTestId('build-check-again').click();
    await page.getByTestId('build-edited').waitFor({ state: 'detached' });
    await settled();
    const usedBefore = await liveUsed();
    const filesBefore = await filesOf();
    const from = recorder.seen.length;
    await page.getByTestId('build-generate').dblclick();
    await page.getByTestId('build-generated').waitFor();
    await page.waitForTimeout(300); // a second request, had the second click sent one, has landed
    const posts = recorder.seen.slice(from).filter((r) => r.url.endsWith('/dashboard/build/generate'));
    expect(posts.length).toBeGreaterThanOrEqual(1);
    expect(await filesOf()).toBe(filesBefore + 1);
    expect(await liveUsed()).toBe(usedBefore + 3);
    const body = JSON.parse(posts[0]!.body!.toString('utf8')) as Json;
    expect(body).toMatchObject({ type: KIND.type, declarant: KIND.declarant });
    expect(body.declarations[0].reference).toBe('Session SST de septembre 2026');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('build-download').click(),
    ]);
    const bytes = readFileSync((await download.path())!);
    const cli = cliBytes(body, config.today);
    expect(bytes.length).toBeGreaterThan(0);
    expect(bytes.equals(cli)).toBe(true);

    const link = await page.getByTestId('build-download').getAttribute('href');
    const fileId = /\/dashboard\/files\/([^/]+)\/download$/.exec(link!)![1]!;
    expect(fileId).not.toBe(firstFileId);
    await page.getByTestId('build-files-link').click();
    await page.waitForURL(`${base}/dashboard/files`);
    for (const id of [firstFileId, fileId])
      await expect(page.locator(`tr[data-file-id="${id}"]`).count()).resolves.toBe(1);
  });

  it('3: strict references, checked as the API’s default; unchecked, an unknown code is a warning (the file read again)', async () => {
    await page.goto(`${base}/dashboard/build`);
    const strict = page.getByTestId('build-strict');
    await expect(strict.isChecked()).resolves.toBe(true);
    const csv = readFileSync(
      path.join(ROOT, 'libs/rules/test/golden/adf-training_organization.csv'),
      'utf8',
    ).replace('|115650/', '|999999/');
    await page
      .getByTestId('build-file-input')
      .setInputFiles({ name: 'strict.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
    await page.getByTestId('build-read-summary').waitFor();
    await settled();
    const unknown = 'li.build-problem[data-code=INVALID_ROME_CODE]';
    await expect(page.locator(`${unknown}.bad`).count()).resolves.toBe(1);
    // Its cell in the sheet (a CSV's "sheet": the file's name), the code list of the sheet's row 2.
    await expect(page.locator(`${unknown} .build-go`).innerText()).resolves.toBe(
      "'strict.csv'!H2 · COMPETENCE_TRANSFERABLE",
    );
    await strict.uncheck();
    await page.waitForFunction((s) => document.querySelector(`${s}.warn`) !== null, unknown);
    await settled();
    await expect(page.locator(`${unknown}.bad`).count()).resolves.toBe(0);
    await expect(counts()).resolves.toMatch(/^0 errors, /);
    await strict.check();
    await page.waitForFunction((s) => document.querySelector(`${s}.bad`) !== null, unknown);
    await settled();
  });

  it('1: a check that never answers can be cancelled; the next file starts a new checker that works', async () => {
    // The reference lists never arrive: the first checker waits for good.
    const lists = '**/dashboard/static/reference-lists-*';
    await browser.context.route(lists, () => undefined);
    try {
      await page.goto(`${base}/dashboard/build`);
      await page.getByTestId('build-file-input').setInputFiles(WORKBOOK);
      const cancel = page.getByTestId('build-cancel');
      await cancel.waitFor();
      await cancel.click();
      await expect(page.getByTestId('build-alert').innerText()).resolves.toBe('The check was cancelled.');
      await expect(cancel.count()).resolves.toBe(0);
      // Whether the route saw the lists is not asserted: a worker's fetch may be answered from the
      // browser's cache of the immutable lists, unseen by the route (a CI run saw none of it); the
      // cancelled check is what is tested.
    } finally {
      await browser.context.unroute(lists);
    }
    await page.getByTestId('build-file-input').setInputFiles(WORKBOOK);
    await page.getByTestId('build-read-summary').waitFor();
    await settled();
  });

  it('Try it: a check that never answers keeps the focus on its button, and Cancel stops it', async () => {
    const lists = '**/dashboard/static/reference-lists-*';
    await browser.context.route(lists, () => undefined);
    try {
      await page.goto(`${base}/dashboard/try`);
      await page.setInputFiles('#file', {
        name: 'one.csv',
        mimeType: 'text/csv',
        buffer: Buffer.from('NIR\r\n', 'utf8'),
      });
      const submit = page.locator('form.try-form button[type=submit]');
      await submit.focus();
      await page.keyboard.press('Enter');
      const cancel = page.getByTestId('try-cancel');
      await cancel.waitFor();
      // Busy, said to assistive technologies, but still focused (a disabled button drops the focus).
      await expect(submit.getAttribute('aria-disabled')).resolves.toBe('true');
      await expect(submit.evaluate((b) => b === document.activeElement)).resolves.toBe(true);
      await cancel.click();
      await expect(cancel.count()).resolves.toBe(0);
      await expect(submit.getAttribute('aria-disabled')).resolves.toBeNull();
    } finally {
      await browser.context.unroute(lists);
    }
  });

  it('2: a file over the API’s 20 MB is refused before it is read, with its size and the limit', async () => {
    await page.goto(`${base}/dashboard/build`);
    await page.getByTestId('build-file-input').setInputFiles({
      name: 'big.csv',
      mimeType: 'text/csv',
      buffer: Buffer.alloc(Math.round(25.3 * 1024 * 1024), 0x41),
    });
    await expect(page.getByTestId('build-alert').innerText()).resolves.toBe(
      'This file is 25.3 MB; the limit is 20 MB.',
    );
    await expect(page.getByTestId('build-read-summary').count()).resolves.toBe(0);
  });

  it('2: an .xls goes to the engine, whose refusal says how to save it as .xlsx, in one sentence', async () => {
    await page.goto(`${base}/dashboard/build`);
    const ole = Buffer.alloc(4096);
    Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(ole);
    await page
      .getByTestId('build-file-input')
      .setInputFiles({ name: 'old.xls', mimeType: 'application/vnd.ms-excel', buffer: ole });
    const alert = page.getByTestId('build-alert');
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toMatch(
      /^The file is not a readable XLSX or CSV spreadsheet \(.*\.xls.*save it as \.xlsx\)\.$/,
    );
  });

  it('5, 7: Try it with a result passes axe-core (EN, desktop)', async () => {
    await tryPageWithResult();
    expect(await seriousViolations()).toEqual([]);
    await browser.screenshot('try-result', { fullPage: false, doc: 'try-desktop-en.png' });
  });

  it('5, 7: in French on a phone, the Build page with its problems and Try it with a result pass axe-core', async () => {
    await browser.context.addCookies([{ name: 'ppfile_lang', value: 'fr', url: `${base}/dashboard` }]);
    await page.setViewportSize(PHONE);
    await buildPageWithWorkbook();
    await expect(page.getByRole('radio', { name: 'Organisme de formation' }).isChecked()).resolves.toBe(true);
    await expect(counts()).resolves.toMatch(/^3 erreurs, /);
    expect(await seriousViolations()).toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await browser.screenshot('build-phone-fr', { fullPage: false, doc: 'build-phone-fr.png' });
    await scrollToTop('#build-problems-title');
    await browser.screenshot('build-problems-phone-fr', { fullPage: false });

    await tryPageWithResult();
    await expect(page.locator('#result h2').textContent()).resolves.toBe('Le fichier contient des erreurs.');
    expect(await seriousViolations()).toEqual([]);
    await scrollToTop('#privacy', 12);
    await browser.screenshot('try-phone-fr', { fullPage: false, doc: 'try-phone-fr.png' });
    await page.setViewportSize(DESKTOP);
  });
});
