import { Queue, type ConnectionOptions } from 'bullmq';
import { generateJobOptions } from './queue';

/**
 * Before issue 20 every job went through this one queue. No process registers it any more: an
 * operator empties it once with `ppfile admin queue drain-legacy` (docs/operating.md, upgrades).
 * Imported as `@ppfile/jobs/legacy-queue`, not through the index, which loads no bullmq.
 */
export const LEGACY_QUEUE_NAME = 'ppfile';

export interface LegacyDrain {
  /** Generations added again to `generate` (same job id: never twice). */
  moved: number;
  /** Other jobs left there (upload validations, sweeps), dropped: their clients got 503 and retried. */
  dropped: number;
  /** Job schedulers removed (the old sweep's). */
  schedulers: number;
}

/**
 * Empties the one queue of earlier versions (LEGACY_QUEUE_NAME) under `prefix`: its pending
 * generations are added again to `generate` with the options every generation gets, its schedulers
 * removed, then its keys deleted. Safe to run twice (the second run finds nothing) and against a Redis
 * that never had the queue.
 */
export async function drainLegacyQueue(connection: ConnectionOptions, prefix: string): Promise<LegacyDrain> {
  const legacy = new Queue(LEGACY_QUEUE_NAME, { connection, prefix });
  const generate = new Queue('generate', { connection, prefix });
  // A connection error fails the call under way, which says so; the event itself adds nothing.
  for (const queue of [legacy, generate]) queue.on('error', () => undefined);
  try {
    const [counts, schedulers] = await Promise.all([legacy.getJobCounts(), legacy.getJobSchedulers()]);
    const drain: LegacyDrain = { moved: 0, dropped: 0, schedulers: 0 };
    if (Object.values(counts).every((n) => !n) && schedulers.length === 0) return drain;
    await legacy.pause();
    for (const job of await legacy.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'failed'])) {
      if (!job) continue;
      const fileId = (job.data as { fileId?: unknown } | undefined)?.fileId;
      if (job.name !== 'generate' || typeof fileId !== 'string') {
        drain.dropped++;
        continue;
      }
      const { requestId } = job.data as { requestId?: string };
      await generate.add('generate', { fileId, requestId }, generateJobOptions(fileId));
      drain.moved++;
    }
    for (const scheduler of schedulers) {
      await legacy.removeJobScheduler(scheduler.key);
      drain.schedulers++;
    }
    await legacy.obliterate({ force: true });
    return drain;
  } finally {
    await Promise.all([legacy.close(), generate.close()]);
  }
}
