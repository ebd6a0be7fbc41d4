/**
 * The scale run (issue 35, item 7), shared by `npm run bench:scale` (bench/scale.bench.ts: 60 s, the
 * figures) and test/scale.e2e-spec.ts (a few seconds in CI: the checks). Every piece a process of its
 * own, each in its own process group: 2 gateways, a generate pool of 2 workers
 * (`WORKER_QUEUES=generate,maintenance`) and a validate pool of 2 (`WORKER_QUEUES=validate`), s3rver,
 * over one PostgreSQL database made for the run, the machine's Redis under a prefix of the run's own.
 *
 * Clients of several organizations (two live keys each; one test key) send mixed traffic, each request
 * to the next gateway in turn, without pause (a closed loop) for the run's seconds: validations of JSON
 * bodies, CSV uploads validated in the gateway and by the validate pool, CSV fixes, spreadsheet imports
 * in the gateway's rules threads and by the validate pool, generations answered at once, generations
 * a gateway waits on while the generate pool makes them, asynchronous generations (`Prefer:
 * respond-async`, polled until available), idempotent retries, and downloads of the files made. Then it
 * drains (every asynchronous file finished), stops the apps and checks:
 *   - no answer 5xx (nor a request without an answer);
 *   - units exact per organization: the units the ledger committed, and its monthly counter, equal what
 *     the successful answers say was charged (API.md §10, SERVICE.md §8: a generation its rows once the
 *     file exists, a CSV validated or fixed its rows analysed, a replay nothing), none left reserved;
 *     the same for the test key's rows;
 *   - `ppfile admin reconcile --check` clean (the invariants of accepted work, libs/jobs);
 *   - no file failed, every download byte-identical to its ETag, no app exited by itself.
 * It also measures throughput and p50/p99 per operation and the CPU of each process over the window
 * from /proc — PostgreSQL's per 1,000 requests: the backends of the run's database, and every postgres
 * process as bench/queue.bench.ts reads it (which on this shared server includes others' work).
 *
 * Thresholds are lowered so that the queued paths are taken with small requests (units stay within
 * the plans' monthly quotas): GENERATE_QUEUE_THRESHOLD_ROWS and VALIDATE_QUEUE_THRESHOLD_BYTES below.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { Client } from 'pg';
import { createPrismaClient, createStores, migrate, type PlanName } from '@ppfile/db';
import { generateFile, resolveKind } from '@ppfile/rules';
import { ROME_CODES, SIRET_A, testReferences } from '@ppfile/rules/testing/fixtures';
import { nirKey } from '@ppfile/rules/values/nir';
import { dayToSerial, expandedSize, templateSheets, writeWorkbook, type CellInput } from '@ppfile/sheets';
import {
  benchServices,
  cpuSeconds,
  DB_URL,
  freePort,
  GATEWAY,
  pidsOf,
  REDIS_URL,
  ROOT,
  sessionsBody,
  startProcess,
  stopProcess,
  WORKER,
} from './support';

/** Stored generations of more rows go to the generate pool (default 2,000). */
export const GENERATE_QUEUE_THRESHOLD_ROWS = 100;
/** Uploads (and workbooks, expanded) of more bytes go to the validate pool (default 2 MiB). */
export const VALIDATE_QUEUE_THRESHOLD_BYTES = 32 * 1024;

/** Rows of each request's body or file. */
const ROWS = {
  validateJson: 10,
  generate: 10,
  generateQueued: 150,
  generateAsync: 250,
  testGenerate: 10,
  csv: 20,
  csvQueued: 250,
  sheet: 12,
  sheetQueued: 150,
};

export type Operation =
  | 'validate-json'
  | 'validate-csv'
  | 'validate-csv-queued'
  | 'fix-csv'
  | 'import'
  | 'import-queued'
  | 'generate'
  | 'generate-replay'
  | 'generate-queued'
  | 'generate-async'
  | 'generate-test-key'
  | 'file-status'
  | 'download';

/** What a live key's client sends, by weight (downloads, replays and polls follow from them). */
const LIVE_MIX: [Operation, number][] = [
  ['validate-json', 28],
  ['validate-csv', 12],
  ['validate-csv-queued', 3],
  ['fix-csv', 3],
  ['import', 9],
  ['import-queued', 2],
  ['generate', 30],
  ['generate-queued', 3],
  ['generate-async', 5],
];
/** The test key's client: small generations (against TEST_ROWS_PER_MONTH) and validations. */
const TEST_MIX: [Operation, number][] = [
  ['generate-test-key', 1],
  ['validate-json', 2],
];

/** The organizations: the Starter one reaches its monthly quota during a long run (429, nothing counted). */
const ORGANIZATIONS: { name: string; plan: PlanName }[] = [
  { name: 'Scale A (business)', plan: 'business' },
  { name: 'Scale B (business)', plan: 'business' },
  { name: 'Scale C (pro)', plan: 'pro' },
  { name: 'Scale D (starter)', plan: 'starter' },
];

export interface ScaleOptions {
  /** Seconds of traffic. */
  seconds: number;
  /** Clients sending at once (a closed loop each); at least 3. */
  clients?: number;
  /** A migrated database to use (kept); otherwise one made for the run and dropped after it. */
  databaseUrl?: string;
  /** Every chunk the apps write (a log audit). */
  onOutput?: (chunk: Buffer) => void;
  /** Progress lines. */
  log?: (line: string) => void;
  /** Seed of the clients' choices. */
  seed?: number;
  /**
   * Each app's DATABASE_POOL_MAX (their defaults otherwise: 10 a gateway, 4 a worker). The CI run
   * shares PostgreSQL's 100 connections with the other test files running beside it.
   */
  poolMax?: number;
}

export interface OperationFigures {
  operation: Operation;
  answers: number;
  /** 2xx answers within the window, per second of it. */
  okPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
}

export interface UnitsFigures {
  organization: string;
  plan: PlanName;
  /** What the answers said was charged (live units; test rows). */
  charged: { live: number; test: number };
  /** The ledger: committed reservations, still reserved, and the monthly counters. */
  committed: { live: number; test: number };
  reserved: number;
  counter: { live: number; test: number };
  quotaRefusals: number;
  ok: boolean;
}

export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

export interface ScaleReport {
  seconds: number;
  clients: number;
  operations: OperationFigures[];
  total: { answers: number; inWindow: number; perSecond: number };
  /** Answers per gateway. */
  gateways: number[];
  /** Completed jobs per worker, by job name. */
  jobs: { worker: string; jobs: Record<string, number> }[];
  /** From a 202 to the file's `available` as the client saw it (ms). */
  asyncCompletion: { count: number; p50: number; p99: number };
  /** CPU seconds over the window. */
  cpu: {
    postgresBackends: number;
    postgresAll: number;
    gateways: number;
    generateWorkers: number;
    validateWorkers: number;
    s3: number;
  };
  serverErrors: string[];
  units: UnitsFigures[];
  reconcile: { ok: boolean; output: string };
  problems: string[];
  checks: Check[];
  ok: boolean;
}

interface Key {
  key: string;
  mode: 'live' | 'test';
  org: number;
}

interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
}

/** What the checks read of a validation's answer and of a generation's. */
interface Validation {
  file_rejected?: boolean;
  rows_total: number;
}
interface Generated {
  file_id: string;
  rows: number;
}

function bodyOf<T>(a: Answer): T {
  return JSON.parse(a.body.toString()) as T;
}

interface Pending {
  file: string;
  key: Key;
  since: number;
  next: number;
}

/** The request bodies and files, made once. */
interface Payloads {
  validateJson: string[];
  generate: string[];
  generateQueued: string[];
  generateAsync: string[];
  testGenerate: string[];
  csv: Buffer;
  csvQueued: Buffer;
  sheet: Buffer;
  sheetQueued: Buffer;
}

const KIND = { type: 'adf', declarant: 'training_organization' } as const;
const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

function makePayloads(): Payloads {
  const bodies = (rows: number, seed: number) =>
    Array.from({ length: 4 }, (_, i) => sessionsBody(rows, seed + i));
  const csvOf = (rows: number, seed: number) =>
    generateFile(JSON.parse(sessionsBody(rows, seed)), { refs: testReferences(), lang: 'en' }).content;
  const p: Payloads = {
    validateJson: bodies(ROWS.validateJson, 100),
    generate: bodies(ROWS.generate, 200),
    generateQueued: bodies(ROWS.generateQueued, 300),
    generateAsync: bodies(ROWS.generateAsync, 400),
    testGenerate: bodies(ROWS.testGenerate, 500),
    csv: csvOf(ROWS.csv, 600),
    csvQueued: csvOf(ROWS.csvQueued, 700),
    sheet: workbookOf(ROWS.sheet, 800),
    sheetQueued: workbookOf(ROWS.sheetQueued, 900),
  };
  // Each request takes the path its name says: the queued ones are over the thresholds, the others under.
  const under = (what: string, bytes: number) => {
    if (bytes > VALIDATE_QUEUE_THRESHOLD_BYTES)
      throw new Error(`${what}: ${bytes} bytes, over the threshold`);
  };
  const over = (what: string, bytes: number) => {
    if (bytes <= VALIDATE_QUEUE_THRESHOLD_BYTES)
      throw new Error(`${what}: ${bytes} bytes, under the threshold`);
  };
  under('csv', p.csv.length);
  over('csvQueued', p.csvQueued.length);
  under('sheet', expandedSize(p.sheet));
  over('sheetQueued', expandedSize(p.sheetQueued));
  if (ROWS.generate > GENERATE_QUEUE_THRESHOLD_ROWS || ROWS.generateQueued <= GENERATE_QUEUE_THRESHOLD_ROWS)
    throw new Error('generation sizes and GENERATE_QUEUE_THRESHOLD_ROWS disagree');
  return p;
}

/** The XLSX template of a training organization's adf (libs/sheets) filled with `rows` trainees. */
function workbookOf(rows: number, seed: number): Buffer {
  const kind = resolveKind(KIND, 'en');
  const input = templateSheets(kind);
  const columns = kind.spec.tables.adf.columns;
  for (let n = 0; n < rows; n++) {
    const session = `SHEET-${seed}-${Math.floor(n / 500)}`;
    const nir = `${1 + (n % 2)}${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
    const cells: Record<string, CellInput> = {
      ID_DECLARATION: session,
      REFERENCE_DECLARATION: `Session ${session}`,
      ID_UNIQUE_PARTENAIRE: `${session}-E${String(n).padStart(6, '0')}`,
      NOM_FORMATION: 'Sauveteur secouriste du travail',
      DATE_DEBUT_FORMATION: { date: dayToSerial(20260914) },
      DATE_FIN_FORMATION: { date: dayToSerial(20260915) },
      MODALITE_DISPENSE: 'PRESENTIEL',
      COMPETENCE_TRANSFERABLE: ROME_CODES.slice(0, 3).join('/'),
      FORMATION_CERTIFIANTE: 'NON',
      DOMAINE_FORMATION: '42829',
      SPECIALITE_FORMATION: '344r',
      // As people type them: a number, the key sometimes with it.
      NIR: n % 10 === 0 ? Number(`${nir}${nirKey(nir)}`) : Number(nir),
      NOM_TITULAIRE: `NOM-${n % 997}`,
      SIRET_EMPLOYEUR: { text: SIRET_A },
      DATE_DEBUT_VALIDITE: { date: dayToSerial(20260915) },
    };
    input.sheets[0]!.rows.push(columns.map((c) => cells[c.name] ?? null));
  }
  return writeWorkbook(input);
}

/** A small seeded generator (mulberry32): the same run makes the same choices. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(rng: () => number, weighted: [T, number][]): T {
  const total = weighted.reduce((sum, [, w]) => sum + w, 0);
  let r = rng() * total;
  for (const [value, w] of weighted) {
    r -= w;
    if (r < 0) return value;
  }
  return weighted[weighted.length - 1]![0];
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/**
 * The CPU a changing set of processes spends over a window, from /proc, sampled as they come and go:
 * a process that ends between two samples keeps what it had spent at the last one (a before/after sum
 * of the processes alive at each end would subtract those that ended, which on a machine where other
 * tests open and close connections all the time is most of them).
 */
class CpuOfProcesses {
  private readonly first = new Map<number, number>();
  private readonly last = new Map<number, number>();
  private started = false;

  constructor(private readonly pids: () => Promise<number[]>) {}

  async sample(): Promise<void> {
    for (const pid of await this.pids()) {
      const cpu = cpuSeconds(pid);
      // A process first seen after the start began after it: all its CPU is the window's.
      if (!this.first.has(pid)) this.first.set(pid, this.started ? 0 : cpu);
      this.last.set(pid, Math.max(cpu, this.last.get(pid) ?? 0));
    }
    this.started = true;
  }

  total(): number {
    let sum = 0;
    for (const [pid, last] of this.last) sum += Math.max(0, last - (this.first.get(pid) ?? 0));
    return sum;
  }
}

interface App {
  name: string;
  role: 'gateway' | 'generate' | 'validate' | 's3';
  child: ChildProcess;
  /** Exited before the run stopped it. */
  died: boolean;
  jobs: Record<string, number>;
}

/**
 * One run. `run()` starts everything, sends the traffic, checks and stops everything; `destroy()`
 * stops whatever is still running (a test's afterAll, a benchmark's signal): each app's process group
 * is signalled, nothing is killed by name.
 */
export class ScaleRun {
  private readonly apps: App[] = [];
  private closeServices: (() => Promise<void>) | null = null;
  private dropDatabase: (() => Promise<void>) | null = null;
  private prefix = '';
  private stopping = false;
  private readonly log: (line: string) => void;
  // What the traffic saw.
  private readonly samples = new Map<
    Operation,
    { ms: number[]; statuses: Map<string, number>; ok: number }
  >();
  private readonly perGateway: number[] = [0, 0];
  private readonly serverErrors: string[] = [];
  private readonly problems: string[] = [];
  private readonly charged: { live: number; test: number }[] = [];
  private readonly quotaRefusals: number[] = [];
  private readonly pending = new Map<string, Pending>();
  private readonly asyncMs: number[] = [];
  private windowEnd = Infinity;
  private inWindow = 0;
  private turn = 0;
  /** Live requests drawn so far by turn rather than by weight: the first rounds take every operation. */
  private inTurn = 0;
  private gateways: string[] = [];

  constructor(private readonly options: ScaleOptions) {
    const began = performance.now();
    const log = options.log ?? (() => undefined);
    this.log = (line) => log(`${((performance.now() - began) / 1000).toFixed(1)} s: ${line}`);
  }

  async run(): Promise<ScaleReport> {
    const seconds = this.options.seconds;
    const clients = Math.max(3, this.options.clients ?? 12);
    const payloads = makePayloads();

    // The database: the caller's, or a fresh one on the benchmarks' server.
    let databaseUrl = this.options.databaseUrl;
    if (!databaseUrl) {
      const url = new URL(DB_URL);
      const name = `ppfile_bench_scale_${randomBytes(4).toString('hex')}`;
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      this.dropDatabase = async () => {
        const server = new URL(DB_URL);
        server.pathname = '/postgres';
        const admin = new Client({ connectionString: server.toString() });
        await admin.connect();
        try {
          await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
        } finally {
          await admin.end();
        }
      };
    }
    await migrate(databaseUrl);
    const database = new URL(databaseUrl).pathname.slice(1);
    const prisma = createPrismaClient(databaseUrl, { poolMax: 2 });
    const stores = createStores(prisma);
    const pg = new Client({ connectionString: databaseUrl });
    // destroy() may drop the database under it (a stop in the middle of the run): not a crash.
    pg.on('error', () => undefined);
    await pg.connect();
    try {
      const keys: Key[][] = [];
      const orgIds: string[] = [];
      for (const [org, o] of ORGANIZATIONS.entries()) {
        const created = await stores.organizations.createOrganization(o);
        orgIds.push(created.id);
        const live = await Promise.all(
          [1, 2].map((k) =>
            stores.apiKeys.createApiKey({ organizationId: created.id, mode: 'live', name: `scale ${k}` }),
          ),
        );
        keys.push(live.map((k) => ({ key: k.key, mode: 'live' as const, org })));
        if (org === 0) {
          const test = await stores.apiKeys.createApiKey({ organizationId: created.id, mode: 'test' });
          keys[org]!.push({ key: test.key, mode: 'test', org });
        }
        this.charged.push({ live: 0, test: 0 });
        this.quotaRefusals.push(0);
      }

      // The apps.
      this.log('starting s3rver, 2 gateways, 2 generate workers, 2 validate workers');
      const services = await benchServices('scale', {
        s3Process: true,
        detached: true,
        onSpawn: (child) => this.apps.push({ name: 's3rver', role: 's3', child, died: false, jobs: {} }),
      });
      this.closeServices = () => services.close();
      this.prefix = services.env.QUEUE_PREFIX!;
      const env: NodeJS.ProcessEnv = {
        ...services.env,
        DATABASE_URL: databaseUrl,
        RATE_LIMIT_SCALE: '1000',
        GENERATE_QUEUE_THRESHOLD_ROWS: String(GENERATE_QUEUE_THRESHOLD_ROWS),
        VALIDATE_QUEUE_THRESHOLD_BYTES: String(VALIDATE_QUEUE_THRESHOLD_BYTES),
        SHUTDOWN_GRACE_SECONDS: '10',
        ...(this.options.poolMax ? { DATABASE_POOL_MAX: String(this.options.poolMax) } : {}),
      };
      const ports = await Promise.all([freePort(), freePort()]);
      this.gateways = ports.map((p) => `http://127.0.0.1:${p}`);
      // Every start settled before going on: a failed one ends the run, and the others, started or
      // not yet, are already in `apps` for destroy() to stop.
      const starts = await Promise.allSettled([
        ...ports.map((port, i) =>
          this.start(
            `gateway-${i + 1}`,
            'gateway',
            GATEWAY,
            { ...env, PORT: String(port) },
            /gateway listening/,
          ),
        ),
        ...[1, 2].map((i) =>
          this.start(
            `generate-${i}`,
            'generate',
            WORKER,
            { ...env, WORKER_QUEUES: 'generate,maintenance' },
            /worker started/,
          ),
        ),
        ...[1, 2].map((i) =>
          this.start(
            `validate-${i}`,
            'validate',
            WORKER,
            { ...env, WORKER_QUEUES: 'validate' },
            /worker started/,
          ),
        ),
      ]);
      const failed = starts.find((r) => r.status === 'rejected');
      if (failed) throw failed.reason;
      const s3Pid = services.s3Pid!;
      this.log('started');

      // The traffic.
      // PostgreSQL's CPU: the backends of the run's database (the machine's server is shared), and
      // every postgres process as bench:queue reads it (the server's own processes, others' work too).
      const backends = new CpuOfProcesses(async () => {
        const { rows } = await pg.query<{ pid: number }>(
          'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
          [database],
        );
        return rows.map((r) => r.pid);
      });
      const postgres = new CpuOfProcesses(() => Promise.resolve(pidsOf('postgres')));
      await Promise.all([backends.sample(), postgres.sample()]);
      const pids = (role: App['role']) => this.apps.filter((a) => a.role === role).map((a) => a.child.pid!);
      const cpuOf = (role: App['role']) => pids(role).reduce((sum, pid) => sum + cpuSeconds(pid), 0);
      const cpu0 = {
        gateways: cpuOf('gateway'),
        generateWorkers: cpuOf('generate'),
        validateWorkers: cpuOf('validate'),
        s3: cpuSeconds(s3Pid),
      };
      this.log(`traffic: ${seconds} s, ${clients} clients`);
      const started = performance.now();
      this.windowEnd = started + seconds * 1000;
      const seats = this.seats(keys, clients);
      const seed = this.options.seed ?? 1;
      const loops = seats.map((key, i) => this.client(key, random(seed * 1000 + i), payloads));
      let polling = true;
      const poller = this.poll(() => polling);
      const sampler = (async () => {
        while (performance.now() < this.windowEnd) {
          const wait = Math.min(1000, this.windowEnd - performance.now());
          await new Promise((r) => setTimeout(r, Math.max(0, wait)));
          await Promise.all([backends.sample(), postgres.sample()]);
        }
      })();
      await sampler;
      const cpu1 = {
        gateways: cpuOf('gateway'),
        generateWorkers: cpuOf('generate'),
        validateWorkers: cpuOf('validate'),
        s3: cpuSeconds(s3Pid),
      };
      const window = (performance.now() - started) / 1000;
      const inWindow = this.inWindow;

      // Drain: the clients finish their request, the asynchronous files end.
      this.log(`drain: ${this.pending.size} file(s) processing`);
      await Promise.all(loops);
      const drainUntil = performance.now() + 120_000;
      while (this.pending.size > 0 && performance.now() < drainUntil)
        await new Promise((r) => setTimeout(r, 100));
      polling = false;
      await poller;
      for (const p of this.pending.values())
        this.problems.push(`file ${p.file} still processing after the drain`);

      // Stop the apps (gracefully), then check what they left.
      for (const app of this.apps) if (app.died) this.problems.push(`${app.name} exited during the run`);
      this.stopping = true;
      await Promise.all(this.apps.filter((a) => a.role !== 's3').map((a) => stopProcess(a.child)));
      this.log('stopped; units, then ppfile admin reconcile --check');
      const units = await this.units(pg, orgIds);
      const reconcile = await reconcileCheck({ ...env });
      await services.close();
      this.closeServices = null;
      this.log('done');

      return this.report({
        seconds: window,
        clients,
        inWindow,
        cpu: {
          postgresBackends: backends.total(),
          postgresAll: postgres.total(),
          gateways: cpu1.gateways - cpu0.gateways,
          generateWorkers: cpu1.generateWorkers - cpu0.generateWorkers,
          validateWorkers: cpu1.validateWorkers - cpu0.validateWorkers,
          s3: cpu1.s3 - cpu0.s3,
        },
        units,
        reconcile,
      });
    } finally {
      await pg.end().catch(() => undefined);
      await prisma.$disconnect();
      await this.destroy();
    }
  }

  /** Stops whatever still runs (SIGKILL to each process group), the run's Redis keys, its database. */
  async destroy(): Promise<void> {
    this.stopping = true;
    this.windowEnd = 0;
    await Promise.all(this.apps.map((a) => stopProcess(a.child, 'SIGKILL').catch(() => undefined)));
    const close = this.closeServices;
    this.closeServices = null;
    if (close) await close().catch(() => undefined);
    if (this.prefix) {
      const prefix = this.prefix;
      this.prefix = '';
      await deleteKeys(prefix).catch(() => undefined);
    }
    const drop = this.dropDatabase;
    this.dropDatabase = null;
    if (drop) await drop();
  }

  private async start(
    name: string,
    role: App['role'],
    main: string,
    env: NodeJS.ProcessEnv,
    ready: RegExp,
  ): Promise<void> {
    let partial = '';
    const app: App = { name, role, child: null as unknown as ChildProcess, died: false, jobs: {} };
    await startProcess(main, env, ready, [], {
      detached: true,
      // In `apps` from its spawn: destroy() stops an app that is still starting too.
      onSpawn: (child) => {
        app.child = child;
        child.once('exit', () => {
          if (!this.stopping) app.died = true;
        });
        this.apps.push(app);
      },
      onOutput: (chunk) => {
        this.options.onOutput?.(chunk);
        // The job lines of a worker: which worker did what.
        if (role === 'gateway') return;
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.includes('"type":"job"') || !line.includes('"outcome":"completed"')) continue;
          const job = /"job":"([a-z-]+)"/.exec(line)?.[1] ?? '?';
          app.jobs[job] = (app.jobs[job] ?? 0) + 1;
        }
      },
    });
  }

  /** Which key each client uses: one on the Starter organization, one the test key, the rest spread. */
  private seats(keys: Key[][], clients: number): Key[] {
    const seats: Key[] = [keys[3]![0]!, keys[0]![2]!];
    const live = [0, 1, 2].flatMap((org) => keys[org]!.filter((k) => k.mode === 'live'));
    for (let i = 0; seats.length < clients; i++) {
      const org = i % 3;
      seats.push(live[org * 2 + (Math.floor(i / 3) % 2)]!);
    }
    return seats;
  }

  /** One client: an operation after the other until the window ends. */
  private async client(key: Key, rng: () => number, p: Payloads): Promise<void> {
    const mix = key.mode === 'test' ? TEST_MIX : LIVE_MIX;
    const any = <T>(list: T[]) => list[Math.floor(rng() * list.length)]!;
    for (let round = 0; performance.now() < this.windowEnd; round++) {
      // The live clients' first two rounds go through the mix in turn, and the test key's client
      // starts with its own, so that even a short run (the e2e test's) takes every path; then by weight.
      const inTurn = key.mode === 'live' ? this.inTurn < LIVE_MIX.length * 2 : round < mix.length;
      const op = !inTurn
        ? pick(rng, mix)
        : key.mode === 'live'
          ? LIVE_MIX[this.inTurn++ % LIVE_MIX.length]![0]
          : mix[round]![0];
      switch (op) {
        case 'validate-json':
          await this.json(op, key, '/v1/declarations/validate', any(p.validateJson));
          break;
        case 'validate-csv':
        case 'validate-csv-queued': {
          const a = await this.upload(
            op,
            key,
            '/v1/files/validate',
            op === 'validate-csv' ? p.csv : p.csvQueued,
            'text/csv',
          );
          if (a?.status === 200) this.chargeValidation(key, bodyOf<Validation>(a));
          break;
        }
        case 'fix-csv': {
          const a = await this.upload(op, key, '/v1/files/fix', p.csv, 'text/csv');
          if (a?.status === 200) this.chargeValidation(key, bodyOf<{ validation: Validation }>(a).validation);
          break;
        }
        case 'import':
        case 'import-queued':
          await this.upload(
            op,
            key,
            '/v1/declarations/import',
            op === 'import' ? p.sheet : p.sheetQueued,
            XLSX_TYPE,
          );
          break;
        case 'generate':
        case 'generate-test-key': {
          // A third with an Idempotency-Key, sent twice: the retry is answered the same, and charged nothing.
          const idempotency = inTurn || rng() < 1 / 3 ? randomBytes(8).toString('hex') : undefined;
          const body = any(op === 'generate' ? p.generate : p.testGenerate);
          const a = await this.generate(op, key, body, { idempotency });
          if (a?.status === 200 && idempotency) {
            const again = await this.generate('generate-replay', key, body, { idempotency });
            if (again?.status === 200) {
              const first = bodyOf<Generated>(a).file_id;
              const second = bodyOf<Generated>(again).file_id;
              if (again.headers.get('idempotent-replayed') !== 'true' || first !== second)
                this.problems.push(`generate-replay: ${first} answered as ${second}, not replayed`);
            }
          }
          if (a?.status === 200 && rng() < 0.5) await this.download(key, bodyOf<Generated>(a).file_id);
          break;
        }
        case 'generate-queued':
          await this.generate(op, key, any(p.generateQueued), {});
          break;
        case 'generate-async':
          await this.generate(op, key, any(p.generateAsync), { async: true });
          break;
        default:
          throw new Error(`no such operation ${op}`);
      }
    }
  }

  /** Asks for the state of each file answered 202, a second apart; downloads it once available. */
  private async poll(going: () => boolean): Promise<void> {
    while (going()) {
      const now = performance.now();
      const due = [...this.pending.values()].filter((p) => p.next <= now);
      if (due.length === 0) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      for (const p of due) {
        const a = await this.call('file-status', p.key, 'GET', `/v1/files/${p.file}`);
        if (!a || a.status !== 200) {
          p.next = performance.now() + 1000;
          continue;
        }
        const meta = bodyOf<{ status: string; rows: number }>(a);
        if (meta.status === 'processing') {
          p.next = performance.now() + 500;
          continue;
        }
        this.pending.delete(p.file);
        if (meta.status === 'available') {
          this.asyncMs.push(performance.now() - p.since);
          this.charge(p.key, meta.rows);
          await this.download(p.key, p.file);
        } else {
          this.problems.push(`file ${p.file} ended ${meta.status}: ${a.body.toString().slice(0, 300)}`);
        }
      }
    }
  }

  private async generate(
    op: Operation,
    key: Key,
    body: string,
    options: { async?: boolean; idempotency?: string },
  ): Promise<Answer | null> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (options.async) headers.prefer = 'respond-async';
    if (options.idempotency) headers['idempotency-key'] = options.idempotency;
    const a = await this.call(op, key, 'POST', '/v1/files/generate', { headers, body });
    if (!a) return null;
    if (a.status === 200) {
      // A replay was charged by the answer it replays.
      if (a.headers.get('idempotent-replayed') !== 'true') this.charge(key, bodyOf<Generated>(a).rows);
    } else if (a.status === 202) {
      const file = bodyOf<Generated>(a).file_id;
      const now = performance.now();
      if (!this.pending.has(file)) this.pending.set(file, { file, key, since: now, next: now + 300 });
    }
    return a;
  }

  private async download(key: Key, file: string): Promise<void> {
    const a = await this.call('download', key, 'GET', `/v1/files/${file}/download`);
    if (a?.status !== 200) return;
    const sha256 = createHash('sha256').update(a.body).digest('hex');
    if (a.headers.get('etag') !== `"${sha256}"`)
      this.problems.push(`download of ${file}: bytes differ from its ETag`);
  }

  private json(op: Operation, key: Key, route: string, body: string): Promise<Answer | null> {
    return this.call(op, key, 'POST', route, { headers: { 'content-type': 'application/json' }, body });
  }

  private upload(op: Operation, key: Key, route: string, file: Buffer, type: string): Promise<Answer | null> {
    const form = new FormData();
    form.append(
      'file',
      new Blob([file], { type }),
      type === 'text/csv' ? 'declarations.csv' : 'declarations.xlsx',
    );
    form.append('type', KIND.type);
    form.append('declarant', KIND.declarant);
    return this.call(op, key, 'POST', route, { body: form });
  }

  private chargeValidation(key: Key, v: Validation): void {
    // Validations with a test key count nothing (API.md §10).
    if (key.mode === 'live') this.charge(key, v.file_rejected ? 0 : v.rows_total);
  }

  private charge(key: Key, units: number): void {
    this.charged[key.org]![key.mode] += units;
  }

  /** One request to the next gateway in turn; null when no answer came (counted as a failure). */
  private async call(
    op: Operation,
    key: Key,
    method: string,
    route: string,
    init: { headers?: Record<string, string>; body?: string | FormData } = {},
  ): Promise<Answer | null> {
    const gateway = this.turn++ % this.gateways.length;
    const t0 = performance.now();
    let answer: Answer | null = null;
    let status = 'no answer';
    try {
      const res = await fetch(`${this.gateways[gateway]}${route}`, {
        method,
        headers: { authorization: `Bearer ${key.key}`, ...init.headers },
        body: init.body,
        signal: AbortSignal.timeout(180_000),
      });
      answer = { status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
      status = String(res.status);
    } catch (e) {
      this.serverErrors.push(`${op} via gateway-${gateway + 1}: no answer (${(e as Error).message})`);
    }
    const t1 = performance.now();
    const s = this.samples.get(op) ?? { ms: [], statuses: new Map<string, number>(), ok: 0 };
    this.samples.set(op, s);
    s.ms.push(t1 - t0);
    s.statuses.set(status, (s.statuses.get(status) ?? 0) + 1);
    this.perGateway[gateway]!++;
    if (t1 <= this.windowEnd) {
      this.inWindow++;
      if (answer && answer.status < 300) s.ok++;
    }
    if (answer && answer.status >= 500)
      this.serverErrors.push(
        `${op} via gateway-${gateway + 1}: ${answer.status} ${answer.body.toString().slice(0, 300)}`,
      );
    if (answer?.status === 429 && answer.body.includes('QUOTA_EXCEEDED')) this.quotaRefusals[key.org]!++;
    return answer;
  }

  /** What the ledger holds per organization, against what the answers charged. */
  private async units(pg: Client, orgIds: string[]): Promise<UnitsFigures[]> {
    const { rows: ledger } = await pg.query<{ org: string; mode: string; state: string; units: string }>(
      `SELECT organization_id AS org, mode::text AS mode, state::text AS state, SUM(units) AS units
         FROM unit_reservations GROUP BY 1, 2, 3`,
    );
    const { rows: counters } = await pg.query<{ org: string; used: string; test_rows: string }>(
      `SELECT organization_id AS org, SUM(used) AS used, SUM(test_rows) AS test_rows
         FROM usage_counters GROUP BY 1`,
    );
    return ORGANIZATIONS.map((o, i) => {
      const id = orgIds[i]!;
      const sum = (mode: string, state: string) =>
        Number(ledger.find((r) => r.org === id && r.mode === mode && r.state === state)?.units ?? 0);
      const counter = counters.find((c) => c.org === id);
      const charged = this.charged[i]!;
      const figures = {
        organization: o.name,
        plan: o.plan,
        charged,
        committed: { live: sum('LIVE', 'COMMITTED'), test: sum('TEST', 'COMMITTED') },
        reserved: sum('LIVE', 'RESERVED') + sum('TEST', 'RESERVED'),
        counter: { live: Number(counter?.used ?? 0), test: Number(counter?.test_rows ?? 0) },
        quotaRefusals: this.quotaRefusals[i]!,
      };
      const ok =
        figures.committed.live === charged.live &&
        figures.counter.live === charged.live &&
        figures.committed.test === charged.test &&
        figures.counter.test === charged.test &&
        figures.reserved === 0;
      return { ...figures, ok };
    });
  }

  private report(m: {
    seconds: number;
    clients: number;
    inWindow: number;
    cpu: ScaleReport['cpu'];
    units: UnitsFigures[];
    reconcile: ScaleReport['reconcile'];
  }): ScaleReport {
    const operations: OperationFigures[] = [...this.samples.entries()].map(([operation, s]) => {
      const sorted = [...s.ms].sort((a, b) => a - b);
      return {
        operation,
        answers: s.ms.length,
        okPerSecond: s.ok / m.seconds,
        p50: quantile(sorted, 0.5),
        p99: quantile(sorted, 0.99),
        max: sorted[sorted.length - 1] ?? 0,
        statuses: Object.fromEntries(s.statuses),
      };
    });
    operations.sort((a, b) => b.answers - a.answers);
    const asyncSorted = [...this.asyncMs].sort((a, b) => a - b);
    const answers = operations.reduce((sum, o) => sum + o.answers, 0);
    const checks: Check[] = [
      {
        name: 'no 5xx answer',
        ok: this.serverErrors.length === 0,
        detail:
          this.serverErrors.length === 0
            ? `0 of ${answers} answers`
            : `${this.serverErrors.length}: ${this.serverErrors.slice(0, 5).join('; ')}`,
      },
      {
        name: 'units exact per organization',
        ok: m.units.every((u) => u.ok),
        detail: m.units
          .map(
            (u) =>
              `${u.organization}: charged ${u.charged.live}, committed ${u.committed.live}, counter ${u.counter.live}` +
              (u.charged.test || u.committed.test
                ? `; test rows ${u.charged.test}/${u.committed.test}/${u.counter.test}`
                : '') +
              (u.reserved ? `; ${u.reserved} left reserved` : '') +
              (u.ok ? '' : ' MISMATCH'),
          )
          .join(' | '),
      },
      {
        name: 'ppfile admin reconcile --check clean',
        ok: m.reconcile.ok,
        detail: m.reconcile.output.trim().slice(0, 1000),
      },
      {
        name: 'no file failed, downloads intact, no app died',
        ok: this.problems.length === 0,
        detail: this.problems.length === 0 ? 'none' : this.problems.slice(0, 5).join('; '),
      },
    ];
    return {
      seconds: m.seconds,
      clients: m.clients,
      operations,
      total: { answers, inWindow: m.inWindow, perSecond: m.inWindow / m.seconds },
      gateways: [...this.perGateway],
      jobs: this.apps
        .filter((a) => a.role === 'generate' || a.role === 'validate')
        .map((a) => ({ worker: a.name, jobs: a.jobs })),
      asyncCompletion: {
        count: asyncSorted.length,
        p50: quantile(asyncSorted, 0.5),
        p99: quantile(asyncSorted, 0.99),
      },
      cpu: m.cpu,
      serverErrors: [...this.serverErrors],
      units: m.units,
      reconcile: m.reconcile,
      problems: [...this.problems],
      checks,
      ok: checks.every((c) => c.ok),
    };
  }
}

/** The report as the benchmark prints it. */
export function describeScale(r: ScaleReport): string[] {
  const ms = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const lines: string[] = [];
  lines.push(
    `ppfile scale benchmark — Node ${process.version}; 2 gateways, generate pool 2 workers, validate pool 2 workers, ` +
      `s3rver, PostgreSQL, Redis (separate processes); ${r.clients} clients of ${ORGANIZATIONS.length} organizations, ` +
      `${r.seconds.toFixed(1)} s`,
  );
  lines.push(
    `thresholds: GENERATE_QUEUE_THRESHOLD_ROWS=${GENERATE_QUEUE_THRESHOLD_ROWS}, VALIDATE_QUEUE_THRESHOLD_BYTES=${VALIDATE_QUEUE_THRESHOLD_BYTES}`,
  );
  lines.push('');
  lines.push(
    `${'operation'.padEnd(20)} ${'answers'.padStart(8)} ${'2xx/s'.padStart(7)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'max ms'.padStart(8)}  statuses`,
  );
  for (const o of r.operations) {
    const statuses = Object.entries(o.statuses)
      .map(([s, n]) => `${s}×${n}`)
      .join(' ');
    lines.push(
      `${o.operation.padEnd(20)} ${String(o.answers).padStart(8)} ${o.okPerSecond.toFixed(1).padStart(7)} ${ms(o.p50).padStart(8)} ${ms(o.p99).padStart(8)} ${ms(o.max).padStart(8)}  ${statuses}`,
    );
  }
  lines.push(
    `${'all'.padEnd(20)} ${String(r.total.answers).padStart(8)} ${r.total.perSecond.toFixed(1).padStart(7)}  (answers within the window, per second)`,
  );
  lines.push('');
  lines.push(`answers per gateway: ${r.gateways.join(' / ')}`);
  lines.push(
    `jobs completed per worker: ${r.jobs
      .map(
        (j) =>
          `${j.worker} ${
            Object.entries(j.jobs)
              .map(([k, n]) => `${k} ${n}`)
              .join(', ') || 'none'
          }`,
      )
      .join('; ')}`,
  );
  lines.push(
    `asynchronous generations, 202 → available as polled: ${r.asyncCompletion.count}, p50 ${ms(r.asyncCompletion.p50)} ms, p99 ${ms(r.asyncCompletion.p99)} ms`,
  );
  const per1000 = (seconds: number) =>
    `${((seconds * 1000 * 1000) / Math.max(1, r.total.inWindow)).toFixed(0)} ms`;
  lines.push(
    `CPU per 1,000 requests over the window: PostgreSQL ${per1000(r.cpu.postgresBackends)} (the backends of the run's database; ` +
      `every postgres process: ${per1000(r.cpu.postgresAll)}, others' work on this shared server included), ` +
      `gateways ${per1000(r.cpu.gateways)}, generate pool ${per1000(r.cpu.generateWorkers)}, ` +
      `validate pool ${per1000(r.cpu.validateWorkers)}, s3rver ${per1000(r.cpu.s3)}`,
  );
  lines.push(
    `CPU seconds over the window: PostgreSQL ${r.cpu.postgresBackends.toFixed(1)} (every postgres process ${r.cpu.postgresAll.toFixed(1)}), ` +
      `gateways ${r.cpu.gateways.toFixed(1)}, generate pool ${r.cpu.generateWorkers.toFixed(1)}, ` +
      `validate pool ${r.cpu.validateWorkers.toFixed(1)}, s3rver ${r.cpu.s3.toFixed(1)}`,
  );
  lines.push(
    `quota refusals (429 QUOTA_EXCEEDED): ${r.units.map((u) => `${u.organization} ${u.quotaRefusals}`).join(', ')}`,
  );
  lines.push('');
  for (const c of r.checks) lines.push(`${c.ok ? 'ok    ' : 'FAILED'} ${c.name}: ${c.detail}`);
  return lines;
}

/** `ppfile admin reconcile --check --json` (the built CLI) on the run's database and bucket. */
function reconcileCheck(env: NodeJS.ProcessEnv): Promise<{ ok: boolean; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [path.join(ROOT, 'bin/ppfile.js'), 'admin', 'reconcile', '--check', '--json'],
      {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const timer = setTimeout(() => void stopProcess(child, 'SIGKILL'), 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      let ok = code === 0;
      try {
        ok = ok && (JSON.parse(output) as { ok: boolean }).ok === true;
      } catch {
        ok = false;
      }
      resolve({ ok, output: `exit ${signal ?? code}: ${output}` });
    });
  });
}

/** The run's keys in the shared Redis (its queues, limits, payloads), by its own prefix only. */
async function deleteKeys(prefix: string): Promise<void> {
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
