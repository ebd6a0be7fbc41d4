/** What the benchmarks that run the built apps as processes share: paths, services, starting a process. */
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { ROME_CODES, SIRET_A } from '@ppfile/rules/testing/fixtures';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@ppfile/storage';

/**
 * The repository: three levels up from the built benchmarks (dist/cli/bench), one from their sources
 * (bench/, as an e2e test imports them).
 */
export const ROOT = [path.resolve(__dirname, '../../..'), path.resolve(__dirname, '..')].find((dir) =>
  existsSync(path.join(dir, 'bin/ppfile.js')),
)!;
export const GATEWAY = path.join(ROOT, 'dist/apps/gateway/apps/gateway/src/main.js');
export const WORKER = path.join(ROOT, 'dist/apps/worker/apps/worker/src/main.js');
export const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ppfile_bench';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A local S3 endpoint and the environment of a gateway or worker using it (a key of its own, a
 * Redis prefix of its own). With `s3Process`, s3rver runs in a process of its own (the test
 * stack's s3rver-child.js), so that its CPU time can be read apart from the benchmark's.
 */
export async function benchServices(
  prefix: string,
  options: { s3Process?: boolean } & StartOptions = {},
): Promise<{ env: NodeJS.ProcessEnv; s3Pid: number | null; close(): Promise<void> }> {
  const s3dir = mkdtempSync(path.join(tmpdir(), `ppfile-${prefix}-s3-`));
  const s3 = options.s3Process
    ? await startS3Process(s3dir, options)
    : { ...(await startLocalS3({ directory: s3dir })), pid: null };
  return {
    s3Pid: s3.pid,
    env: {
      ...process.env,
      DATABASE_URL: DB_URL,
      REDIS_URL,
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: LOCAL_S3_CREDENTIALS.accessKey,
      S3_SECRET_KEY: LOCAL_S3_CREDENTIALS.secretKey,
      S3_BUCKET: 'ppfile-bench',
      PAYLOAD_ENCRYPTION_KEY: randomBytes(32).toString('base64'),
      QUEUE_PREFIX: `${prefix}-${randomBytes(4).toString('hex')}`,
      // Several workers on one machine: health ports of their own.
      WORKER_HTTP_PORT: '0',
      NODE_ENV: 'production',
    },
    async close() {
      await s3.close();
      rmSync(s3dir, { recursive: true, force: true });
    },
  };
}

export interface StartOptions {
  /**
   * In a process group of its own (`detached`), stopped by signalling the group (stopProcess): what
   * the app started (its threads' helpers, a shell) goes with it, and a benchmark or test that
   * fails stops exactly what it started.
   */
  detached?: boolean;
  /** Every chunk the process writes on stdout and stderr (a log audit); otherwise only the last 8 KB are kept. */
  onOutput?: (chunk: Buffer) => void;
  /** The process as soon as it is spawned, before it is ready (to stop it whatever happens next). */
  onSpawn?: (child: ChildProcess) => void;
}

/** Starts a built app and resolves once its output matches `ready`. */
export function startProcess(
  main: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  args: string[] = [],
  options: StartOptions = {},
): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: options.detached === true,
    });
    options.onSpawn?.(child);
    let out = '';
    let started = false;
    const timer = setTimeout(() => {
      reject(new Error(`${main} did not start: ${out.slice(-1000)}`));
      void stopProcess(child, 'SIGKILL');
    }, 30_000);
    // Kept draining after the start (a full pipe would block the app), its tail only: a long run's
    // logs are not held, nor searched again on every chunk.
    const on = (d: Buffer) => {
      options.onOutput?.(d);
      out = (out + d.toString()).slice(-8192);
      if (!started && ready.test(out)) {
        started = true;
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${main} exited ${signal ?? code}: ${out.slice(-2000)}`));
    });
  });
}

/**
 * `signal` (SIGTERM by default), then waits for the exit: to its process group when it was started
 * `detached`, to the process alone otherwise. Safe twice.
 */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    if (isGroupLeader(child.pid)) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ESRCH') throw e;
  }
  await exited;
}

/** Whether `pid` leads its own process group (spawned `detached`): /proc/<pid>/stat's field 5. */
function isGroupLeader(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) === pid;
  } catch {
    return false;
  }
}

async function startS3Process(
  directory: string,
  options: StartOptions,
): Promise<{ endpoint: string; pid: number; close(): Promise<void> }> {
  const port = await freePort();
  const child = await startProcess(
    path.join(ROOT, 'test/support/s3rver-child.js'),
    process.env,
    /S3RVER READY/,
    [String(port), directory],
    options,
  );
  return { endpoint: `http://127.0.0.1:${port}`, pid: child.pid!, close: () => stopProcess(child) };
}

/** A port free now (other benchmarks and tests on this machine take fixed ones). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds used so far by the PostgreSQL backends serving one database (pg_stat_activity's
 * pids, read from /proc), per backend: unlike every `postgres` process, this leaves out whatever
 * else the shared server does meanwhile (other databases' work; its background writers too).
 * Compare two readings with `backendCpuSince`.
 */
export async function backendCpu(
  query: (sql: string, database: string) => Promise<{ pid: number }[]>,
  database: string,
): Promise<Map<number, number>> {
  const rows = await query('SELECT pid FROM pg_stat_activity WHERE datname = $1', database);
  return new Map(rows.map((r) => [Number(r.pid), cpuSeconds(Number(r.pid))]));
}

/** CPU seconds the backends spent between two readings (a backend born since counts from zero). */
export function backendCpuSince(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** The processes named `comm` now (e.g. every PostgreSQL process). */
export function pidsOf(comm: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')) === comm) pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds used so far by every process named `comm` (e.g. all PostgreSQL backends). */
export function cpuSecondsOf(comm: string): number {
  return pidsOf(comm).reduce((total, pid) => total + cpuSeconds(pid), 0);
}

/**
 * A training organization's adf body of `holders` holders in sessions of 500 (each holder distinct
 * by `seed`), with `options` when given: the large bodies of the queue benchmarks.
 */
export function sessionsBody(holders: number, seed: number, options?: Record<string, unknown>): string {
  const declarations = [];
  for (let d = 0; d * 500 < holders; d++) {
    const list = [];
    for (let h = 0; h < 500 && d * 500 + h < holders; h++) {
      const n = d * 500 + h;
      list.push({
        unique_id: `S${seed}-${d}-${n}`,
        nir: `${1 + (n % 2)}${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`,
        birth_name: `NOM-${n % 997}`,
        employer_siret: SIRET_A,
        validity_start: '15/09/2026',
      });
    }
    declarations.push({
      id: `S${seed}-${d}`,
      reference: `Session ${d}`,
      transferable_skills: ROME_CODES.slice(0, 3),
      training: {
        name: 'Sauveteur secouriste du travail',
        start_date: '14/09/2026',
        end_date: '15/09/2026',
        certifying: false,
        formacodes: ['42829'],
        nsf_codes: ['344r'],
      },
      holders: list,
    });
  }
  return JSON.stringify({
    type: 'adf',
    declarant: 'training_organization',
    declarations,
    ...(options ? { options } : {}),
  });
}
