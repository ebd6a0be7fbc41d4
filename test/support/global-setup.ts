/**
 * jest globalSetup of the e2e project, run once before any e2e file (and before the workers start):
 *
 * 1. runs `npx ppfile --version` once: npm's first `npx ppfile` of a clone links the repository into
 *    its cache and runs `prepare` again (prisma generate, nest build cli: docs/cli.md), which deletes
 *    dist/cli and rewrites libs/db/src/generated under the files running beside it; done here, the
 *    tests' own `npx ppfile` (cli.e2e-spec, README's blocks) find it linked;
 * 2. builds what is stale among the CLI, the gateway and the worker, the three `nest build`s at once,
 *    so that no test file builds (a build deletes its dist/ folder first, which would break the files
 *    running beside it) and `npm start` finds the build current (bin/start.js, same sources); and the
 *    dashboard's browser bundles (`npm run build:web`, about a second) when stale;
 * 3. makes sure the migrated template database exists (support/database.ts), so that each test
 *    database is a copy of it instead of a fresh run of every migration.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ensureTemplateDatabase } from './database';

const ROOT = path.resolve(__dirname, '../..');

/** What each build produces; the file whose age says whether it is stale (bin/start.js's TARGETS). */
export const BUILDS = {
  cli: 'dist/cli/apps/cli/src/start-local.js',
  gateway: 'dist/apps/gateway/apps/gateway/src/main.js',
  worker: 'dist/apps/worker/apps/worker/src/main.js',
} as const;

/**
 * Every source a build may read: a superset of bin/start.js's lists for every app, so that a build
 * newer than all of them is current for bin/start.js too.
 */
const SOURCES = [
  'apps',
  'libs',
  'bench',
  'docs/examples',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'nest-cli.json',
];

/** Newest modification time under `p` (a file or a folder), ignoring tests (as bin/start.js). */
function newest(p: string): number {
  if (!existsSync(p)) return 0;
  const s = statSync(p);
  if (!s.isDirectory()) return /\.(spec|e2e-spec)\.ts$/.test(p) ? 0 : s.mtimeMs;
  let max = 0;
  for (const name of readdirSync(p)) max = Math.max(max, newest(path.join(p, name)));
  return max;
}

/** The apps whose build is missing or older than a source. */
export function staleBuilds(): (keyof typeof BUILDS)[] {
  const sources = Math.max(...SOURCES.map((p) => newest(path.join(ROOT, p))));
  return (Object.keys(BUILDS) as (keyof typeof BUILDS)[]).filter((app) => {
    const out = path.join(ROOT, BUILDS[app]);
    return !existsSync(out) || statSync(out).mtimeMs < sources;
  });
}

/** The browser bundles' manifest, written last by libs/dashboard/web/build.mjs. */
export const WEB_MANIFEST = 'dist/dashboard-web/manifest.json';
/** What the browser bundles read: the web folder, the libraries it bundles, the packages. */
const WEB_SOURCES = ['libs', 'package.json', 'package-lock.json'];

export function webBuildStale(): boolean {
  const out = path.join(ROOT, WEB_MANIFEST);
  if (!existsSync(out)) return true;
  return statSync(out).mtimeMs < Math.max(...WEB_SOURCES.map((p) => newest(path.join(ROOT, p))));
}

/** `npm run build:web` (esbuild: about a second). */
export function webBuild(): Promise<void> {
  return run(process.execPath, [path.join(ROOT, 'libs/dashboard/web/build.mjs')], 'build:web');
}

function run(command: string, args: string[], name: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${name} failed (${code}):\n${out}`)),
    );
  });
}

function nestBuild(app: string): Promise<void> {
  return run(path.join(ROOT, 'node_modules', '.bin', 'nest'), ['build', app], `nest build ${app}`);
}

/** `npx ppfile --version` from the repository (its failure is the tests' to report). */
function linkNpx(): Promise<void> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['ppfile', '--version'], { cwd: ROOT, stdio: 'ignore' });
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}

export default async function globalSetup(): Promise<void> {
  const started = Date.now();
  const template = ensureTemplateDatabase();
  template.catch(() => undefined); // awaited below: a failure is reported there
  await linkNpx();
  const stale = staleBuilds();
  const web = webBuildStale();
  await Promise.all([...stale.map(nestBuild), ...(web ? [webBuild()] : []), template]);
  const names = [...stale, ...(web ? ['web'] : [])];
  const built = names.length ? `built ${names.join(', ')}` : 'build is current';
  process.stderr.write(`\ne2e setup: ${built}, template database ready (${Date.now() - started} ms)\n`);
}
