import { randomBytes } from 'node:crypto';
import { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { GENERATE_ATTEMPTS, generateJobId, QUEUE_NAME, type ValidateFileJobData } from '@ppfile/jobs';
import type { FileValidationResponse } from '@ppfile/rules';
import { DependencyUnavailableError } from './dependency-errors';
import { redisOptions } from './redis';

/** The backoff type of ppfile's jobs: the worker computes it (retryDelayMs: exponential, capped). */
export const BACKOFF_TYPE = 'ppfile';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The queue, built once per process: the gateway adds and watches jobs, the workers' reconciler
 * re-adds lost ones and keeps the sweep scheduled. Waiting never relies on a blocking Redis
 * connection: a waiter polls (the file record in PostgreSQL for generations, the job for uploads),
 * so a Redis restart cannot leave it hanging.
 */
export class JobQueue {
  readonly queue: Queue;

  constructor(
    private readonly options: {
      redisUrl: string;
      prefix: string;
      redis: Redis;
      onError?: (e: Error) => void;
    },
  ) {
    this.queue = new Queue(QUEUE_NAME, {
      connection: redisOptions(options.redisUrl, 'queue'),
      prefix: options.prefix,
    });
    // While Redis is away calls fail (503) and the connection comes back by itself.
    this.queue.on('error', (e) => options.onError?.(e));
  }

  /** The job id is the file id: adding it twice (a retried request, the reconciler) adds one job. */
  async enqueueGenerate(fileId: string): Promise<void> {
    await this.queue.add(
      'generate',
      { fileId },
      {
        jobId: generateJobId(fileId),
        attempts: GENERATE_ATTEMPTS,
        backoff: { type: BACKOFF_TYPE },
        removeOnComplete: { age: 3600 },
        removeOnFail: { age: 24 * 3600 },
      },
    );
  }

  /** `waiting`, `active`, `delayed`, `completed`, `failed`, … or `unknown` when Redis has no such job. */
  async generateJobState(fileId: string): Promise<string> {
    return this.queue.getJobState(generateJobId(fileId));
  }

  /** Jobs by state, for the metrics gauge (prioritized jobs wait too: BullMQ keeps them apart). */
  async counts(): Promise<Record<'waiting' | 'active' | 'delayed' | 'failed', number>> {
    const c = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
    return {
      waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
      active: c.active ?? 0,
      delayed: c.delayed ?? 0,
      failed: c.failed ?? 0,
    };
  }

  /** Adds a generation again after its job was lost or spent its attempts (the reconciler, within the lease). */
  async requeueGenerate(fileId: string): Promise<void> {
    const job = await this.queue.getJob(generateJobId(fileId));
    if (job) {
      const state = await job.getState();
      if (state !== 'failed' && state !== 'completed') return;
      await job.remove();
    }
    await this.enqueueGenerate(fileId);
  }

  /**
   * A large upload: in Redis under a short-lived key (memory only, never a disk), validated by a
   * worker. If the job vanishes (Redis restarted) the caller gets 503 at once: nothing is counted,
   * and the client retries.
   */
  async validateFile(
    data: Omit<ValidateFileJobData, 'payloadKey'>,
    file: Buffer,
    wait: { timeoutMs: number },
  ): Promise<FileValidationResponse> {
    const id = randomBytes(16).toString('hex');
    const payloadKey = `${this.options.prefix}:payload:validate:${id}`;
    await this.options.redis.set(payloadKey, file, 'EX', 3600);
    try {
      const job = await this.queue.add(
        'validate-file',
        { ...data, payloadKey },
        { jobId: `validate-${id}`, attempts: 2, removeOnFail: { age: 3600 } },
      );
      const deadline = Date.now() + wait.timeoutMs;
      for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
        await sleep(pause);
        const current = await Job.fromId(this.queue, job.id!);
        if (!current) throw new DependencyUnavailableError('queue', 'the validation job was lost');
        if (current.finishedOn && current.returnvalue) {
          await current.remove().catch(() => undefined);
          return current.returnvalue as FileValidationResponse;
        }
        if (current.finishedOn && current.failedReason)
          throw new Error('file validation failed in the worker');
        if (Date.now() > deadline)
          throw new DependencyUnavailableError('queue', 'no worker took the validation in time');
      }
    } finally {
      await this.options.redis.del(payloadKey).catch(() => undefined);
    }
  }

  /** The expiry sweep's schedule: upserting the same id keeps one repeatable job for every worker. */
  async scheduleSweep(everyMs: number): Promise<void> {
    await this.queue.upsertJobScheduler('sweep', { every: everyMs }, { name: 'sweep', data: {} });
  }

  /** Closes gracefully, or after 3 s by force (a connection waiting to reconnect must not hold shutdown). */
  async close(): Promise<void> {
    const late = await Promise.race([
      this.queue.close().then(
        () => false,
        () => false,
      ),
      new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3000).unref()),
    ]);
    if (late) void this.queue.disconnect().catch(() => undefined);
  }
}
