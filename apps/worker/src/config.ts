import { Transform } from 'class-transformer';
import { IsNumber, Max, Min, ValidateBy, type ValidationArguments } from 'class-validator';
import {
  ConfigError,
  EnvInt,
  EnvText,
  EnvTogetherWith,
  servicesConfigOf,
  ServicesEnvironment,
  validateEnvironment,
  type ServicesConfig,
} from '@ppfile/config';
import { QUEUE_NAMES, type QueueName } from '@ppfile/jobs';

/** The worker's validated configuration, injected by this token (WorkerModule provides it). */
export const WORKER_CONFIG = Symbol('WorkerConfig');

/** The worker's environment (API.md §13), validated once at boot. Nothing else reads process.env. */
export interface WorkerConfig extends ServicesConfig {
  databasePoolMax: number;
  /**
   * The queues this process takes jobs from (WORKER_QUEUES, a comma list of libs/jobs QUEUES names;
   * every queue by default), in QUEUES order: one image runs as every pool (docs/operating.md,
   * "Worker pools"). Every handler is still checked at boot, and the reconciler runs whatever the list.
   */
  queues: readonly QueueName[];
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
  /**
   * How long one upload's import or fix may run in its thread (UPLOAD_TIME_BUDGET_SECONDS, 60), in
   * milliseconds: past it the thread is stopped and the request refused (UNREADABLE_FILE, too_slow).
   */
  uploadTimeBudgetMs: number;
  /** Port of /health/live and /health/ready (WORKER_HTTP_PORT, 3001; 0: any free port). */
  httpPort: number;
  /** OPERATOR_USER and OPERATOR_PASSWORD: the HTTP Basic credentials of /metrics; null (both unset) closes it. */
  operator: { user: string; password: string } | null;
}

export { ConfigError };

/** The worker's variables (API.md §13) besides the shared ones (see the gateway's config.ts). */
export class WorkerEnvironment extends ServicesEnvironment {
  @EnvInt(1, 100)
  DATABASE_POOL_MAX = 4;

  @EnvQueueList()
  WORKER_QUEUES = QUEUE_NAMES.join(',');

  @EnvInt(1, 64)
  WORKER_CONCURRENCY_GENERATE = 1;

  @EnvInt(1, 64)
  WORKER_CONCURRENCY_VALIDATE = 2;

  @EnvInt(1, 64)
  WORKER_CONCURRENCY_MAINTENANCE = 1;

  @EnvInt(0, 86400)
  SWEEP_INTERVAL_SECONDS = 60;

  @EnvInt(1, 3600)
  WORKER_LOCK_SECONDS = 60;

  @EnvInt(0, 86400)
  RECONCILE_INTERVAL_SECONDS = 30;

  @EnvInt(0, 65535)
  WORKER_HTTP_PORT = 3001;

  /** Seconds, a fraction allowed: the tests stop a thread after a few milliseconds. */
  @EnvSeconds(0.01, 3600)
  UPLOAD_TIME_BUDGET_SECONDS = 60;

  @EnvTogetherWith('OPERATOR_PASSWORD')
  OPERATOR_USER?: string;

  @EnvText()
  OPERATOR_PASSWORD?: string;
}

/**
 * A number of seconds from `min` to `max`, a fraction allowed (libs/config has integers only).
 * One message whatever fails, as libs/config's decorators give.
 */
function EnvSeconds(min: number, max: number): PropertyDecorator {
  const message = `$property must be a number of seconds from ${min} to ${max}`;
  return (target, key) => {
    Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? Number(value) : value))(
      target,
      key,
    );
    IsNumber({ allowNaN: false, allowInfinity: false }, { message })(target, key);
    Min(min, { message })(target, key);
    Max(max, { message })(target, key);
  };
}

/** WORKER_QUEUES' names, trimmed, empty entries dropped. */
function queueNamesOf(raw: string): string[] {
  return raw
    .split(',')
    .map((q) => q.trim())
    .filter(Boolean);
}

/** A comma list of one queue name of libs/jobs QUEUES at least; the message names what it cannot take. */
function EnvQueueList(): PropertyDecorator {
  const unknown = (v: unknown): string[] =>
    queueNamesOf(String(v)).filter((q) => !(QUEUE_NAMES as readonly string[]).includes(q));
  return ValidateBy({
    name: 'envQueueList',
    validator: {
      validate: (v) => typeof v === 'string' && queueNamesOf(v).length > 0 && unknown(v).length === 0,
      defaultMessage: (args?: ValidationArguments) => {
        const bad = unknown(args!.value);
        return `${args!.property} must be a comma list of queues among ${QUEUE_NAMES.join(', ')}${bad.length ? ` (not: ${bad.join(', ')})` : ' (none given)'}`;
      },
    },
  });
}

export function loadWorkerConfig(env: NodeJS.ProcessEnv = process.env): WorkerConfig {
  const e = validateEnvironment(WorkerEnvironment, env);
  return {
    ...servicesConfigOf(e),
    databasePoolMax: e.DATABASE_POOL_MAX,
    queues: QUEUE_NAMES.filter((q) => queueNamesOf(e.WORKER_QUEUES).includes(q)),
    concurrency: {
      generate: e.WORKER_CONCURRENCY_GENERATE,
      validate: e.WORKER_CONCURRENCY_VALIDATE,
      maintenance: e.WORKER_CONCURRENCY_MAINTENANCE,
    },
    sweepIntervalSeconds: e.SWEEP_INTERVAL_SECONDS,
    lockSeconds: e.WORKER_LOCK_SECONDS,
    reconcileIntervalSeconds: e.RECONCILE_INTERVAL_SECONDS,
    httpPort: e.WORKER_HTTP_PORT,
    uploadTimeBudgetMs: Math.round(e.UPLOAD_TIME_BUDGET_SECONDS * 1000),
    operator:
      e.OPERATOR_USER && e.OPERATOR_PASSWORD
        ? { user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD }
        : null,
  };
}
