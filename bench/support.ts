/** What the benchmarks that run the built apps as processes share: paths, services, starting a process. */
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@ppfile/storage';

const ROOT = path.resolve(__dirname, '../../..');
export const GATEWAY = path.join(ROOT, 'dist/apps/gateway/apps/gateway/src/main.js');
export const WORKER = path.join(ROOT, 'dist/apps/worker/apps/worker/src/main.js');
export const DB_URL = process.env.BENCH_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/ppfile_bench';
export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** A local S3 endpoint and the environment of a gateway or worker using it (a key of its own, a Redis prefix of its own). */
export async function benchServices(prefix: string): Promise<{ env: NodeJS.ProcessEnv; close(): Promise<void> }> {
  const s3dir = mkdtempSync(path.join(tmpdir(), `ppfile-${prefix}-s3-`));
  const s3 = await startLocalS3({ directory: s3dir });
  return {
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

/** Starts a built app and resolves once its output matches `ready`. */
export function startProcess(main: string, env: NodeJS.ProcessEnv, ready: RegExp): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${main} did not start: ${out.slice(-1000)}`)), 30_000);
    const on = (d: Buffer) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', on);
    child.stderr!.on('data', on);
    child.on('exit', (code) => reject(new Error(`${main} exited ${code}: ${out.slice(-2000)}`)));
  });
}

/** SIGTERM, then waits for the exit. */
export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
