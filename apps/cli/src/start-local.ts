/**
 * `npm start`: ppfile on this machine with local defaults (README's first command). It applies
 * the migrations, starts a local S3 endpoint when S3_ENDPOINT is unset, creates a test organization
 * and key on the first run, then runs the gateway and a worker in the foreground until Ctrl-C / SIGTERM.
 * Each missing dependency gets a one-line explanation of how to get it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { createPrismaClient, createStores, DEFAULT_DATABASE_URL, migrate } from '@ppfile/db';
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from '@ppfile/storage';

const ROOT = path.resolve(__dirname, '../../../../..');
const GATEWAY = path.join(ROOT, 'dist/apps/gateway/apps/gateway/src/main.js');
const WORKER = path.join(ROOT, 'dist/apps/worker/apps/worker/src/main.js');
const LOCAL_ORG_NAME = 'Local test organization';

function fail(message: string): never {
  process.stderr.write(`ppfile: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  const env = { ...process.env };
  const port = env.PORT || '3000';
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
  env.DATABASE_URL = databaseUrl;
  env.REDIS_URL = redisUrl;
  if (!existsSync(GATEWAY) || !existsSync(WORKER)) fail('the gateway or the worker is not built: run `npm run build` first.');

  try {
    await migrate(databaseUrl);
  } catch (e) {
    fail(
      `PostgreSQL is not reachable at ${redact(databaseUrl)} (${(e as Error).message.split('\n')[0]}). ` +
        'Start it (Debian: `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`) or set DATABASE_URL.',
    );
  }

  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
  } catch {
    fail(
      `Redis is not reachable at ${redisUrl}. Start it (Debian: \`apt-get install redis-server\`, then ` +
        '`redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no`) or set REDIS_URL.',
    );
  } finally {
    redis.disconnect();
  }

  let s3: LocalS3 | null = null;
  if (!env.S3_ENDPOINT) {
    // s3rver (a devDependency) stands in for MinIO on this machine; objects live under .ppfile/s3.
    s3 = await startLocalS3({ directory: path.join(ROOT, '.ppfile/s3'), port: Number(env.PPFILE_LOCAL_S3_PORT || 9000) }).catch(
      (e: Error) => fail(`cannot start the local S3 endpoint (${e.message}); set S3_ENDPOINT to an S3 server instead.`),
    );
    env.S3_ENDPOINT = s3.endpoint;
    env.S3_ACCESS_KEY = LOCAL_S3_CREDENTIALS.accessKey;
    env.S3_SECRET_KEY = LOCAL_S3_CREDENTIALS.secretKey;
  }

  // Request bodies kept until their job ends are encrypted (API.md §13): a local key, made once.
  if (!env.PAYLOAD_ENCRYPTION_KEY) env.PAYLOAD_ENCRYPTION_KEY = localPayloadKey(path.join(ROOT, '.ppfile/payload.key'));

  const testKey = await firstRunKey(databaseUrl);
  const base = env.PUBLIC_BASE_URL || `http://localhost:${port}`;
  const gateway = spawn(process.execPath, [GATEWAY], { env, stdio: 'inherit' });
  const worker = spawn(process.execPath, [WORKER], { env, stdio: 'inherit' });
  const children = [gateway, worker];
  const stop = (signal: NodeJS.Signals) => children.forEach((c) => c.exitCode === null && c.kill(signal));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  process.stdout.write(
    [
      '',
      `ppfile — API ${base}/v1   docs ${base}/docs   (S3: ${env.S3_ENDPOINT}${s3 ? ', local' : ''})`,
      testKey
        ? `First run: organization "${LOCAL_ORG_NAME}" created with this test key (shown once):\n  ${testKey}`
        : `Organizations exist already; create a key with: npx ppfile admin key create --org ORG_ID --mode test`,
      `Try: curl -s -H "Authorization: Bearer ${testKey ?? 'pp_test_…'}" ${base}/v1/spec`,
      '',
    ].join('\n'),
  );
  // Either process ending ends both (SIGTERM drains them: the worker finishes its current jobs).
  let exited = 0;
  let status = 0;
  for (const child of children) {
    child.on('exit', async (code) => {
      status ||= code ?? 0;
      if (++exited === 1) stop('SIGTERM');
      if (exited < children.length) return;
      await s3?.close().catch(() => undefined);
      process.exit(status);
    });
  }
}

/** The key under .ppfile/ (readable by its owner only), created on the first run. */
function localPayloadKey(file: string): string {
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(32).toString('base64');
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  return key;
}

/** On the first run (no organization at all), a free test organization and a pp_test_ key. */
async function firstRunKey(databaseUrl: string): Promise<string | null> {
  const prisma = createPrismaClient(databaseUrl, { poolMax: 1 });
  try {
    if ((await prisma.organization.count()) > 0) return null;
    const stores = createStores(prisma);
    const org = await stores.organizations.createOrganization({ name: LOCAL_ORG_NAME, plan: 'free' });
    return (await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'test', name: 'local' })).key;
  } finally {
    await prisma.$disconnect();
  }
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

void main();
