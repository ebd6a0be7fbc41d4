import { createHash } from 'node:crypto';
import { execFileSync, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import request from 'supertest';
import { Queue } from 'bullmq';
import { monthOf } from '@ppfile/db';
import { createRootLogger, JobQueue, Metrics, redisOptions } from '@ppfile/infra';
import { FileLifecycle, payloadKeyOf, QUEUE_NAMES } from '@ppfile/jobs';
import { fixCsv, generateFile, parisDay, validateCsv } from '@ppfile/rules';
import { importSheet } from '@ppfile/sheets';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { ReferenceDirectory } from '@ppfile/refdata';
import { startGateway, type Gateway } from './support/gateway';
import { spawnWorker, startWorker, WORKER_MAIN, workerConfigFor, workerEnv } from './support/worker';
import { QueueWorkers } from '../apps/worker/src/jobs/queue-workers';
import { WorkerModule } from '../apps/worker/src/worker.module';
import { suiteLogs } from './support/logs';

/**
 * Large requests through BullMQ (API.md §8) against real Redis, PostgreSQL and S3: the gateway
 * hands generations of more than 20 rows and uploads of more than 4 kB to the workers here.
 */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

let gw: Gateway;
let worker: INestApplicationContext | null = null;
let queue: Queue;

beforeAll(async () => {
  gw = await startGateway({ queue: { generateThresholdRows: 20, validateThresholdBytes: 4096 } });
  // The generations' queue (libs/jobs QUEUES): the tests pause it and read its jobs.
  queue = new Queue('generate', {
    connection: redisOptions(gw.config.redisUrl, 'queue'),
    prefix: gw.config.queue.prefix,
  });
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await queue?.close();
  await gw?.close();
});

async function withWorker(): Promise<void> {
  if (!worker) worker = await startWorker(workerConfigFor(gw));
}

function body(holders: number, offset = 0): Json {
  const b = validBody('adf', 'training_organization', holders) as Json;
  b.declarations[0].id = `SESSION-${offset}`;
  b.declarations[0].holders.forEach((h: Json, i: number) => {
    const n = offset + i;
    h.nir = `2${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
    h.unique_id = `W-${n}`;
  });
  return b;
}

async function usage(orgId: string): Promise<number> {
  return (await gw.stores.usage.getUsage(orgId, monthOf(gw.clock.now()))).used;
}

async function until<T>(
  what: string,
  probe: () => Promise<T | null | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('hand-off to the workers', () => {
  beforeAll(withWorker, 30_000);

  it('a large generation through the queue answers like the in-process path, byte for byte', async () => {
    const org = await gw.organization('pro');
    const b = body(60);
    // A training ended 15/10/2025: its filing deadline (30/09/2026) has passed, a warning with details.
    Object.assign(b.declarations[0].training, { start_date: '2025-10-15', end_date: '2025-10-15' });
    b.declarations[0].holders.forEach((h: Json) => Object.assign(h, { validity_start: '2025-10-15' }));
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(b);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ success: true, rows: 60, declarations: 1, stored: true, mode: 'live' });
    // The same body through the rules in this process.
    const refs = new ReferenceDirectory(null).lists('2026-02');
    const local = generateFile(b, {
      refs,
      today: Number(res.body.filename.slice(11, 19)),
      generationDay: 20261122,
    });
    expect(res.body.sha256).toBe(local.sha256);
    expect(res.body.warnings).toEqual(local.warnings);
    expect(res.body.warnings).toContainEqual(
      expect.objectContaining({ code: 'FILING_DEADLINE_PASSED', details: { deadline: '30/09/2026' } }),
    );
    expect(res.body.normalizations).toEqual(local.normalizations);
    expect(res.body.normalization_count).toBe(local.normalization_count);
    const dl = await request(gw.http)
      .get(`/v1/files/${res.body.file_id}/download`)
      .set(bearer(org.live))
      .buffer(true);
    expect(createHash('sha256').update(Buffer.from(dl.text, 'utf8')).digest('hex')).toBe(local.sha256);
    expect(Buffer.from(dl.text, 'utf8').equals(local.content)).toBe(true);
    expect(await usage(org.id)).toBe(60);
    // The payload is gone once the job is done.
    expect(await gw.storage.exists(payloadKeyOf(res.body.file_id))).toBe(false);
  });

  it('a large upload is validated by a worker with the same answer as in process', async () => {
    const before = new Set(await gw.redis.keys(`${gw.config.queue.prefix}:payload:validate:*`));
    const org = await gw.organization('pro');
    const gen = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...body(40), options: { store: false } });
    const csv = Buffer.from(gen.body.content, 'utf8');
    expect(csv.length).toBeGreaterThan(4096);
    const res = await request(gw.http)
      .post('/v1/files/validate')
      .set(bearer(org.live))
      .field('type', 'adf')
      .field('declarant', 'training_organization')
      .attach('file', csv, gen.body.filename);
    expect(res.status).toBe(200);
    const refs = new ReferenceDirectory(null).lists('2026-02');
    const local = validateCsv(
      csv,
      { type: 'adf', declarant: 'training_organization', filename: gen.body.filename },
      { refs },
    );
    expect(res.body).toEqual(JSON.parse(JSON.stringify(local)));
    expect(await usage(org.id)).toBe(40);
    expect(
      (await gw.redis.keys(`${gw.config.queue.prefix}:payload:validate:*`)).filter((k) => !before.has(k)),
    ).toEqual([]);
  });

  it('a large spreadsheet import and a large fix are done by a worker, with the answers of the in-process path', async () => {
    await withWorker();
    const org = await gw.organization('pro');
    const completed = async (name: string) =>
      (await worker!.get(Metrics).jobs.get()).values.find(
        (v) => v.labels.name === name && v.labels.outcome === 'completed',
      )?.value ?? 0;
    const gen = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.test))
      .send({ ...body(40), options: { store: false } });
    const csv = Buffer.from(gen.body.content, 'utf8');
    expect(csv.length).toBeGreaterThan(4096);
    const kind = { type: 'adf', declarant: 'training_organization' } as const;
    const refs = new ReferenceDirectory(null);
    const env = { refs: refs.lists('2026-02'), today: parisDay(gw.clock.now()), maxRows: 50_000 };

    const importsBefore = await completed('import-sheet');
    const imported = await request(gw.http)
      .post('/v1/declarations/import')
      .set(bearer(org.live))
      .field('type', kind.type)
      .field('declarant', kind.declarant)
      .attach('file', csv, 'session.csv');
    expect(imported.status).toBe(200);
    expect(await completed('import-sheet')).toBe(importsBefore + 1);
    const local = importSheet(csv, { ...kind, filename: 'session.csv', strict_references: true }, env);
    expect(imported.body).toEqual(JSON.parse(JSON.stringify(local)));
    expect(imported.body.validation.valid).toBe(true);

    const lf = Buffer.from(csv.toString('utf8').replace(/\r\n/g, '\n'));
    const fixesBefore = await completed('fix-file');
    const fixed = await request(gw.http)
      .post('/v1/files/fix')
      .set(bearer(org.live))
      .field('type', kind.type)
      .field('declarant', kind.declarant)
      .attach('file', lf, 'session.csv');
    expect(fixed.status).toBe(200);
    expect(await completed('fix-file')).toBe(fixesBefore + 1);
    expect(fixed.body.content).toBe(csv.toString('utf8'));
    expect(fixed.body).toEqual(
      JSON.parse(JSON.stringify(fixCsv(lf, { ...kind, strict_references: true }, env))),
    );
    expect(await usage(org.id)).toBe(40);

    // A refusal found by the worker is the request's refusal, not a failed job (500).
    const garbage = Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(6000, 7)]);
    const refused = await request(gw.http)
      .post('/v1/declarations/import')
      .set(bearer(org.live))
      .field('type', kind.type)
      .field('declarant', kind.declarant)
      .attach('file', garbage, 'x.xlsx');
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('UNREADABLE_FILE');
  });

  it('Prefer: respond-async answers 202 with Location; the file moves from processing to available', async () => {
    const org = await gw.organization('pro');
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Prefer', 'respond-async')
      .send(body(30));
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ file_id: expect.stringMatching(/^file_[0-9a-f]{32}$/), status: 'processing' });
    expect(res.headers.location).toBe(`/v1/files/${res.body.file_id}`);
    const meta = await until('available', async () => {
      const m = await request(gw.http).get(String(res.headers.location)).set(bearer(org.live));
      return m.body.status === 'available' ? m.body : null;
    });
    expect(meta).toMatchObject({ rows: 30, stored: true, mode: 'live' });
    const dl = await request(gw.http).get(`/v1/files/${res.body.file_id}/download`).set(bearer(org.live));
    expect(dl.status).toBe(200);
    expect(await usage(org.id)).toBe(30);
  });

  it('a 202 retried with its Idempotency-Key answers the file as it is now: 202 with Location, then 200 once available', async () => {
    const org = await gw.organization('pro');
    const send = () =>
      request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .set('Prefer', 'respond-async')
        .set('Idempotency-Key', 'async-retry')
        .send(body(30));
    const first = await send();
    expect(first.status).toBe(202);
    await until('available', async () => {
      const m = await request(gw.http).get(`/v1/files/${first.body.file_id}`).set(bearer(org.live));
      return m.body.status === 'available' ? m.body : null;
    });
    const retry = await send();
    expect(retry.status).toBe(200);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toMatchObject({ success: true, file_id: first.body.file_id, rows: 30, stored: true });
    expect(await usage(org.id)).toBe(30);
  });

  it('an asynchronous generation with invalid rows ends failed, with the error body, and counts nothing', async () => {
    const org = await gw.organization('pro');
    const b = body(30);
    b.declarations[0].holders[4].nir = 'nonsense';
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Prefer', 'respond-async')
      .send(b);
    expect(res.status).toBe(202);
    const meta = await until('failed', async () => {
      const m = await request(gw.http).get(`/v1/files/${res.body.file_id}`).set(bearer(org.live));
      return m.body.status === 'failed' ? m.body : null;
    });
    expect(meta.error.error.code).toBe('VALIDATION_FAILED');
    expect(meta.error.error.details.errors[0]).toMatchObject({ row: 6, column: 'NIR', code: 'INVALID_NIR' });
    expect(JSON.stringify(meta)).not.toContain('nonsense');
    expect(await usage(org.id)).toBe(0);
  });

  it('synchronously, invalid rows through the queue give the same 422 as in process', async () => {
    const org = await gw.organization('pro');
    const b = body(30);
    b.declarations[0].holders[2].birth_name = 'X'.repeat(31);
    const res = await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(b);
    expect(res.status).toBe(422);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(res.body.error.details.errors[0]).toMatchObject({
      row: 4,
      column: 'NOM_TITULAIRE',
      code: 'FIELD_TOO_LONG',
    });
    expect(await usage(org.id)).toBe(0);
  });
});

/** Builds the compiled WorkerModule with SweepProcessor emptied, initializes it, prints the outcome. */
const BOOT_WITHOUT_SWEEP = `
require('reflect-metadata');
const { Test } = require('@nestjs/testing');
const src = './dist/apps/worker/apps/worker/src/';
const { WorkerModule } = require(src + 'worker.module');
const { SweepProcessor } = require(src + 'processors/sweep.processor');
const { loadWorkerConfig } = require(src + 'config');
const { createRootLogger } = require('./dist/apps/worker/libs/infra/src');
(async () => {
  const logger = createRootLogger({ app: 'worker', level: 'silent' });
  const module = await Test.createTestingModule({ imports: [WorkerModule.forRoot(loadWorkerConfig(), logger)] })
    .overrideProvider(SweepProcessor).useValue({}).compile();
  let outcome = { started: true };
  try { await module.init(); } catch (e) { outcome = { started: false, error: e.message }; }
  process.stdout.write(JSON.stringify(outcome) + '\\n', () => process.exit(0));
})();
`;

describe('one queue per kind of work (issue 20)', () => {
  it('each process registers the queues it uses: the gateway those it adds to, no legacy queue', () => {
    const jobs = gw.app.get(JobQueue);
    expect(jobs.queue('generate').name).toBe('generate');
    expect(jobs.queue('validate').name).toBe('validate');
    expect(() => jobs.queue('maintenance')).toThrow(
      'queue "maintenance" is not registered in this process (InfraModule.forRoot queues)',
    );
  });

  it('the worker refuses to start when a job name of libs/jobs QUEUES has no @OnJob handler', async () => {
    // The built WorkerModule without SweepProcessor's methods: `sweep` (queue `maintenance`) has no
    // handler. In a process of its own, as main.ts runs it: a context whose init failed cannot be
    // closed, and what it opened dies with the process.
    const missing = execFileSync(process.execPath, ['-e', BOOT_WITHOUT_SWEEP], {
      cwd: path.join(__dirname, '..'),
      env: workerEnv(workerConfigFor(gw)),
      encoding: 'utf8',
    });
    expect(JSON.parse(missing.trim().split('\n').pop()!)).toEqual({
      started: false,
      error: expect.stringContaining(
        'the worker cannot start: no handler for job "sweep" (queue "maintenance")',
      ) as string,
    });
    const logger = createRootLogger({ app: 'worker', level: 'info', destination: suiteLogs });
    const build = () =>
      Test.createTestingModule({ imports: [WorkerModule.forRoot(workerConfigFor(gw), logger)] }).compile();
    const complete = await build();
    try {
      await expect(complete.init()).resolves.toBe(complete);
      expect(complete.get(QueueWorkers).worker('maintenance').isRunning()).toBe(true);
    } finally {
      await complete.close();
    }
  });

  it('each queue has its own worker with its own concurrency (WORKER_CONCURRENCY_<QUEUE>)', async () => {
    const own = await startWorker(
      workerConfigFor(gw, { concurrency: { generate: 1, validate: 3, maintenance: 1 } }),
    );
    try {
      const workers = QUEUE_NAMES.map((q) => own.get(QueueWorkers).worker(q));
      expect(workers.map((w) => [w.name, w.concurrency])).toEqual([
        ['generate', 1],
        ['validate', 3],
        ['maintenance', 1],
      ]);
      for (const w of workers) expect(w.opts.prefix).toBe(gw.config.queue.prefix);
    } finally {
      await own.close();
    }
  });
});

describe('worker pools (WORKER_QUEUES, issue 35)', () => {
  it('a pool takes only its queues: a generate job stays waiting while its validate job is taken', async () => {
    // A prefix of its own: the suite's worker (every queue) does not see these jobs.
    const prefix = `pools${Date.now()}`;
    const connection = redisOptions(gw.config.redisUrl, 'queue');
    const generate = new Queue('generate', { connection, prefix });
    const validate = new Queue('validate', { connection, prefix });
    const pool = await startWorker(workerConfigFor(gw, { queuePrefix: prefix, queues: ['validate'] }));
    try {
      const workers = pool.get(QueueWorkers);
      expect(workers.worker('validate').isRunning()).toBe(true);
      expect(() => workers.worker('generate')).toThrow('no worker for queue "generate" in this process');
      expect(() => workers.worker('maintenance')).toThrow(
        'no worker for queue "maintenance" in this process',
      );
      const waiting = await generate.add('generate', { fileId: 'pool-test' }, { attempts: 1 });
      // Data no file matches: the handler ends it one way or the other; what counts is that this pool ran it.
      const taken = await validate.add('validate-file', { fileId: 'pool-test' }, { attempts: 1 });
      await until('the validate job to be taken', async () =>
        ['completed', 'failed'].includes(await taken.getState()),
      );
      expect(await waiting.getState()).toBe('waiting');
      expect(await generate.getWaitingCount()).toBe(1);
    } finally {
      await pool.close();
      await generate.obliterate({ force: true }).catch(() => undefined);
      await validate.obliterate({ force: true }).catch(() => undefined);
      await generate.close();
      await validate.close();
    }
  });
});

describe('worker pools as operators run them (WORKER_QUEUES)', () => {
  it('a worker process says which queues it takes, and refuses to boot on an unknown one', async () => {
    const prefix = `poolsp${Date.now()}`;
    const child = await spawnWorker(workerConfigFor(gw, { queuePrefix: prefix, queues: ['validate'] }));
    try {
      let out = child.startupOutput;
      const onData = (d: Buffer) => (out += d.toString());
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      await until('the startup line', () => Promise.resolve(out.includes('ppfile worker started')));
      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(lines).toContain('ppfile worker started, queues validate');
      expect(lines.filter((l) => l.startsWith('processing queue'))).toEqual([
        'processing queue "validate" (validate-file, import-sheet, fix-file), concurrency 1',
      ]);
    } finally {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    let refused = '';
    try {
      execFileSync(process.execPath, [WORKER_MAIN], {
        env: { ...workerEnv(workerConfigFor(gw, { queuePrefix: prefix })), WORKER_QUEUES: 'generate,sweep' },
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (e) {
      const err = e as { status: number; stdout: string; stderr: string };
      expect(err.status).not.toBe(0);
      refused = err.stdout + err.stderr;
    }
    expect(refused).toContain(
      'WORKER_QUEUES must be a comma list of queues among generate, validate, maintenance (not: sweep)',
    );
  }, 60_000);
});

describe('Bull Board (operators only)', () => {
  it('is at /admin/queues behind operator credentials, never an API key, and read-only', async () => {
    const org = await gw.organization('pro');
    const none = await request(gw.http).get('/admin/queues');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toMatch(/^Basic/);
    expect((await request(gw.http).get('/admin/queues').set(bearer(org.live))).status).toBe(401);
    expect((await request(gw.http).get('/admin/queues').auth('operator', 'wrong')).status).toBe(401);
    const page = await request(gw.http).get('/admin/queues').auth('operator', 'operator-secret');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<html');
    const api = await request(gw.http).get('/admin/queues/api/queues').auth('operator', 'operator-secret');
    expect(api.status).toBe(200);
    // Every queue, each read-only.
    expect(api.body.queues.map((x: Json) => x.name).sort()).toEqual([...QUEUE_NAMES].sort());
    for (const q of api.body.queues) expect(q.readOnlyMode).toBe(true);
  });
});

describe('faults', () => {
  const stopWorker = async () => {
    await worker?.close();
    worker = null;
  };
  // Each test chooses its workers: none may be left from the tests before.
  beforeAll(stopWorker);
  afterEach(stopWorker);

  it('a worker SIGKILLed in the middle of a large job: another finishes it, counted once, no orphan object', async () => {
    const org = await gw.organization('business');
    const config = workerConfigFor(gw, { lockSeconds: 2 });
    const victim: ChildProcess = await spawnWorker(config);
    const b = { ...body(20_000), options: { split_large_declarations: true } };
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Prefer', 'respond-async')
      .send(b);
    expect(res.status).toBe(202);
    const fileId: string = res.body.file_id;
    await until(
      'job active',
      async () => (await (await queue.getJob(fileId))?.getState()) === 'active',
      20_000,
    );
    victim.kill('SIGKILL');
    await new Promise((r) => victim.once('exit', r));
    expect((await gw.stores.files.getFileRecord(fileId))!.status).toBe('processing');

    worker = await startWorker(config);
    const record = await until(
      'recovered',
      async () => {
        const r = await gw.stores.files.getFileRecord(fileId);
        return r && r.status !== 'processing' ? r : null;
      },
      40_000,
    );
    expect(record.status).toBe('available');
    expect(await usage(org.id)).toBe(20_000);
    const names: string[] = [];
    const { Client } = await import('minio');
    const url = new URL(gw.s3.endpoint);
    const s3 = new Client({
      endPoint: url.hostname,
      port: Number(url.port),
      useSSL: false,
      accessKey: 'S3RVER',
      secretKey: 'S3RVER',
      pathStyle: true,
    });
    for await (const o of s3.listObjectsV2(gw.config.s3.bucket, `files/${fileId}`, true))
      names.push((o as { name: string }).name);
    expect(names).toEqual([`files/${fileId}.csv`]);
    const local = generateFile(b, { refs: new ReferenceDirectory(null).lists('2026-02'), today: 20261122 });
    expect(record.sha256).toBe(local.sha256);
  }, 120_000);

  it('a job that keeps failing ends failed with nothing counted and nothing stored', async () => {
    const org = await gw.organization('pro');
    // This worker's S3 endpoint refuses every write: each attempt fails, and the file's lease (3 s
    // here) runs out while the store stays down — then the file fails for good.
    worker = await startWorker(
      workerConfigFor(gw, {
        s3: { ...gw.config.s3, endpoint: 'http://127.0.0.1:9' },
        processingLeaseSeconds: 3,
        reconcileIntervalSeconds: 1,
      }),
    );
    const res = await request(gw.http)
      .post('/v1/files/generate')
      .set(bearer(org.live))
      .set('Prefer', 'respond-async')
      .send(body(25));
    const record = await until(
      'failed',
      async () => {
        const r = await gw.stores.files.getFileRecord(res.body.file_id);
        return r?.status === 'failed' ? r : null;
      },
      40_000,
    );
    expect(record.units).toBe(0);
    expect(await usage(org.id)).toBe(0);
    expect(await gw.storage.exists(`files/${res.body.file_id}.csv`)).toBe(false);
    // The move cleared the body's key; its object could not be deleted through a store that is down,
    // so it waits for a reconciler that reaches the store — and goes then.
    expect(record.payloadKey).toBeNull();
    expect(await gw.storage.exists(payloadKeyOf(res.body.file_id))).toBe(true);
    await gw.app.get(FileLifecycle).removeLeftOverPayloads(100, new Date());
    expect(await gw.storage.exists(payloadKeyOf(res.body.file_id))).toBe(false);
    const meta = await request(gw.http).get(`/v1/files/${res.body.file_id}`).set(bearer(org.live));
    expect(meta.body.status).toBe('failed');
    expect(meta.body.error.error.code).toBe('INTERNAL_ERROR');
  }, 60_000);
});
