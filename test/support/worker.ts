import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRootLogger } from '@ppfile/infra';
import { QUEUE_NAMES } from '@ppfile/jobs';
import type { WorkerConfig } from '../../apps/worker/src/config';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import type { Gateway } from './gateway';
import { staleBuilds } from './global-setup';
import { suiteLogs } from './logs';

const ROOT = path.resolve(__dirname, '../..');
export const WORKER_MAIN = path.join(ROOT, 'dist/apps/worker/apps/worker/src/main.js');

/** The worker's configuration matching a test gateway (same database, Redis and bucket). */
export function workerConfigFor(gw: Gateway, overrides: Partial<WorkerConfig> = {}): WorkerConfig {
  return {
    databaseUrl: gw.config.databaseUrl,
    redisUrl: gw.config.redisUrl,
    s3: gw.config.s3,
    referenceDataDir: null,
    databasePoolMax: 4,
    queues: QUEUE_NAMES,
    concurrency: { generate: 1, validate: 1, maintenance: 1 },
    sweepIntervalSeconds: 0,
    lockSeconds: 4,
    queuePrefix: gw.config.queue.prefix,
    payloadEncryptionKey: gw.config.payloadEncryptionKey,
    processingLeaseSeconds: gw.config.processingLeaseSeconds,
    shutdownGraceSeconds: 5,
    metricsRefreshSeconds: 15,
    reconcileIntervalSeconds: 0,
    httpPort: 0,
    uploadTimeBudgetMs: 60_000,
    logLevel: 'info',
    operator: gw.config.operator,
    ...overrides,
  };
}

/** A worker in this process (the same module as `npm run start:worker`). */
export async function startWorker(config: WorkerConfig): Promise<INestApplicationContext> {
  const logger = createRootLogger({ app: 'worker', level: config.logLevel, destination: suiteLogs });
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(config, logger), {
    logger: ['error', 'warn'],
  });
  await app.init();
  return app;
}

/** Environment variables of a worker process for this configuration. */
export function workerEnv(config: WorkerConfig): NodeJS.ProcessEnv {
  return {
    ...process.env,
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    ...(config.redisClusterNodes?.length ? { REDIS_CLUSTER_NODES: config.redisClusterNodes.join(',') } : {}),
    S3_ENDPOINT: config.s3.endpoint,
    S3_ACCESS_KEY: config.s3.accessKey,
    S3_SECRET_KEY: config.s3.secretKey,
    S3_BUCKET: config.s3.bucket,
    WORKER_QUEUES: config.queues.join(','),
    WORKER_CONCURRENCY_GENERATE: String(config.concurrency.generate),
    WORKER_CONCURRENCY_VALIDATE: String(config.concurrency.validate),
    WORKER_CONCURRENCY_MAINTENANCE: String(config.concurrency.maintenance),
    SWEEP_INTERVAL_SECONDS: String(config.sweepIntervalSeconds),
    WORKER_LOCK_SECONDS: String(config.lockSeconds),
    QUEUE_PREFIX: config.queuePrefix,
    PAYLOAD_ENCRYPTION_KEY: config.payloadEncryptionKey.toString('base64'),
    PROCESSING_LEASE_SECONDS: String(config.processingLeaseSeconds),
    SHUTDOWN_GRACE_SECONDS: String(config.shutdownGraceSeconds),
    RECONCILE_INTERVAL_SECONDS: String(config.reconcileIntervalSeconds),
    WORKER_HTTP_PORT: String(config.httpPort),
    UPLOAD_TIME_BUDGET_SECONDS: String(config.uploadTimeBudgetMs / 1000),
    LOG_LEVEL: config.logLevel,
    METRICS_REFRESH_SECONDS: String(config.metricsRefreshSeconds),
  };
}

/** A worker as a separate process, as operators run it (so that a test can SIGKILL it). */
export function spawnWorker(config: WorkerConfig): Promise<ChildProcess & { startupOutput: string }> {
  assertWorkerBuilt();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [WORKER_MAIN], {
      env: workerEnv(config),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`worker did not start: ${out}`)), 30_000);
    // Every line the worker writes, for the log audit (suite-audit.setup.ts).
    child.stdout.on('data', (d: Buffer) => suiteLogs.feed(d));
    child.stderr.on('data', (d: Buffer) => suiteLogs.feed(d));
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('processing queue')) {
        clearTimeout(timer);
        resolve(Object.assign(child, { startupOutput: out }));
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${out}`)));
  });
}

function assertWorkerBuilt(): void {
  assertBuilt('worker', WORKER_MAIN);
}

export const GATEWAY_MAIN = path.join(ROOT, 'dist/apps/gateway/apps/gateway/src/main.js');

/**
 * Checks that an app is built and current: jest's globalSetup (support/global-setup.ts) builds every
 * stale app once before the e2e files run, so no test file builds (a build deletes its dist/ folder
 * first, under the files running beside it). `main` is the file the caller runs.
 */
export function assertBuilt(app: 'gateway' | 'worker' | 'cli', main: string): void {
  if (existsSync(main) && !staleBuilds().includes(app)) return;
  throw new Error(
    `${app} is not built or older than its sources: run the e2e tests through jest, whose globalSetup builds it (test/support/global-setup.ts)`,
  );
}
