import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Redis } from 'ioredis';
import { createPrismaClient, createStores, type PlanName, type PrismaClient, type Stores } from '@ppfile/db';
import { LOCAL_S3_CREDENTIALS, ObjectStorage, startLocalS3, type LocalS3 } from '@ppfile/storage';
import { createGatewayApp } from '../../apps/gateway/src/app.factory';
import { recordExchanges } from './contract';
import { suiteLogs } from './logs';
import type { GatewayConfig } from '../../apps/gateway/src/config';
import { Clock } from '@ppfile/infra';
import { createTestDatabase, type TestDatabase } from './database';

export const REDIS_URL = process.env.PPFILE_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** One encryption key per test run (the payloads of accepted generations). */
export const TEST_PAYLOAD_KEY = randomBytes(32);

/** A clock the tests move by hand (retention, month boundaries). */
export class TestClock extends Clock {
  private offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
  advance(ms: number): void {
    this.offsetMs += ms;
  }
}

export interface Gateway {
  app: INestApplication;
  http: ReturnType<INestApplication['getHttpServer']>;
  config: GatewayConfig;
  clock: TestClock;
  stores: Stores;
  prisma: PrismaClient;
  storage: ObjectStorage;
  s3: LocalS3;
  db: TestDatabase;
  redis: Redis;
  close(): Promise<void>;
  /** An organization with one key of each mode; keys are returned in clear once, as the admin command does. */
  organization(
    plan: PlanName,
    name?: string,
  ): Promise<{ id: string; live: string; test: string; liveId: string; testId: string }>;
}

/**
 * The gateway against real services: the machine's PostgreSQL (a fresh database), Redis, and an
 * S3 endpoint on loopback (s3rver) reached through the production client. No mocks.
 */
export async function startGateway(
  overrides: Partial<Omit<GatewayConfig, 'queue'>> & { queue?: Partial<GatewayConfig['queue']> } = {},
): Promise<Gateway> {
  const db = await createTestDatabase();
  const s3dir = mkdtempSync(path.join(tmpdir(), 'ppfile-e2e-s3-'));
  const s3 = await startLocalS3({ directory: s3dir });
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  // Per-address counters of earlier runs must not leak into this one (the window is one minute).
  const stale = await redis.keys('ppfile:rl:{ip:*');
  if (stale.length) await redis.del(...stale);
  const config: GatewayConfig = {
    port: 0,
    publicBaseUrl: 'http://ppfile.test',
    databaseUrl: db.url,
    redisUrl: REDIS_URL,
    s3: { endpoint: s3.endpoint, ...LOCAL_S3_CREDENTIALS, bucket: 'ppfile-e2e', region: 'us-east-1' },
    operator: { user: 'operator', password: 'operator-secret' },
    bullBoardWritable: false,
    referenceDataDir: null,
    databasePoolMax: 10,
    rateLimitScale: 1,
    authCacheSeconds: 0,
    testRowsPerMonth: 1000,
    maxInflightBytes: 128 * 1024 * 1024,
    body: { timeoutSeconds: 120, minBytesPerSecond: 16 * 1024, graceSeconds: 10 },
    payloadEncryptionKey: TEST_PAYLOAD_KEY,
    processingLeaseSeconds: 600,
    shutdownGraceSeconds: 5,
    metricsRefreshSeconds: 15,
    trustProxy: false,
    logLevel: 'info',
    ...overrides,
    queue: {
      generateThresholdRows: 2000,
      validateThresholdBytes: 2 * 1024 * 1024,
      waitSeconds: 60,
      // A prefix of its own: a test run never meets another run's (or a local instance's) jobs.
      prefix: `test-${db.name}`,
      ...overrides.queue,
    },
  };
  const clock = new TestClock();
  const app = await createGatewayApp(config, { clock, logDestination: suiteLogs });
  await app.init();
  // Every answer is checked against openapi.json after the test file (suite-audit.setup.ts).
  recordExchanges(app.getHttpServer());
  const prisma = createPrismaClient(db.url, { poolMax: 4 });
  const stores = createStores(prisma, () => clock.now());
  const storage = new ObjectStorage(config.s3);
  return {
    app,
    http: app.getHttpServer(),
    config,
    clock,
    stores,
    prisma,
    storage,
    s3,
    db,
    redis,
    async close() {
      await app.close();
      await prisma.$disconnect();
      await s3.close().catch(() => undefined);
      rmSync(s3dir, { recursive: true, force: true });
      await db.drop();
      await removeKeys(redis, `${config.queue.prefix}:*`);
      await redis.quit();
    },
    async organization(plan, name = `org ${plan}`) {
      const org = await stores.organizations.createOrganization({ name, plan });
      const live = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
      const test = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'test' });
      return { id: org.id, live: live.key, test: test.key, liveId: live.id, testId: test.id };
    },
  };
}

/** Everything the process writes to stdout/stderr while `fn` runs: to prove no NIR is ever logged. */
export function captureOutput(): { text(): string; stop(): void } {
  const chunks: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const grab =
    (write: typeof out) =>
    (chunk: string | Uint8Array, ...rest: unknown[]): boolean => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    };
  process.stdout.write = grab(out);
  process.stderr.write = grab(err);
  return {
    text: () => chunks.join(''),
    stop: () => {
      process.stdout.write = out;
      process.stderr.write = err;
    },
  };
}

/** Deletes the keys a test run left (its own queue prefix), without touching anyone else's. */
async function removeKeys(redis: Redis, pattern: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
}
