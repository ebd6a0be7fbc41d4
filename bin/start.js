#!/usr/bin/env node
'use strict';
// `npm start`: builds what is stale (and only that), then runs start-local (apps/cli/src/start-local.ts).
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
const TARGETS = [
  { app: 'cli', main: 'dist/cli/apps/cli/src/start-local.js', sources: ['apps/cli/src', 'bench'] },
  { app: 'gateway', main: 'dist/apps/gateway/apps/gateway/src/main.js', sources: ['apps/gateway/src'] },
  { app: 'worker', main: 'dist/apps/worker/apps/worker/src/main.js', sources: ['apps/worker/src'] },
];
const SHARED = ['libs', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json'];

/** Newest modification time under `p` (a file or a folder), ignoring tests. */
function newest(p) {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return /\.(spec|e2e-spec)\.ts$/.test(p) ? 0 : s.mtimeMs;
  let max = 0;
  for (const name of readdirSync(p)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

const shared = Math.max(...SHARED.map((p) => newest(path.join(ROOT, p))));
const stale = TARGETS.filter(({ main, sources }) => {
  const out = path.join(ROOT, main);
  if (!existsSync(out)) return true;
  const latest = Math.max(shared, ...sources.map((p) => newest(path.join(ROOT, p))));
  return statSync(out).mtimeMs < latest;
});
// The dashboard's browser bundles (libs/dashboard/web/build.mjs, about a second): the gateway serves them.
const WEB_MANIFEST = path.join(ROOT, 'dist/dashboard-web/manifest.json');
const webSources = Math.max(
  ...['libs', 'package.json', 'package-lock.json'].map((p) => newest(path.join(ROOT, p))),
);
const webStale = !existsSync(WEB_MANIFEST) || statSync(WEB_MANIFEST).mtimeMs < webSources;
if (stale.length === 0 && !webStale)
  process.stdout.write('ppfile: build is current (cli, gateway, worker, web)\n');
for (const { app } of stale) {
  process.stdout.write(`ppfile: building ${app}…\n`);
  const nest = path.join(ROOT, 'node_modules', '.bin', 'nest');
  const r = spawnSync(nest, ['build', app], { cwd: ROOT, stdio: 'inherit' });
  if (r.status !== 0) {
    process.stderr.write(`ppfile: building ${app} failed (see above)\n`);
    process.exit(1);
  }
}
if (webStale) {
  process.stdout.write('ppfile: building web…\n');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'libs/dashboard/web/build.mjs')], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  if (r.status !== 0) {
    process.stderr.write('ppfile: building web failed (see above)\n');
    process.exit(1);
  }
}
require(path.join(ROOT, TARGETS[0].main));
