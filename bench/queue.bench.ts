/**
 * Queue benchmark (issue: workers, deliverable 9), on this machine's PostgreSQL and Redis and a
 * local S3 endpoint, every process separate:
 *   (1) a 50,000-holder generation (store: true) through gateway → queue → worker → S3, versus the
 *       same request produced in-process by a gateway whose hand-off threshold is above it;
 *   (2) 10 large generations (20,000 holders each, Prefer: respond-async), accepted while the queue
 *       is paused, then drained by 1 worker, and by 2 workers;
 *   (3) while 1 worker drains, the CPU seconds spent per 20,000-row job by the worker and by each
 *       shared service (every PostgreSQL process, the redis-server, the S3 endpoint in a process of
 *       its own), read from /proc: how many busy workers one core of each service can feed.
 * Targets: queue path ≤ 3 × in-process; two workers ≤ 0.6 × one worker's time.
 *
 * Run: npm run bench:queue
 */
import type { ChildProcess } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { createPrismaClient, createStores, migrate, type Stores } from '@ppfile/db';
import { redisOptions } from '@ppfile/infra';

import {
  backendCpu,
  backendCpuSince,
  benchServices,
  cpuSeconds,
  cpuSecondsOf,
  DB_URL,
  GATEWAY,
  REDIS_URL,
  sessionsBody,
  startProcess,
  WORKER,
} from './support';

const PREFIX = `bench-${process.pid}`;

async function post(
  url: string,
  key: string,
  payload: string,
  asyncMode = false,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${key}`,
      ...(asyncMode ? { prefer: 'respond-async' } : {}),
    },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function freshKey(stores: Stores, name: string): Promise<string> {
  const org = await stores.organizations.createOrganization({ name, plan: 'business' });
  return (await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' })).key;
}

async function main(): Promise<void> {
  await migrate(DB_URL);
  const prisma = createPrismaClient(DB_URL, { poolMax: 2 });
  const stores = createStores(prisma);
  const services = await benchServices('qbench', { s3Process: true });
  const env: NodeJS.ProcessEnv = {
    ...services.env,
    QUEUE_PREFIX: PREFIX,
    RATE_LIMIT_SCALE: '1000',
    SWEEP_INTERVAL_SECONDS: '0',
  };
  const children: ChildProcess[] = [];
  const listening = /gateway listening/;
  try {
    const inProcess = await startProcess(
      GATEWAY,
      { ...env, PORT: '3831', GENERATE_QUEUE_THRESHOLD_ROWS: '1000000' },
      listening,
    );
    const queued = await startProcess(GATEWAY, { ...env, PORT: '3832' }, listening);
    children.push(inProcess, queued);

    // (1) one 50,000-holder generation, each path measured 3 times (a fresh organization each: quotas).
    const big = sessionsBody(50_000, 1);
    let worker = await startProcess(WORKER, env, /processing queue/);
    children.push(worker);
    const times = { local: [] as number[], queue: [] as number[] };
    for (let i = 0; i < 3; i++) {
      for (const [label, port] of [
        ['local', 3831],
        ['queue', 3832],
      ] as const) {
        const key = await freshKey(stores, `bench ${label} ${i}`);
        const t0 = performance.now();
        const r = await post(`http://127.0.0.1:${port}/v1/files/generate`, key, big);
        if (r.status !== 200)
          throw new Error(`${label}: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        times[label].push(performance.now() - t0);
      }
    }
    const med = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

    // (2) ten 20,000-holder jobs, asynchronous, drained by 1 then 2 workers.
    // The queue is paused while the 10 jobs are accepted, so that the time measured is the workers'
    // draining alone, not the gateway's accepting 10 bodies of 4 MB one after the other.
    const queue = new Queue('generate', { connection: redisOptions(REDIS_URL, 'queue'), prefix: PREFIX });
    type Cpu = { worker: number; postgres: number; backends: number; redis: number; s3: number };
    const database = new URL(DB_URL).pathname.slice(1);
    const pgQuery = (sql: string, db: string) => prisma.$queryRawUnsafe<{ pid: number }[]>(sql, db);
    let backends0 = new Map<number, number>();
    // Redis counts its own CPU in microseconds (INFO cpu); /proc's clock ticks (10 ms) would round a
    // job's share of Redis to nothing.
    const redisInfo = new Redis(REDIS_URL);
    const redisCpu = async (): Promise<number> => {
      const info = await redisInfo.info('cpu');
      const read = (name: string) => Number(new RegExp(`^${name}:([\\d.]+)`, 'm').exec(info)?.[1]);
      return read('used_cpu_sys') + read('used_cpu_user');
    };
    const cpuNow = async (workerPids: number[]): Promise<Cpu> => ({
      worker: workerPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0),
      postgres: cpuSecondsOf('postgres'),
      backends: 0,
      redis: await redisCpu(),
      s3: services.s3Pid ? cpuSeconds(services.s3Pid) : 0,
    });
    let cpuPerJob: Cpu | null = null;
    const drain = async (workers: number, workerPids: number[]): Promise<number> => {
      const keys = await Promise.all(
        Array.from({ length: 10 }, (_, i) => freshKey(stores, `drain ${workers} ${i}`)),
      );
      const payloads = keys.map((_, i) => sessionsBody(20_000, 100 + workers * 10 + i));
      await queue.pause();
      // From before the gateway accepts the jobs: accepting each (its record, its sealed body in the
      // object store) is part of what a job costs the shared services (the workers, paused meanwhile,
      // spend nothing).
      const cpu0 = await cpuNow(workerPids);
      backends0 = await backendCpu(pgQuery, database);
      const ids: string[] = [];
      for (let i = 0; i < 10; i++) {
        const r = await post('http://127.0.0.1:3832/v1/files/generate', keys[i]!, payloads[i]!, true);
        if (r.status !== 202) throw new Error(`enqueue: ${r.status}`);
        ids.push(r.body.file_id as string);
      }
      const t0 = performance.now();
      await queue.resume();
      for (;;) {
        const done = await prisma.fileRecord.count({
          where: { id: { in: ids }, status: { not: 'PROCESSING' } },
        });
        if (done === ids.length) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const failed = await prisma.fileRecord.count({ where: { id: { in: ids }, status: 'FAILED' } });
      if (failed) throw new Error(`${failed} job(s) failed`);
      const elapsed = performance.now() - t0;
      if (workers === 1) {
        const cpu1 = await cpuNow(workerPids);
        const backends = backendCpuSince(backends0, await backendCpu(pgQuery, database));
        cpuPerJob = {
          worker: (cpu1.worker - cpu0.worker) / ids.length,
          postgres: (cpu1.postgres - cpu0.postgres) / ids.length,
          backends: backends / ids.length,
          redis: (cpu1.redis - cpu0.redis) / ids.length,
          s3: (cpu1.s3 - cpu0.s3) / ids.length,
        };
      }
      return elapsed;
    };
    const one = await drain(1, [worker.pid!]);
    const second = await startProcess(WORKER, env, /processing queue/);
    children.push(second);
    const two = await drain(2, [worker.pid!, second.pid!]);
    void worker;
    worker = second;

    await queue.close();
    redisInfo.disconnect();
    const ratio1 = med(times.queue) / med(times.local);
    const ratio2 = two / one;
    console.log(
      `ppfile queue benchmark — Node ${process.version}, separate processes (gateways, workers), PostgreSQL, Redis, s3rver`,
    );
    console.log(
      `(1) 50,000 holders, in-process (gateway)       median ${med(times.local).toFixed(0)} ms  (${times.local.map((t) => t.toFixed(0)).join(', ')})`,
    );
    console.log(
      `    50,000 holders, gateway → queue → worker   median ${med(times.queue).toFixed(0)} ms  (${times.queue.map((t) => t.toFixed(0)).join(', ')})`,
    );
    console.log(`(2) 10 × 20,000 holders drained by 1 worker    ${one.toFixed(0)} ms`);
    console.log(`    10 × 20,000 holders drained by 2 workers   ${two.toFixed(0)} ms`);
    const c = cpuPerJob as Cpu | null;
    const ms = (seconds: number) => `${(seconds * 1000).toFixed(1)} ms`;
    if (c) {
      const feeds = (service: number) => (service > 0 ? (c.worker / service).toFixed(0) : '∞');
      console.log(
        `(3) CPU per 20,000-row job (accepted by the gateway, then 1 worker draining): worker ${ms(c.worker)}, PostgreSQL ${ms(c.postgres)} ` +
          `(of which the backends of ${database}: ${ms(c.backends)}), ` +
          `Redis ${ms(c.redis)}, S3 endpoint ${ms(c.s3)}`,
      );
      console.log(
        `    busy workers one core can feed: PostgreSQL ≈ ${feeds(c.postgres)} (its backends alone ≈ ${feeds(c.backends)}), Redis ≈ ${feeds(c.redis)}, ` +
          `S3 endpoint (s3rver) ≈ ${feeds(c.s3)} (ratio of the worker's CPU to the service's, per job)`,
      );
    }
    console.log(
      `targets: queue/in-process = ${ratio1.toFixed(2)} (≤ 3) ${ratio1 <= 3 ? 'met' : 'MISSED'}; ` +
        `2 workers / 1 worker = ${ratio2.toFixed(2)} (≤ 0.6) ${ratio2 <= 0.6 ? 'met' : 'MISSED'}`,
    );
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await prisma.$disconnect();
    await services.close();
  }
}

main().catch((e: Error) => {
  console.error(`bench failed: ${e.message}`);
  process.exit(1);
});
