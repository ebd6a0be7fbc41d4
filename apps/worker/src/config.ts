import { ConfigError, EnvReader, type ServicesConfig } from '@ppfile/config';
import type { QueueName } from '@ppfile/jobs';

/** The worker's validated configuration, injected by this token (WorkerModule provides it). */
export const WORKER_CONFIG = Symbol('WorkerConfig');

/** The worker's environment (API.md §13), validated once at boot. Nothing else reads process.env. */
export interface WorkerConfig extends ServicesConfig {
  databasePoolMax: number;
  /**
   * Jobs of each queue this process runs at once (WORKER_CONCURRENCY_GENERATE 1,
   * WORKER_CONCURRENCY_VALIDATE 2, WORKER_CONCURRENCY_MAINTENANCE 1): each queue has its own worker,
   * so an upload validation starts while a generation runs.
   */
  concurrency: Record<QueueName, number>;
  /** Period of the expiry sweep, in seconds (SWEEP_INTERVAL_SECONDS; 0: no sweep from this worker). */
  sweepIntervalSeconds: number;
  /**
   * How long a job's lock lasts without renewal (WORKER_LOCK_SECONDS): a worker killed mid-job has
   * its job taken over by another after about this delay (stalled-job recovery).
   */
  lockSeconds: number;
  /** How often lost jobs, stale files, reservations and claims are looked for (RECONCILE_INTERVAL_SECONDS; 0: never). */
  reconcileIntervalSeconds: number;
  /** Port of /health/live and /health/ready (WORKER_HTTP_PORT, 3001; 0: any free port). */
  httpPort: number;
  /** OPERATOR_USER and OPERATOR_PASSWORD: the HTTP Basic credentials of /metrics; null (both unset) closes it. */
  operator: { user: string; password: string } | null;
}

export { ConfigError };

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const read = new EnvReader(env);
  const credentials = read.pair('OPERATOR_USER', 'OPERATOR_PASSWORD');
  const config: WorkerConfig = {
    ...read.services(),
    databasePoolMax: read.int('DATABASE_POOL_MAX', 4, 1, 100),
    concurrency: {
      generate: read.int('WORKER_CONCURRENCY_GENERATE', 1, 1, 64),
      validate: read.int('WORKER_CONCURRENCY_VALIDATE', 2, 1, 64),
      maintenance: read.int('WORKER_CONCURRENCY_MAINTENANCE', 1, 1, 64),
    },
    sweepIntervalSeconds: read.int('SWEEP_INTERVAL_SECONDS', 60, 0, 86400),
    lockSeconds: read.int('WORKER_LOCK_SECONDS', 60, 1, 3600),
    reconcileIntervalSeconds: read.int('RECONCILE_INTERVAL_SECONDS', 30, 0, 86400),
    httpPort: read.int('WORKER_HTTP_PORT', 3001, 0, 65535),
    operator: credentials ? { user: credentials[0], password: credentials[1] } : null,
  };
  read.done();
  return config;
}
