/**
 * What an operator sees of a running ppfile (API.md §13): one JSON access line per request and one
 * line per job, Prometheus metrics on the gateway (behind the operator credentials) and on the
 * worker's port, and dependency errors logged once per change of state. Real PostgreSQL, Redis and
 * S3 endpoint; a private redis-server for the outage.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import request from 'supertest';
import { validBody } from '@ppfile/rules/testing/fixtures';
import { MetricsRefresher } from '@ppfile/infra';
import { HealthServer } from '../apps/worker/src/health-server';
import { startGateway, type Gateway } from './support/gateway';
import { auditLogLines, suiteLogs } from './support/logs';
import { PrivateRedis } from './support/stack';
import { assertBuilt, GATEWAY_MAIN, startWorker, WORKER_MAIN, workerConfigFor } from './support/worker';

type Json = Record<string, unknown>;

jest.setTimeout(60_000);

const OPERATOR = 'Basic ' + Buffer.from('operator:operator-secret').toString('base64');
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const DEPENDENCIES = ['postgres', 'redis', 's3'] as const;

/** `name{labels} value` lines of a Prometheus exposition, by series. */
function series(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

/**
 * The dependency gauge is a process's last check, honest: on this suite's loaded machine a ping can
 * pass the readiness timeout and read 0 until the next check. `scrape` (which may check first) again,
 * a few times, until every named dependency reads 1; the last scrape either way.
 */
async function scrapeUntilUp(
  scrape: () => Promise<Map<string, number>>,
  dependencies: readonly string[],
): Promise<Map<string, number>> {
  let m = await scrape();
  for (let i = 0; i < 20; i++) {
    if (dependencies.every((d) => m.get(`ppfile_dependency_up{dependency="${d}"}`) === 1)) break;
    await sleep(500);
    m = await scrape();
  }
  return m;
}

describe('logs and metrics of a gateway and a worker', () => {
  let gw: Gateway;
  let worker: INestApplicationContext;
  let workerPort: number;
  let org: Awaited<ReturnType<Gateway['organization']>>;
  const answers: request.Response[] = [];

  beforeAll(async () => {
    // The gateway's gauges are refreshed by hand below (an hour's period: no read between two
    // steps of a test); the worker's every second, by its timer.
    gw = await startGateway({ queue: { generateThresholdRows: 5 }, metricsRefreshSeconds: 3600 });
    worker = await startWorker(workerConfigFor(gw, { metricsRefreshSeconds: 1 }));
    workerPort = worker.get(HealthServer).port!;
    org = await gw.organization('pro');
    // One of each: queued generation (10 rows, by the worker), in-process generation, metadata,
    // refused without a key, refused invalid, unknown route.
    answers.push(
      await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .send(validBody('adf', 'employer', 10)),
    );
    answers.push(
      await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .send(validBody('adf', 'employer', 2)),
    );
    answers.push(
      await request(gw.http)
        .get(`/v1/files/${answers[1]!.body.file_id as string}`)
        .set(bearer(org.live)),
    );
    answers.push(
      await request(gw.http)
        .post('/v1/files/generate')
        .send(validBody('adf', 'employer', 2)),
    );
    const invalid = validBody('adf', 'employer', 2) as { declarations: { holders: { nir: string }[] }[] };
    invalid.declarations[0]!.holders[0]!.nir = '123';
    answers.push(await request(gw.http).post('/v1/files/generate').set(bearer(org.live)).send(invalid));
    answers.push(await request(gw.http).get('/v1/nowhere').set(bearer(org.live)));
    // Refused before Nest's routing, by the JSON-body middleware: counted like every other refusal.
    const post = () => request(gw.http).post('/v1/declarations/validate').set(bearer(org.live));
    answers.push(await post().set('Content-Type', 'application/json').send('{bad'));
    answers.push(await post().set('Content-Type', 'text/plain').send('adf'));
    answers.push(
      await post()
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ padding: 'x'.repeat(20 * 1024 * 1024) })),
    );
  });

  afterAll(async () => {
    await worker?.close();
    await gw?.close();
  });

  it('answers as expected (the requests the lines below describe)', () => {
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 401, 422, 404, 400, 415, 413]);
  });

  it('one JSON access line per request: request id, method, route template, status, duration, key id, error code', () => {
    const access = suiteLogs.entries('access');
    const lineOf = (res: request.Response) =>
      access.find((e) => e.request_id === res.headers['x-request-id']);
    const [queued, inProcess, metadata, anonymous, invalid, unknown, badJson, notJson, tooLarge] =
      answers.map(lineOf);
    expect(queued).toMatchObject({
      method: 'POST',
      route: '/v1/files/generate',
      status: 200,
      key_id: org.liveId,
      org_id: org.id,
      level: 'info',
      app: 'gateway',
    });
    expect(typeof queued!.duration_ms).toBe('number');
    expect(typeof queued!.time).toBe('string');
    expect(inProcess).toMatchObject({ route: '/v1/files/generate', status: 200, key_id: org.liveId });
    // The template, never the file id: one series per route, not per file.
    expect(metadata).toMatchObject({ method: 'GET', route: '/v1/files/:id', status: 200 });
    expect(JSON.stringify(metadata)).not.toContain(answers[1]!.body.file_id as string);
    // Refused by middleware before routing: the route is still the template it was aimed at.
    expect(anonymous).toMatchObject({ route: '/v1/files/generate', status: 401, code: 'MISSING_API_KEY' });
    expect(anonymous!.key_id).toBeUndefined();
    expect(invalid).toMatchObject({ status: 422, code: 'VALIDATION_FAILED' });
    expect(unknown).toMatchObject({ route: 'unmatched', status: 404, code: 'NOT_FOUND' });
    expect(badJson).toMatchObject({ status: 400, code: 'INVALID_JSON' });
    expect(notJson).toMatchObject({ status: 415, code: 'UNSUPPORTED_MEDIA_TYPE' });
    expect(tooLarge).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
    // Never the key itself (the audit after this file checks every line; this is the direct case).
    expect(suiteLogs.lines.some((l) => l.includes(org.live))).toBe(false);
  });

  it('one JSON line per job: file id, the accepting request id, rows, duration, outcome', async () => {
    const fileId = answers[0]!.body.file_id as string;
    let job: Record<string, unknown> | undefined;
    for (let i = 0; i < 50 && !job; i++) {
      job = suiteLogs.entries('job').find((e) => e.file_id === fileId);
      if (!job) await sleep(100);
    }
    expect(job).toMatchObject({
      app: 'worker',
      job: 'generate',
      file_id: fileId,
      // The worker's lines for a job carry the id of the request that added it (nestjs-cls).
      request_id: answers[0]!.headers['x-request-id'],
      rows: 10,
      outcome: 'completed',
    });
    expect(typeof job!.duration_ms).toBe('number');
  });

  it('/metrics on the gateway needs the operator credentials and carries every family', async () => {
    expect((await request(gw.http).get('/metrics')).status).toBe(401);
    // The gauges that need I/O are read off the scrape: a refresh after the requests above.
    await gw.app.get(MetricsRefresher).refresh();
    const res = await request(gw.http).get('/metrics').set('Authorization', OPERATOR);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const m = series(res.text);
    expect(
      m.get(
        'ppfile_http_request_duration_seconds_count{route="/v1/files/generate",method="POST",status="200"}',
      ),
    ).toBe(2);
    expect(
      m.get('ppfile_http_request_duration_seconds_count{route="/v1/files/:id",method="GET",status="200"}'),
    ).toBe(1);
    // The in-process generation's 2 units here; the queued one's 10 in the worker's metrics.
    expect(m.get('ppfile_units_committed_total{mode="live"}')).toBe(2);
    expect(m.get('ppfile_units_committed_total{mode="test"}')).toBe(0);
    expect(m.get('ppfile_refusals_total{code="MISSING_API_KEY"}')).toBe(1);
    expect(m.get('ppfile_refusals_total{code="VALIDATION_FAILED"}')).toBe(1);
    expect(m.get('ppfile_refusals_total{code="INVALID_JSON"}')).toBe(1);
    expect(m.get('ppfile_refusals_total{code="UNSUPPORTED_MEDIA_TYPE"}')).toBe(1);
    expect(m.get('ppfile_refusals_total{code="PAYLOAD_TOO_LARGE"}')).toBe(1);
    expect(m.get('ppfile_files{state="available"}')).toBe(2);
    expect(m.get('ppfile_files{state="failed"}')).toBe(0);
    // The queues the gateway adds to (the one it only shows, maintenance, is counted by the workers).
    for (const queue of ['generate', 'validate'])
      for (const state of ['waiting', 'active', 'delayed', 'failed'])
        expect(m.get(`ppfile_queue_jobs{queue="${queue}",state="${state}"}`)).toBe(0);
    const checked = await scrapeUntilUp(async () => {
      await gw.app.get(MetricsRefresher).refresh();
      return series((await request(gw.http).get('/metrics').set('Authorization', OPERATOR)).text);
    }, DEPENDENCIES);
    for (const dependency of DEPENDENCIES)
      expect(checked.get(`ppfile_dependency_up{dependency="${dependency}"}`)).toBe(1);
    expect(m.get('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(res.text).toContain('# TYPE ppfile_jobs_total counter');
    expect(res.text).toContain('# TYPE ppfile_job_duration_seconds histogram');
    expect(res.text).toContain('nodejs_eventloop_lag_seconds');
  });

  it("/metrics on the worker's port needs the operator credentials: jobs by name and outcome, their duration, its units", async () => {
    const url = `http://127.0.0.1:${workerPort}/metrics`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { Authorization: 'Basic b3BlcmF0b3I6d3Jvbmc=' } })).status).toBe(401);
    const res = await fetch(url, { headers: { Authorization: OPERATOR } });
    expect(res.status).toBe(200);
    const m = series(await res.text());
    expect(m.get('ppfile_jobs_total{name="generate",outcome="completed"}')).toBe(1);
    expect(m.get('ppfile_job_duration_seconds_count{name="generate",outcome="completed"}')).toBe(1);
    expect(m.get('ppfile_units_committed_total{mode="live"}')).toBe(10);
    // The worker checks every second here.
    const checked = await scrapeUntilUp(
      async () => series(await (await fetch(url, { headers: { Authorization: OPERATOR } })).text()),
      ['redis'],
    );
    expect(checked.get('ppfile_dependency_up{dependency="redis"}')).toBe(1);
  });

  it("the worker's gauges follow its timer (METRICS_REFRESH_SECONDS): values read after the files were made", async () => {
    const url = `http://127.0.0.1:${workerPort}/metrics`;
    // Both files are available by now (the queued one's job line was seen above).
    const since = Date.now() / 1000;
    let m = new Map<string, number>();
    for (let i = 0; i < 50; i++) {
      m = series(await (await fetch(url, { headers: { Authorization: OPERATOR } })).text());
      const read = (source: string) =>
        m.get(`ppfile_metrics_refreshed_timestamp_seconds{source="${source}"}`) ?? 0;
      if (read('queues') >= since && read('files') >= since) break;
      await sleep(100);
    }
    for (const source of ['queues', 'files'])
      expect(m.get(`ppfile_metrics_refreshed_timestamp_seconds{source="${source}"}`)).toBeGreaterThanOrEqual(
        since,
      );
    expect(m.get('ppfile_files{state="available"}')).toBe(2);
    expect(m.get('ppfile_files{state="processing"}')).toBe(0);
    for (const queue of ['generate', 'validate', 'maintenance'])
      expect(m.get(`ppfile_queue_jobs{queue="${queue}",state="waiting"}`)).toBe(0);
  });

  it('the log audit finds a NIR, a birth name, an API key and a line that is not JSON', () => {
    const problems = auditLogLines([
      '{"msg":"ok","request_id":"req_0123456789abcdef0123456789abcdef"}',
      '{"msg":"leak","value":"2550814168025"}',
      '{"msg":"leak","value":"285037505612306"}',
      '{"msg":"not a NIR: an epoch in ms","job_id":"repeat:sweep:1795443890153"}',
      '{"msg":"leak","value":"DUPONT"}',
      `{"msg":"leak","value":"${org.live}"}`,
      'plain text',
    ]);
    expect(problems).toHaveLength(5);
    expect(problems.join('\n')).toContain('a NIR with its key');
    expect(problems.join('\n')).not.toContain('2550814168025');
  });

  // Last of this block: the object store stays stopped.
  it('a scrape does no I/O: object store stopped, /metrics shows the last values; /health/ready says it is down, and the gauge follows', async () => {
    const scrape = async () =>
      series((await request(gw.http).get('/metrics').set('Authorization', OPERATOR).expect(200)).text);
    const before = await scrape();
    await gw.s3.close();
    // A scrape that checked the bucket would say 0 now (a closed port answers at once).
    const during = await scrape();
    expect(during.get('ppfile_dependency_up{dependency="s3"}')).toBe(1);
    expect(during.get('ppfile_files{state="available"}')).toBe(2);
    expect(during.get('ppfile_metrics_refreshed_timestamp_seconds{source="dependencies"}')).toBe(
      before.get('ppfile_metrics_refreshed_timestamp_seconds{source="dependencies"}'),
    );
    // Readiness stays a live check, and its answer is the gauge's.
    const checked = Date.now() / 1000;
    const ready = await request(gw.http).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', down: ['storage'] });
    const after = await scrape();
    expect(after.get('ppfile_dependency_up{dependency="s3"}')).toBe(0);
    expect(after.get('ppfile_dependency_up{dependency="postgres"}')).toBe(1);
    expect(
      after.get('ppfile_metrics_refreshed_timestamp_seconds{source="dependencies"}'),
    ).toBeGreaterThanOrEqual(Math.floor(checked));
    expect(after.get('ppfile_files{state="available"}')).toBe(2);
  });
});

describe('on a Redis of its own', () => {
  const redis = new PrivateRedis();
  let gw: Gateway;

  beforeAll(async () => {
    await redis.start();
    gw = await startGateway({
      redisUrl: redis.url,
      queue: { generateThresholdRows: 5, validateThresholdBytes: 1024, prefix: 'acme-prod' },
    });
  });

  afterAll(async () => {
    await gw?.close();
    await redis.destroy();
  });

  it('QUEUE_PREFIX prefixes every Redis key the gateway and the worker write (queue, limits, payloads, operator sign-ins)', async () => {
    const worker = await startWorker(workerConfigFor(gw));
    try {
      const org = await gw.organization('pro');
      // Rate limits (key, organization, anonymous address), a queued generation, a queued upload
      // validation (its payload key), a failed operator sign-in, the sweep's schedule.
      expect((await request(gw.http).get('/v1/spec').set(bearer(org.live))).status).toBe(200);
      expect((await request(gw.http).get('/v1/spec')).status).toBe(401);
      const gen = await request(gw.http)
        .post('/v1/files/generate')
        .set(bearer(org.live))
        .send({ ...validBody('adf', 'employer', 20), options: { store: false } });
      expect(gen.status).toBe(200);
      const upload = await request(gw.http)
        .post('/v1/files/validate')
        .set(bearer(org.live))
        .field('type', 'adf')
        .field('declarant', 'employer')
        .attach('file', Buffer.from(gen.body.content as string, 'utf8'), gen.body.filename as string);
      expect(upload.status).toBe(200);
      expect(
        (
          await request(gw.http)
            .get('/admin/queues')
            .set('Authorization', 'Basic ' + Buffer.from('operator:wrong').toString('base64'))
        ).status,
      ).toBe(401);
      const own = new Redis(redis.url);
      try {
        const all = await own.keys('*');
        expect(all.length).toBeGreaterThan(5);
        expect(all.filter((k) => !k.startsWith('acme-prod:'))).toEqual([]);
        for (const kind of ['acme-prod:rl:', 'acme-prod:generate:', 'acme-prod:{opauth}:'])
          expect(all.some((k) => k.startsWith(kind))).toBe(true);
      } finally {
        own.disconnect();
      }
    } finally {
      await worker.close();
    }
  });

  it('TRUST_PROXY off (the default): X-Forwarded-For is ignored, every anonymous caller of this address shares one bucket', async () => {
    const first = await request(gw.http).get('/v1/spec').set('X-Forwarded-For', '198.51.100.7');
    const second = await request(gw.http).get('/v1/spec').set('X-Forwarded-For', '203.0.113.9');
    expect([first.status, second.status]).toEqual([401, 401]);
    expect(Number(second.headers['x-ratelimit-remaining'])).toBe(
      Number(first.headers['x-ratelimit-remaining']) - 1,
    );
  });

  it('Redis stopped: /health/ready 503 naming it, every request 503, one line; back: 200 and one line', async () => {
    const org = await gw.organization('pro');
    const mark = suiteLogs.lines.length;
    await redis.kill();
    const ready = await request(gw.http).get('/health/ready');
    expect(ready.status).toBe(503);
    expect(ready.body).toMatchObject({ status: 'unavailable', down: ['redis'] });
    for (let i = 0; i < 10; i++) {
      const res = await request(gw.http)
        .post('/v1/declarations/validate')
        .set(bearer(org.live))
        .send(validBody('adf', 'employer', 1));
      expect(res.status).toBe(503);
    }
    await sleep(3000); // several reconnection attempts of ioredis (every 2 s at most)
    const during = suiteLogs.lines.slice(mark).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(
      during.filter((e) => e.dependency === 'redis' && e.msg === 'redis unreachable; retrying'),
    ).toHaveLength(1);
    expect(during.filter((e) => e.level === 'error')).toEqual([]);
    await redis.start();
    for (let i = 0; i < 100 && (await request(gw.http).get('/health/ready')).status !== 200; i++)
      await sleep(200);
    expect((await request(gw.http).get('/health/ready')).status).toBe(200);
    // The watch rechecks every 5 s while something is down; the readiness probe above saw it back.
    const after = suiteLogs.lines.slice(mark).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(after.filter((e) => e.dependency === 'redis' && e.msg === 'redis reachable again')).toHaveLength(
      1,
    );
    expect(
      after.filter((e) => e.dependency === 'redis' && e.msg === 'redis unreachable; retrying'),
    ).toHaveLength(1);
  });
});

describe('a process that cannot start says why in JSON lines only', () => {
  const base = {
    PATH: process.env.PATH,
    DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/test',
    S3_ENDPOINT: 'http://127.0.0.1:9',
    S3_ACCESS_KEY: 'a',
    S3_SECRET_KEY: 'b',
    PAYLOAD_ENCRYPTION_KEY: Buffer.alloc(32, 1).toString('base64'),
    PORT: '0',
    WORKER_HTTP_PORT: '0',
  };
  let emptyDir: string;

  beforeAll(() => {
    assertBuilt('gateway', GATEWAY_MAIN);
    assertBuilt('worker', WORKER_MAIN);
    emptyDir = mkdtempSync(path.join(tmpdir(), 'ppfile-no-refdata-'));
  });
  afterAll(() => rmSync(emptyDir, { recursive: true, force: true }));

  /** Runs a built app until it exits; its output, line by line, and its exit status. */
  const run = (main: string, env: Record<string, string | undefined>) => {
    const r = spawnSync(process.execPath, [main], {
      env: { ...base, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    const lines = `${r.stdout}${r.stderr}`.split('\n').filter(Boolean);
    return {
      status: r.status,
      lines,
      fatal: lines.map((l) => JSON.parse(l) as Json).find((e) => e.level === 'fatal'),
    };
  };

  it.each([
    ['gateway', GATEWAY_MAIN],
    ['worker', WORKER_MAIN],
  ])('%s: every configuration problem at once', (app, main) => {
    const r = run(main, { REDIS_URL: 'tcp://x', LOG_LEVEL: 'chatty', PPFILE_REFERENCE_DATA: '/nonexistent' });
    expect(r.status).toBe(1);
    expect(auditLogLines(r.lines)).toEqual([]);
    expect(r.fatal?.msg).toMatch(new RegExp(`^ppfile ${app}: invalid environment: `));
    for (const name of ['REDIS_URL', 'LOG_LEVEL', 'PPFILE_REFERENCE_DATA'])
      expect(r.fatal?.msg).toContain(name);
  });

  it.each([
    ['gateway', GATEWAY_MAIN],
    ['worker', WORKER_MAIN],
  ])(
    '%s: a failure while Nest builds the modules (no reference lists there) is JSON, not coloured text',
    (app, main) => {
      const r = run(main, { PPFILE_REFERENCE_DATA: emptyDir });
      expect(r.status).toBe(1);
      expect(auditLogLines(r.lines)).toEqual([]);
      expect(r.lines.join('\n')).not.toContain('\u001b[');
      expect(r.fatal?.msg).toContain(`ppfile ${app}: `);
      expect(r.fatal?.msg).toContain(emptyDir);
    },
  );

  it("the worker's port taken: one line naming it and WORKER_HTTP_PORT", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const r = run(WORKER_MAIN, { WORKER_HTTP_PORT: String(port), REDIS_URL: 'redis://127.0.0.1:6379' });
      expect(r.status).toBe(1);
      expect(auditLogLines(r.lines)).toEqual([]);
      expect(r.fatal?.msg).toBe(`ppfile worker: port ${port} is already in use (WORKER_HTTP_PORT)`);
    } finally {
      server.close();
    }
  });
});
