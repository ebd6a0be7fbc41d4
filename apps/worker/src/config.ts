import * as path from 'node:path';
import { DEFAULT_QUEUE_PREFIX } from '@ppfile/jobs';

/** The worker's environment (API.md §13), validated once at boot. Nothing else reads process.env. */
export interface WorkerConfig {
  databaseUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  referenceDataDir: string | null;
  databasePoolMax: number;
  /** Jobs run at once by this process (WORKER_CONCURRENCY). */
  concurrency: number;
  /** Period of the expiry sweep, in seconds (SWEEP_INTERVAL_SECONDS; 0: no sweep from this worker). */
  sweepIntervalSeconds: number;
  /**
   * How long a job's lock lasts without renewal (WORKER_LOCK_SECONDS): a worker killed mid-job has
   * its job taken over by another after about this delay (stalled-job recovery).
   */
  lockSeconds: number;
  /** BullMQ key prefix (QUEUE_PREFIX), the same as the gateway's. */
  queuePrefix: string;
}

export class ConfigError extends Error {}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  if (!env.S3_ENDPOINT) problems.push('S3_ENDPOINT is required');
  if (env.S3_ENDPOINT && (!env.S3_ACCESS_KEY || !env.S3_SECRET_KEY)) problems.push('S3_ACCESS_KEY and S3_SECRET_KEY are required');
  const config: WorkerConfig = {
    databaseUrl: env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/ppfile',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    s3: {
      endpoint: env.S3_ENDPOINT ?? '',
      accessKey: env.S3_ACCESS_KEY ?? '',
      secretKey: env.S3_SECRET_KEY ?? '',
      bucket: env.S3_BUCKET || 'ppfile',
      region: env.S3_REGION || 'us-east-1',
    },
    referenceDataDir: env.PPFILE_REFERENCE_DATA ? path.resolve(env.PPFILE_REFERENCE_DATA) : null,
    databasePoolMax: int('DATABASE_POOL_MAX', 4, 1, 100),
    concurrency: int('WORKER_CONCURRENCY', 1, 1, 64),
    sweepIntervalSeconds: int('SWEEP_INTERVAL_SECONDS', 60, 0, 86400),
    lockSeconds: int('WORKER_LOCK_SECONDS', 60, 1, 3600),
    queuePrefix: env.QUEUE_PREFIX || DEFAULT_QUEUE_PREFIX,
  };
  if (problems.length) throw new ConfigError(`invalid environment: ${problems.join('; ')}`);
  return config;
}
