import { execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { Client } from 'pg';
import {
  createPrismaClient,
  createStores,
  migrate,
  monthOf,
  type PrismaClient,
  type Stores,
} from '@ppfile/db';
import { QUEUE_NAMES } from '@ppfile/jobs';
import { JobQueue } from '@ppfile/infra';
import { ObjectStorage } from '@ppfile/storage';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { createGatewayApp } from '../apps/gateway/src/app.factory';
import type { GatewayConfig } from '../apps/gateway/src/config';
import type { WorkerConfig } from '../apps/worker/src/config';
import { PRIVATE_S3_CREDENTIALS, PrivatePostgres, PrivateRedis, PrivateS3 } from './support/stack';
import { spawnWorker } from './support/worker';
import { recordExchanges } from './support/contract';
import { suiteLogs } from './support/logs';

/**
 * Accepted work survives crashes and outages (API.md §8), on a private stack this test starts and
 * breaks: its own redis-server, PostgreSQL cluster and s3rver, a gateway and two worker processes.
 * After each fault every accepted file ends `available`, `ppfile admin reconcile --check` finds
 * nothing wrong and the month's units are exactly those of the files produced.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const ROOT = path.resolve(__dirname, '..');
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const redis = new PrivateRedis();
const pg = new PrivatePostgres();
const s3 = new PrivateS3();
const payloadKey = randomBytes(32);
let databaseUrl: string;
let gatewayConfig: GatewayConfig;
let workerConfig: WorkerConfig;
let app: INestApplication;
let http: ReturnType<INestApplication['getHttpServer']>;
let prisma: PrismaClient;
let stores: Stores;
const workers: (ChildProcess | null)[] = [null, null];

function body(holders: number, seed: number): Json {
  const b = validBody('adf', 'training_organization', holders) as Json;
  b.declarations[0].id = `CHAOS-${seed}`;
  // More than 500 holders in one declaration must be split (SERVICE.md §8).
  if (holders > 500) b.options = { split_large_declarations: true };
  b.declarations[0].holders.forEach((h: Json, i: number) => {
    const n = seed * 100_000 + i;
    h.nir = `2${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
    h.unique_id = `C-${n}`;
  });
  return b;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => null);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** What the workers print, kept for the failure message of a test (it never holds a NIR: see gateway.e2e-spec). */
const workerOutput: string[] = [];

async function startWorkers(): Promise<void> {
  for (let i = 0; i < workers.length; i++) {
    if (workers[i]) continue;
    const w = await spawnWorker(workerConfig);
    workerOutput.push(`[worker ${i}] ${w.startupOutput}`);
    const keep = (d: Buffer) => workerOutput.push(`[worker ${i}] ${d.toString()}`);
    w.stdout!.on('data', keep);
    w.stderr!.on('data', keep);
    workers[i] = w;
  }
}

async function killWorkers(): Promise<void> {
  for (let i = 0; i < workers.length; i++) {
    const w = workers[i];
    workers[i] = null;
    if (w && w.exitCode === null) {
      const exited = new Promise((r) => w.once('exit', r));
      w.kill('SIGKILL');
      await exited;
    }
  }
}

async function organization(plan: 'pro' | 'business'): Promise<{ id: string; key: string }> {
  const org = await stores.organizations.createOrganization({ name: `chaos ${plan}`, plan });
  const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
  return { id: org.id, key: key.key };
}

async function generateAsync(key: string, b: Json): Promise<string> {
  const res = await request(http)
    .post('/v1/files/generate')
    .set(bearer(key))
    .set('Prefer', 'respond-async')
    .send(b);
  expect(res.status).toBe(202);
  return res.body.file_id as string;
}

async function allAvailable(ids: string[], timeoutMs = 90_000): Promise<void> {
  const statuses = async () =>
    prisma.fileRecord.findMany({
      where: { id: { in: ids } },
      select: { id: true, status: true, error: true },
    });
  try {
    await until(
      `${ids.length} file(s) available`,
      async () => {
        const rows = await statuses();
        return rows.length === ids.length && rows.every((r) => r.status === 'AVAILABLE');
      },
      timeoutMs,
    );
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(await statuses())}`, { cause: e });
  }
}

/** The operators' check (`ppfile admin reconcile --check --json`), run as an operator runs it. */
/**
 * `ppfile admin reconcile --check --json` in a child, awaited (a synchronous spawn would hold this
 * file's event loop for seconds, and its kept-alive sockets to the store die unseen meanwhile).
 */
async function reconcileCheck(): Promise<{ status: number | null; report: Json }> {
  const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'bin/ppfile.js'), 'admin', 'reconcile', '--check', '--json'],
      {
        encoding: 'utf8',
        env: {
          ...process.env,
          DATABASE_URL: databaseUrl,
          S3_ENDPOINT: s3.endpoint,
          S3_ACCESS_KEY: PRIVATE_S3_CREDENTIALS.accessKey,
          S3_SECRET_KEY: PRIVATE_S3_CREDENTIALS.secretKey,
          S3_BUCKET: gatewayConfig.s3.bucket,
        },
      },
      (error, stdout, stderr) =>
        resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
  return { status: r.status, report: r.stdout ? (JSON.parse(r.stdout) as Json) : { stderr: r.stderr } };
}

/** Every invariant holds and the organization's month is exactly `units`, all committed. */
async function expectSettled(orgId: string, units: number): Promise<void> {
  const check = await reconcileCheck();
  expect(check.report).toEqual({ ok: true, violations: [] });
  expect(check.status).toBe(0);
  await expect(stores.ledger.month(orgId, monthOf(new Date()))).resolves.toEqual({
    month: monthOf(new Date()),
    used: units,
    committed: units,
    reserved: 0,
    testRows: 0,
  });
}

beforeAll(async () => {
  await Promise.all([redis.start(), pg.start(), s3.start()]);
  databaseUrl = pg.url('ppfile');
  await migrate(databaseUrl);
  gatewayConfig = {
    port: 0,
    publicBaseUrl: 'http://ppfile.test',
    databaseUrl,
    redisUrl: redis.url,
    s3: { endpoint: s3.endpoint, ...PRIVATE_S3_CREDENTIALS, bucket: 'ppfile-chaos', region: 'us-east-1' },
    payloadEncryptionKey: payloadKey,
    processingLeaseSeconds: 600,
    shutdownGraceSeconds: 5,
    metricsRefreshSeconds: 15,
    operator: null,
    bullBoardWritable: false,
    trustProxy: false,
    logLevel: 'info',
    referenceDataDir: null,
    databasePoolMax: 10,
    rateLimitScale: 100,
    authCacheSeconds: 0,
    testRowsPerMonth: 1000,
    maxInflightBytes: 128 * 1024 * 1024,
    body: { timeoutSeconds: 120, minBytesPerSecond: 16 * 1024, graceSeconds: 10 },
    queue: { generateThresholdRows: 20, validateThresholdBytes: 4096, waitSeconds: 60, prefix: 'chaos' },
  };
  workerConfig = {
    databaseUrl,
    redisUrl: redis.url,
    s3: gatewayConfig.s3,
    referenceDataDir: null,
    queuePrefix: 'chaos',
    payloadEncryptionKey: payloadKey,
    processingLeaseSeconds: 600,
    shutdownGraceSeconds: 5,
    metricsRefreshSeconds: 15,
    logLevel: 'info',
    databasePoolMax: 4,
    queues: QUEUE_NAMES,
    concurrency: { generate: 1, validate: 1, maintenance: 1 },
    sweepIntervalSeconds: 0,
    lockSeconds: 2,
    reconcileIntervalSeconds: 1,
    operator: null,
    httpPort: 0,
    uploadTimeBudgetMs: 60_000,
  };
  app = await createGatewayApp(gatewayConfig, { logDestination: suiteLogs });
  await app.init();
  http = app.getHttpServer();
  recordExchanges(http);
  prisma = createPrismaClient(databaseUrl, { poolMax: 4 });
  stores = createStores(prisma);
  await startWorkers();
}, 120_000);

afterAll(async () => {
  if (process.env.PPFILE_CHAOS_LOG) writeFileSync(process.env.PPFILE_CHAOS_LOG, workerOutput.join(''));
  await killWorkers();
  await app?.close().catch(() => undefined);
  await prisma?.$disconnect().catch(() => undefined);
  await Promise.allSettled([redis.destroy(), pg.destroy(), s3.destroy()]);
}, 60_000);

it('a queued 422 gives its units back once: usage stays where it was, however often it is repeated', async () => {
  const org = await organization('pro');
  // 5,000 units already used this month, through the ledger.
  const held = await stores.ledger.reserve({
    organizationId: org.id,
    month: monthOf(new Date()),
    units: 5000,
    limit: 10_000,
  });
  expect(held.ok).toBe(true);
  await stores.ledger.commit({ reservationId: (held as { reservationId: string }).reservationId });
  const invalid = body(250, 1);
  invalid.declarations[0].holders[100].nir = 'nonsense';
  for (let i = 0; i < 3; i++) {
    const res = await request(http).post('/v1/files/generate').set(bearer(org.key)).send(invalid);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
  }
  await expectSettled(org.id, 5000);
}, 60_000);

it('workers SIGKILLed twice in the middle of the same job: the file ends available, counted once', async () => {
  const org = await organization('business');
  const b = body(20_000, 2);
  const fileId = await generateAsync(org.key, b);
  // Taken by a worker alive now: active, and moved there after the last kill (a killed worker's job
  // still reads `active` until its lock expires). Watched while the workers start, since a restarted
  // worker may take the job and finish it before the others are up.
  const takenSince = async (since: number) => {
    const job = await app.get(JobQueue).queue('generate').getJob(fileId);
    return !!job && (await job.getState()) === 'active' && (job.processedOn ?? 0) > since;
  };
  let since = 0;
  let starting: Promise<void> = Promise.resolve();
  for (let round = 0; round < 2; round++) {
    // The first worker up takes the job while the next one is still starting: killed at once.
    if (round > 0) starting = startWorkers();
    await until('job taken by a live worker', () => takenSince(since), 60_000);
    since = Date.now();
    await killWorkers();
    expect((await stores.files.getFileRecord(fileId))!.status).toBe('processing');
  }
  await starting;
  await startWorkers();
  await allAvailable([fileId]);
  await expectSettled(org.id, 20_000);
}, 120_000);

it('Redis killed and restarted empty with accepted jobs: every file ends available, a waiting request gets its 200', async () => {
  const org = await organization('pro');
  await killWorkers();
  const ids = [
    await generateAsync(org.key, body(300, 3)),
    await generateAsync(org.key, body(300, 4)),
    await generateAsync(org.key, body(300, 5)),
  ];
  // A synchronous request waiting for its job while Redis loses it.
  const waiting = request(http).post('/v1/files/generate').set(bearer(org.key)).send(body(300, 6));
  const answer = waiting.then((r) => r);
  await sleep(500);
  await redis.kill();
  await redis.start();
  await startWorkers();
  const res = await answer;
  expect(res.status).toBe(200);
  ids.push(res.body.file_id);
  await allAvailable(ids);
  await expectSettled(org.id, 1200);
}, 120_000);

it('readiness: /health/ready of the gateway and of a worker turns 503 naming Redis while it is down, 200 when it is back', async () => {
  await startWorkers();
  // The most recently started worker's port (earlier ones may have been killed by the tests before).
  const workerPort = Number([...workerOutput.join('').matchAll(/health on port (\d+)/g)].pop()?.[1]);
  expect(workerPort).toBeGreaterThan(0);
  const workerReady = async () => {
    const r = await fetch(`http://127.0.0.1:${workerPort}/health/ready`);
    return { status: r.status, body: (await r.json()) as Json };
  };
  expect((await request(http).get('/health/live')).status).toBe(200);
  expect((await request(http).get('/health/ready')).body).toEqual({
    status: 'ready',
    checks: { database: 'up', redis: 'up', storage: 'up', body_budget: 'up' },
    down: [],
  });
  expect((await workerReady()).status).toBe(200);
  await redis.kill();
  try {
    const down = await request(http).get('/health/ready');
    expect(down.status).toBe(503);
    expect(down.body.down).toEqual(['redis']);
    expect(down.headers['retry-after']).toBeDefined();
    expect((await request(http).get('/health/live')).status).toBe(200);
    expect(await workerReady()).toMatchObject({ status: 503, body: { down: ['redis'] } });
  } finally {
    await redis.start();
  }
  await until('gateway ready', async () => (await request(http).get('/health/ready')).status === 200, 20_000);
  await until('worker ready', async () => (await workerReady()).status === 200, 20_000);
}, 60_000);

it('Redis killed while an upload waits for its validation job: 503 with Retry-After within seconds, nothing counted', async () => {
  const org = await organization('pro');
  await killWorkers();
  const csv = await request(http)
    .post('/v1/files/generate')
    .set(bearer(org.key))
    .send({ ...body(40, 7), options: { store: false } });
  expect(csv.status).toBe(200);
  const bytes = Buffer.from(csv.body.content, 'utf8');
  expect(bytes.length).toBeGreaterThan(4096);
  const pending = request(http)
    .post('/v1/files/validate')
    .set(bearer(org.key))
    .field('type', 'adf')
    .field('declarant', 'training_organization')
    .attach('file', bytes, csv.body.filename)
    .then((r) => r);
  await sleep(500);
  const killedAt = Date.now();
  await redis.kill();
  const res = await pending;
  expect(Date.now() - killedAt).toBeLessThan(5000);
  expect(res.status).toBe(503);
  expect(res.body.error.code).toBe('SERVICE_UNAVAILABLE');
  expect(res.headers['retry-after']).toBeDefined();
  await redis.start();
  await startWorkers();
  // Only the 40 rows of the store:false generation count; the lost validation counts nothing.
  await expectSettled(org.id, 40);
}, 60_000);

it('PostgreSQL stopped for 20 s in the middle of jobs: 503 (never 500) meanwhile, every accepted file ends available', async () => {
  const org = await organization('business');
  const ids: string[] = [];
  for (let i = 0; i < 4; i++) ids.push(await generateAsync(org.key, body(5000, 10 + i)));
  await pg.stop('fast');
  const statuses: number[] = [];
  const downUntil = Date.now() + 20_000;
  while (Date.now() < downUntil) {
    const r = await request(http).post('/v1/files/generate').set(bearer(org.key)).send(body(2, 20));
    statuses.push(r.status);
    if (r.status === 503) expect(r.headers['retry-after']).toBeDefined();
    await sleep(1000);
  }
  await pg.start();
  expect(new Set(statuses)).toEqual(new Set([503]));
  await allAvailable(ids, 120_000);
  await expectSettled(org.id, 20_000);
}, 180_000);

it('the object store stopped for 10 s in the middle of jobs: they end available; a request meanwhile is refused 503, nothing accepted', async () => {
  const org = await organization('pro');
  // Accepted while the store is up (each body sealed into it), taken by the workers once it is down.
  const generate = app.get(JobQueue).queue('generate');
  await generate.pause();
  const ids = [await generateAsync(org.key, body(2000, 30)), await generateAsync(org.key, body(2000, 31))];
  await s3.stop();
  try {
    await generate.resume();
    // A queued body goes to the store before its file exists: with the store down nothing is accepted.
    const refused = await request(http)
      .post('/v1/files/generate')
      .set(bearer(org.key))
      .set('Prefer', 'respond-async')
      .send(body(2000, 32));
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBeDefined();
    await sleep(10_000);
  } finally {
    await generate.resume();
    await s3.start();
  }
  await allAvailable(ids);
  await expectSettled(org.id, 4000);
  expect(await prisma.fileRecord.count({ where: { organizationId: org.id } })).toBe(2);
}, 90_000);

it('a gateway stopped while a synchronous request waits for its job answers 202 at once; the file still ends available', async () => {
  const org = await organization('pro');
  await killWorkers();
  const other = await createGatewayApp(gatewayConfig, { logDestination: suiteLogs });
  await other.init();
  const waiting = request(other.getHttpServer())
    .post('/v1/files/generate')
    .set(bearer(org.key))
    .send(body(300, 40));
  const answer = waiting.then((r) => r);
  await until(
    'file accepted',
    async () => (await prisma.fileRecord.count({ where: { organizationId: org.id } })) === 1,
    10_000,
  );
  const started = Date.now();
  await other.close();
  const res = await answer;
  expect(Date.now() - started).toBeLessThan(gatewayConfig.shutdownGraceSeconds * 1000);
  expect(res.status).toBe(202);
  expect(res.body.status).toBe('processing');
  await startWorkers();
  await allAvailable([res.body.file_id]);
  await expectSettled(org.id, 300);
}, 90_000);

it('the check itself fails on a broken invariant: a counter changed by hand, an object without its record', async () => {
  const org = await organization('pro');
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`INSERT INTO usage_counters (organization_id, month, used) VALUES ($1, $2, 7)`, [
      org.id,
      monthOf(new Date()),
    ]);
  } finally {
    await client.end();
  }
  const storage = new ObjectStorage(gatewayConfig.s3);
  await storage.put('files/file_ffffffffffffffffffffffffffffffff.csv', Buffer.from('x'), 'text/csv');
  await storage.put(
    'payloads/generate/file_ffffffffffffffffffffffffffffffff',
    Buffer.from('x'),
    'application/octet-stream',
  );
  const check = await reconcileCheck();
  expect(check.status).toBe(1);
  expect(check.report.violations.map((v: Json) => v.kind).sort()).toEqual([
    'orphan_object',
    'payload_left',
    'usage_mismatch',
  ]);
  await storage.remove('files/file_ffffffffffffffffffffffffffffffff.csv');
  await storage.remove('payloads/generate/file_ffffffffffffffffffffffffffffffff');
  await prisma.usageCounter.deleteMany({ where: { organizationId: org.id } });
}, 30_000);
