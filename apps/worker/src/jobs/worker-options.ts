import type { WorkerOptions } from 'bullmq';
import { bullConnection, queueKeyPrefix } from '@ppfile/infra';
import { MAX_STALLED_COUNT, QUEUE_NAMES, retryDelayMs, type QueueName } from '@ppfile/jobs';
import type { WorkerConfig } from '../config';

/** The BullMQ options of each queue's worker, from the validated configuration (one provider). */
export const QUEUE_WORKER_OPTIONS = Symbol('QueueWorkerOptions');
export type QueueWorkerOptions = Readonly<Record<QueueName, WorkerOptions>>;

/**
 * Each queue's concurrency (WORKER_CONCURRENCY_<QUEUE>), the worker's own Redis connection (BullMQ's
 * blocking reads), QUEUE_PREFIX and the lock. Long jobs keep their lock: the largest (50,000 rows)
 * blocks the event loop well under a second, and BullMQ renews a lock every lockDuration / 2.
 * Retries back off exponentially, capped (libs/jobs retryDelayMs); a job whose worker died is taken
 * over up to MAX_STALLED_COUNT times.
 */
export function queueWorkerOptions(config: WorkerConfig): QueueWorkerOptions {
  // On a Redis Cluster one client for the process's workers (each duplicates it for its blocking
  // reads), which QueueWorkers closes after them; on one Redis, options (each worker its clients).
  const connection = bullConnection(config, 'worker');
  const of = (queue: QueueName): WorkerOptions => ({
    connection,
    prefix: queueKeyPrefix(config),
    concurrency: config.concurrency[queue],
    lockDuration: config.lockSeconds * 1000,
    stalledInterval: (config.lockSeconds * 1000) / 2,
    maxStalledCount: MAX_STALLED_COUNT,
    settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
  });
  return Object.fromEntries(QUEUE_NAMES.map((q) => [q, of(q)])) as Record<QueueName, WorkerOptions>;
}
