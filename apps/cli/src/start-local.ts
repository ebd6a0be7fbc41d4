/**
 * `npm start`: ppfile on this machine with local defaults (README's first command). It applies
 * the migrations, starts a local S3 endpoint when S3_ENDPOINT is unset, makes local secrets (payload
 * key, operator password) under .ppfile/, creates a test organization and key on the first run, then
 * runs the gateway and a worker in the foreground until Ctrl-C / SIGTERM, which stops both. Each step
 * prints one line; a missing dependency or a port in use gets a one-line explanation.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import {
  createPrismaClient,
  createStores,
  DEFAULT_DATABASE_URL,
  migrate,
  type MigrateResult,
} from '@ppfile/db';
import { CURRENT_LIMITS } from '@ppfile/rules';
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from '@ppfile/storage';

const ROOT = path.resolve(__dirname, '../../../../..');
const GATEWAY = path.join(ROOT, 'dist/apps/gateway/apps/gateway/src/main.js');
const WORKER = path.join(ROOT, 'dist/apps/worker/apps/worker/src/main.js');
const LOCAL_ORG_NAME = 'Local test organization';

function fail(message: string): never {
  process.stderr.write(`ppfile: ${message}\n`);
  process.exit(1);
}

function step(message: string): void {
  process.stdout.write(`ppfile: ${message}\n`);
}

/** Whether `port` can be bound on every interface (as the gateway and the worker bind it). */
function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '0.0.0.0', () => server.close(() => resolve(true)));
  });
}

/** Polls a URL until it answers 200, or until `alive()` turns false or the time is up. */
async function answers(url: string, alive: () => boolean, timeoutMs = 60_000): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end && alive()) {
    const ok = await fetch(url).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

async function main(): Promise<void> {
  const env = { ...process.env };
  const port = Number(env.PORT || '3000');
  const workerPort = Number(env.WORKER_HTTP_PORT || '3001');
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
  env.DATABASE_URL = databaseUrl;
  env.REDIS_URL = redisUrl;
  env.WORKER_HTTP_PORT = String(workerPort);
  if (!existsSync(GATEWAY) || !existsSync(WORKER))
    fail('the gateway or the worker is not built: run `npm run build` first.');

  // Ports first: one line naming the one taken, before anything is started.
  const s3Port = Number(env.PPFILE_LOCAL_S3_PORT || 9000);
  const ports: [number, string][] = [
    [port, 'PORT'],
    [workerPort, 'WORKER_HTTP_PORT'],
  ];
  if (!env.S3_ENDPOINT) ports.push([s3Port, 'PPFILE_LOCAL_S3_PORT (the local S3 endpoint)']);
  for (const [p, name] of ports) {
    if (!(await portFree(p)))
      fail(
        `port ${p} is already in use (${name}): stop what uses it, or set ${name.split(' ')[0]} to another port.`,
      );
  }

  try {
    const applied = await migrate(databaseUrl);
    step(`PostgreSQL ${redact(databaseUrl)}: reachable, ${describeMigrations(applied)}`);
  } catch (e) {
    fail(
      `PostgreSQL is not reachable at ${redact(databaseUrl)} (${(e as Error).message.split('\n')[0]}). ` +
        'Start it (Debian: `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`) or set DATABASE_URL.',
    );
  }

  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  try {
    await redis.connect();
    await redis.ping();
    step(`Redis ${redact(redisUrl)}: reachable`);
  } catch {
    fail(
      `Redis is not reachable at ${redact(redisUrl)}. Start it (Debian: \`apt-get install redis-server\`, then ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`) or set REDIS_URL.',
    );
  } finally {
    redis.disconnect();
  }

  let s3: LocalS3 | null = null;
  if (!env.S3_ENDPOINT) {
    // s3rver (a devDependency) stands in for MinIO on this machine; objects live under .ppfile/s3.
    s3 = await startLocalS3({ directory: path.join(ROOT, '.ppfile/s3'), port: s3Port }).catch((e: Error) =>
      fail(`cannot start the local S3 endpoint (${e.message}); set S3_ENDPOINT to an S3 server instead.`),
    );
    env.S3_ENDPOINT = s3.endpoint;
    env.S3_ACCESS_KEY = LOCAL_S3_CREDENTIALS.accessKey;
    env.S3_SECRET_KEY = LOCAL_S3_CREDENTIALS.secretKey;
    step(`S3: local endpoint ${s3.endpoint} (objects under .ppfile/s3)`);
  } else {
    step(`S3: ${env.S3_ENDPOINT}`);
  }

  // Request bodies kept until their job ends are encrypted (API.md §13): a local key, made once.
  if (!env.PAYLOAD_ENCRYPTION_KEY)
    env.PAYLOAD_ENCRYPTION_KEY = localSecret(path.join(ROOT, '.ppfile/payload.key'), 32);
  // Operator pages (Bull Board, /metrics) need credentials: a local password, made once.
  let operatorNote = `user ${env.OPERATOR_USER ?? ''} (OPERATOR_USER / OPERATOR_PASSWORD)`;
  if (!env.OPERATOR_USER && !env.OPERATOR_PASSWORD) {
    env.OPERATOR_USER = 'operator';
    env.OPERATOR_PASSWORD = localSecret(path.join(ROOT, '.ppfile/operator.password'), 18);
    operatorNote = 'user operator, password in .ppfile/operator.password';
  }

  const firstRun = await firstRunOrganization(databaseUrl);
  const base = env.PUBLIC_BASE_URL || `http://localhost:${port}`;
  step('starting the gateway and a worker (Ctrl-C stops both)');
  const gateway = spawn(process.execPath, [GATEWAY], { env, stdio: 'inherit' });
  const worker = spawn(process.execPath, [WORKER], { env, stdio: 'inherit' });
  const children = [gateway, worker];
  const running = () => children.filter((c) => c.exitCode === null && c.signalCode === null);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    // A second Ctrl-C does not wait for the drain.
    const now: NodeJS.Signals = stopping ? 'SIGKILL' : 'SIGTERM';
    stopping = true;
    step(
      now === 'SIGKILL'
        ? `${signal}: stopping now`
        : `${signal}: stopping (draining requests and jobs; Ctrl-C again to stop now)…`,
    );
    running().forEach((c) => c.kill(now));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  process.on('SIGHUP', stop);
  // Whatever ends this process, no child outlives it.
  process.on('exit', () => running().forEach((c) => c.kill('SIGKILL')));

  // Either process ending ends both (SIGTERM drains them: the worker finishes its current jobs).
  let exited = 0;
  let status = 0;
  for (const child of children) {
    child.on('exit', (code) => {
      status ||= code ?? 0;
      if (++exited === 1 && !stopping) stop('SIGTERM');
      if (exited < children.length) return;
      void (s3?.close().catch(() => undefined) ?? Promise.resolve()).then(() => {
        step('stopped');
        process.exit(status);
      });
    });
  }

  const alive = () => gateway.exitCode === null && !stopping;
  if (!(await answers(`http://127.0.0.1:${port}/health/live`, alive))) return;
  await answers(
    `http://127.0.0.1:${workerPort}/health/live`,
    () => worker.exitCode === null && !stopping,
    30_000,
  );
  process.stdout.write(
    [
      '',
      `ppfile is running`,
      `  API            ${base}/v1`,
      `  docs           ${base}/docs`,
      `  health         ${base}/health/ready   worker http://localhost:${workerPort}/health/ready`,
      `  queues         ${base}/admin/queues   (${operatorNote})`,
      `  metrics        ${base}/metrics        worker http://localhost:${workerPort}/metrics`,
      `  dashboard      ${base}/dashboard`,
      firstRun
        ? `First run: organization "${LOCAL_ORG_NAME}" (${firstRun.organizationId}) created with this test key (shown once; ${CURRENT_LIMITS.maxRowsTest} rows a request):\n  ${firstRun.key}`
        : `Organizations exist already; create a key with: npx ppfile admin key create --org ORG_ID --mode test`,
      `Try: curl -sS --fail-with-body -H "Authorization: Bearer ${firstRun?.key ?? 'pp_test_…'}" ${base}/v1/spec`,
      `Dashboard access: npx ppfile admin user create --org ${firstRun?.organizationId ?? 'ORG_ID'} --email YOU@EXAMPLE.ORG`,
      '',
    ].join('\n'),
  );
}

function describeMigrations(r: MigrateResult): string {
  const applied = r.applied.length
    ? `${r.applied.length} migration(s) applied`
    : `migrations up to date (${r.alreadyApplied.length})`;
  return r.createdDatabase ? `database created, ${applied}` : applied;
}

/** A secret under .ppfile/ (readable by its owner only), created on the first run. */
function localSecret(file: string, bytes: number): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const secret = randomBytes(bytes).toString('base64');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  return secret;
}

/** On the first run (no organization at all), a free test organization and a pp_test_ key. */
async function firstRunOrganization(
  databaseUrl: string,
): Promise<{ organizationId: string; key: string } | null> {
  const prisma = createPrismaClient(databaseUrl, { poolMax: 1 });
  try {
    if ((await prisma.organization.count()) > 0) return null;
    const stores = createStores(prisma);
    const org = await stores.organizations.createOrganization({ name: LOCAL_ORG_NAME, plan: 'free' });
    const { key } = await stores.apiKeys.createApiKey({
      organizationId: org.id,
      mode: 'test',
      name: 'local',
    });
    return { organizationId: org.id, key };
  } finally {
    await prisma.$disconnect();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

void main();
