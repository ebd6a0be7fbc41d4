#!/usr/bin/env node
/**
 * The dashboard's browser front end (issue 36): the engine worker (libs/rules + libs/sheets), Try it
 * and the Build page, bundled by esbuild into dist/dashboard-web/ with content-hashed names and a
 * manifest `{ "<logical name>": "<file name>" }` the gateway reads to serve them
 * (/dashboard/static/<file name>). `npm run build:web`; `node build.mjs --metafile` also writes
 * esbuild's metafile (what each bundle holds) next to the manifest.
 *
 * The libraries are written for Node: `node:buffer` and `node:crypto` are replaced by the shims of
 * src/shims, and the global `Buffer` they use is injected from there.
 */
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(WEB, '../../..');
export const OUT_DIR = path.join(ROOT, 'dist/dashboard-web');

/** Logical name → entry point. The worker is a classic script (`new Worker(url)`), the pages modules. */
const WORKER = { 'engine-worker.js': 'src/engine/engine.worker.ts' };
const PAGES = {
  'try.js': 'src/try/main.tsx',
  'build.js': 'src/build/main.tsx',
  'build.css': 'src/build/build.css',
};

const shared = {
  bundle: true,
  minify: true,
  sourcemap: false,
  target: ['chrome109', 'firefox115', 'safari16'],
  platform: 'browser',
  legalComments: 'none',
  logLevel: 'warning',
  metafile: true,
  write: true,
  outdir: OUT_DIR,
  entryNames: '[name].[hash]',
  absWorkingDir: ROOT,
  tsconfig: path.join(WEB, 'tsconfig.json'),
  jsx: 'automatic',
  jsxImportSource: 'preact',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/**
 * What makes libs/rules and libs/sheets run in a browser: the Node modules they import replaced by
 * the shims, and the global `Buffer` they use injected. Exported for the tests that run the engine's
 * bundle under Node to compare the shims with Node's own Buffer.
 */
export const NODE_SHIMS = {
  alias: {
    'node:buffer': path.join(WEB, 'src/shims/node-buffer.ts'),
    'node:crypto': path.join(WEB, 'src/shims/node-crypto.ts'),
  },
  inject: [path.join(WEB, 'src/shims/buffer-global.ts')],
};

/** esbuild entry points named after their logical name (`engine-worker.js` → `engine-worker`). */
function entries(map) {
  return Object.entries(map).map(([logical, file]) => ({
    in: path.join(WEB, file),
    out: logical.replace(/\.(js|css)$/, ''),
  }));
}

/** Logical name → output file name, read from esbuild's metafile. */
function outputsOf(metafile, map) {
  const byEntry = new Map(Object.entries(map).map(([logical, file]) => [path.join(WEB, file), logical]));
  const manifest = {};
  for (const [out, meta] of Object.entries(metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const logical = byEntry.get(path.resolve(ROOT, meta.entryPoint));
    // A .tsx entry that imports CSS gets a CSS file too; only the listed entries are named.
    if (logical && path.extname(out) === path.extname(logical)) manifest[logical] = path.basename(out);
  }
  return manifest;
}

export async function buildWeb({ metafile: writeMeta = false } = {}) {
  const started = Date.now();
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const [worker, pages] = await Promise.all([
    build({ ...shared, ...NODE_SHIMS, entryPoints: entries(WORKER), format: 'iife' }),
    build({ ...shared, entryPoints: entries(PAGES), format: 'esm' }),
  ]);
  // The pages leave the rules to the worker and get no Buffer (25 KB): one that needs it is a mistake.
  for (const out of Object.keys(pages.metafile.outputs)) {
    if (out.endsWith('.js') && /\bBuffer\b/.test(readFileSync(path.join(ROOT, out), 'utf8')))
      throw new Error(
        `build:web: ${out} uses Buffer: the format's rules run in the engine worker, not in a page`,
      );
  }
  const manifest = { ...outputsOf(worker.metafile, WORKER), ...outputsOf(pages.metafile, PAGES) };
  for (const logical of [...Object.keys(WORKER), ...Object.keys(PAGES)]) {
    if (!manifest[logical]) throw new Error(`build:web: no output for ${logical}`);
  }
  if (writeMeta) {
    writeFileSync(path.join(OUT_DIR, 'metafile-worker.json'), JSON.stringify(worker.metafile));
    writeFileSync(path.join(OUT_DIR, 'metafile-pages.json'), JSON.stringify(pages.metafile));
  }
  // Written last: its presence says the build is whole (global-setup and bin/start.js test its age).
  writeFileSync(path.join(OUT_DIR, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, ms: Date.now() - started };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { manifest, ms } = await buildWeb({ metafile: process.argv.includes('--metafile') });
  process.stdout.write(`build:web: ${Object.values(manifest).join(', ')} (${ms} ms)\n`);
}
