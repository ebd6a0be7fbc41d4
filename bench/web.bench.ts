/**
 * Benchmark of the engine in the browser (issue 36). Prints:
 *   (a) the sizes of the front end's files as `npm run build:web` writes them (dist/dashboard-web) and
 *       of the reference lists asset (the shipped, complete lists, codes only, as the gateway builds
 *       it: libs/dashboard/src/assets/web-assets.ts), raw, gzip (level 9) and brotli (quality 9, what
 *       the gateway precomputes; 11 too) — target: engine worker + lists ≤ 1.5 MB compressed;
 *   (b) in Debian's Chromium (headless, playwright-core), a page of the same origin that runs the
 *       engine worker: the worker's start with the lists' fetch (init), then the check of a valid
 *       50,000-row official CSV (validate-csv: from the bytes handed to the worker to the answer in
 *       the page, structured clone of the answer included) — the first one and the median of REPEAT
 *       warm ones — target < 3 s; and, for the Build page, the import of the same CSV into a body and
 *       the validation of that body.
 *
 * Run: npm run bench:web   (figures go to stdout; PPFILE_CHROMIUM names another Chromium)
 */
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, generateFile, REFERENCE_LIST_NAMES } from '@ppfile/rules';
import { largeAdfBody } from './bodies';
import { ROOT } from './support';

const ROWS = 50_000;
const REPEAT = 5;
const TODAY = 20261122;
const WEB = path.join(ROOT, 'dist/dashboard-web');
const CHROMIUM = process.env.PPFILE_CHROMIUM ?? '/usr/bin/chromium';
const TARGET_BYTES = 1.5 * 1024 * 1024;
const TARGET_MS = 3000;

/** What the page function handles: the bench compiles without the DOM's types. */
type Loose = any; // eslint-disable-line @typescript-eslint/no-explicit-any

const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

interface Sizes {
  raw: number;
  gzip: number;
  br9: number;
  br11: number;
}

function sizes(body: Buffer): Sizes {
  const br = (quality: number) =>
    brotliCompressSync(body, {
      params: {
        [zlib.BROTLI_PARAM_QUALITY]: quality,
        [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT,
        [zlib.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    }).length;
  return { raw: body.length, gzip: gzipSync(body, { level: 9 }).length, br9: br(9), br11: br(11) };
}

/** The lists asset as the gateway serves it (web-assets.ts referenceListsAsset): codes only. */
function listsAsset(): Buffer {
  const lists = new ReferenceDirectory(null).lists(CURRENT_SPEC_VERSION);
  const body = {
    spec_version: CURRENT_SPEC_VERSION,
    lists: Object.fromEntries(
      REFERENCE_LIST_NAMES.map((name) => {
        const list = lists[name];
        return [
          name,
          {
            source: list.source,
            version: list.version,
            complete: list.complete,
            codes: [...list.entries.keys()].join('\n'),
          },
        ];
      }),
    ),
  };
  return Buffer.from(JSON.stringify(body), 'utf8');
}

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>engine bench</title></head><body></body></html>`;

/** A same-origin server of the built files, the lists and an empty page. */
async function serve(
  files: Map<string, { type: string; body: Buffer }>,
): Promise<{ base: string; close(): void }> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const file = files.get((req.url ?? '/').split('?')[0]!);
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'Content-Type': file.type, 'Content-Length': String(file.body.length) });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => server.close(),
  };
}

interface PageFigures {
  initMs: number;
  firstMs: number;
  warmMs: number[];
  rowsTotal: number;
  valid: boolean;
  importMs: number;
  declarations: number;
  validateBodyMs: number;
  bodyRows: number;
}

async function main(): Promise<void> {
  const manifest = JSON.parse(readFileSync(path.join(WEB, 'manifest.json'), 'utf8')) as Record<
    string,
    string
  >;
  const lists = listsAsset();
  process.stdout.write(
    `bench:web — dist/dashboard-web (build:web) and the ${CURRENT_SPEC_VERSION} lists\n\n`,
  );
  process.stdout.write('file                       raw         gzip-9      brotli-9    brotli-11\n');
  const rows: [string, Sizes][] = [];
  for (const [logical, file] of Object.entries(manifest))
    rows.push([logical, sizes(readFileSync(path.join(WEB, file)))]);
  rows.push(['reference-lists.json', sizes(lists)]);
  for (const [name, s] of rows)
    process.stdout.write(
      `${name.padEnd(26)} ${kb(s.raw).padEnd(11)} ${kb(s.gzip).padEnd(11)} ${kb(s.br9).padEnd(11)} ${kb(s.br11)}\n`,
    );
  const engine = rows.find(([n]) => n === 'engine-worker.js')![1];
  const listSizes = rows.find(([n]) => n === 'reference-lists.json')![1];
  const total = { gzip: engine.gzip + listSizes.gzip, br9: engine.br9 + listSizes.br9 };
  process.stdout.write(
    `\nengine + lists, as the gateway serves them: ${kb(total.br9)} brotli, ${kb(total.gzip)} gzip ` +
      `(target ≤ ${kb(TARGET_BYTES)}: ${Math.max(total.br9, total.gzip) <= TARGET_BYTES ? 'met' : 'MISSED'})\n`,
  );

  const refs = new ReferenceDirectory(null).lists(CURRENT_SPEC_VERSION);
  const csv = generateFile(largeAdfBody(ROWS, 4), { refs, today: TODAY, generationDay: TODAY }).content;
  const workerFile = `/${manifest['engine-worker.js']!}`;
  const files = new Map<string, { type: string; body: Buffer }>([
    ['/', { type: 'text/html; charset=utf-8', body: Buffer.from(PAGE) }],
    [workerFile, { type: 'text/javascript; charset=utf-8', body: readFileSync(path.join(WEB, workerFile)) }],
    ['/lists.json', { type: 'application/json', body: lists }],
    ['/bench.csv', { type: 'text/csv', body: csv }],
  ]);
  const server = await serve(files);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.base}/`);
    const figures = await page.evaluate(
      async ({ workerFile, today, repeat }): Promise<PageFigures> => {
        /* eslint-disable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
        const g = globalThis as Loose;
        const now = (): number => g.performance.now() as number;
        const csv = (await (await g.fetch('/bench.csv')).arrayBuffer()) as ArrayBuffer;
        let id = 0;
        const t0 = now();
        const worker = new g.Worker(workerFile);
        const ask = (message: Record<string, unknown>, transfer: unknown[] = []): Promise<Loose> =>
          new Promise((resolve, reject) => {
            const mine = ++id;
            const on = (event: { data: { id: number; type: string; result?: unknown; error?: unknown } }) => {
              if (event.data.id !== mine || event.data.type === 'progress') return;
              worker.removeEventListener('message', on);
              if (event.data.type === 'result') resolve(event.data.result);
              else reject(new Error(JSON.stringify(event.data.error)));
            };
            worker.addEventListener('message', on);
            worker.postMessage({ ...message, id: mine }, transfer);
          });
        await ask({ op: 'init', init: { listsUrl: '/lists.json', today, lang: 'en' } });
        const initMs = now() - t0;
        const form = {
          type: 'adf',
          declarant: 'training_organization',
          strict_references: true,
          filename: 'b.csv',
        };
        const check = async () => {
          const bytes = csv.slice(0);
          const start = now();
          const result = await ask({ op: 'validate-csv', bytes, form }, [bytes]);
          return { ms: now() - start, result };
        };
        const first = await check();
        const warmMs: number[] = [];
        for (let i = 0; i < repeat; i++) warmMs.push((await check()).ms);
        let start = now();
        const bytes = csv.slice(0);
        const imported = await ask({ op: 'import', bytes, form }, [bytes]);
        const importMs = now() - start;
        start = now();
        const validated = await ask({ op: 'validate-body', body: imported.body, strict_references: true });
        const validateBodyMs = now() - start;
        worker.terminate();
        return {
          initMs,
          firstMs: first.ms,
          warmMs,
          rowsTotal: first.result.rows_total,
          valid: first.result.valid,
          importMs,
          declarations: imported.declarations,
          validateBodyMs,
          bodyRows: validated.rows_total,
        };
        /* eslint-enable @typescript-eslint/no-unsafe-call, @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment */
      },
      { workerFile, today: '2026-11-22', repeat: REPEAT },
    );
    const version = browser.version();
    const median = [...figures.warmMs].sort((a, b) => a - b)[Math.floor(figures.warmMs.length / 2)]!;
    const ms = (n: number) => `${Math.round(n)} ms`;
    process.stdout.write(
      `\nChromium ${version}, headless, this machine; a valid ${ROWS.toLocaleString('en')}-row adf CSV of ${kb(csv.length)}\n` +
        `  worker start + lists fetched and built (init): ${ms(figures.initMs)}\n` +
        `  validate-csv, first: ${ms(figures.firstMs)}; warm median of ${REPEAT}: ${ms(median)} ` +
        `(${figures.warmMs.map(ms).join(', ')}) — ${figures.rowsTotal} rows, valid: ${figures.valid} ` +
        `(target < ${TARGET_MS} ms: ${figures.firstMs < TARGET_MS ? 'met' : 'MISSED'})\n` +
        `  first check from a fresh page (init + validate-csv): ${ms(figures.initMs + figures.firstMs)}\n` +
        `  import of the same CSV into a body: ${ms(figures.importMs)} (${figures.declarations} declarations)\n` +
        `  validate-body of that body: ${ms(figures.validateBodyMs)} (${figures.bodyRows} rows)\n`,
    );
  } finally {
    await browser.close();
    server.close();
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
