import { ConfigError, EnvReader } from '@ppfile/config';

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

export { ConfigError };

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const read = new EnvReader(env);
  const config: WorkerConfig = {
    ...read.services(),
    databasePoolMax: read.int('DATABASE_POOL_MAX', 4, 1, 100),
    concurrency: read.int('WORKER_CONCURRENCY', 1, 1, 64),
    sweepIntervalSeconds: read.int('SWEEP_INTERVAL_SECONDS', 60, 0, 86400),
    lockSeconds: read.int('WORKER_LOCK_SECONDS', 60, 1, 3600),
  };
  read.done();
  return config;
}
