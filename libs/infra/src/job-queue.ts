import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectQueue } from '@nestjs/bullmq';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { ClsService } from 'nestjs-cls';
import {
  GENERATE_ATTEMPTS,
  generateJobId,
  LEGACY_QUEUE_NAME,
  openAnswer,
  PayloadCipher,
  sealedUploadKeys,
  sealUploadInTurns,
  DependencyUnavailableError,
  UPLOAD_JOB_RETENTION,
  UPLOAD_PAYLOAD_SECONDS,
  type QueueName,
  type SealedUploadJobData,
  type SealedUploadKeys,
  type UploadContext,
  type UploadInput,
  type UploadOutcome,
  type UploadResponses,
  type UploadTask,
  type ValidateFileInput,
} from '@ppfile/jobs';
import type { FileValidationResponse } from '@ppfile/rules';
import { HealthChecks } from './health';

/** The backoff type of ppfile's jobs: the worker computes it (retryDelayMs: exponential, capped). */
export const BACKOFF_TYPE = 'ppfile';

/** The longest pause between two looks at an upload's validation job. */
const POLL_MAX_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The queues (one per kind of work, libs/jobs QUEUES), registered once per process by
 * @nestjs/bullmq (InfraModule): the gateway adds and watches jobs, the workers' reconciler re-adds
 * lost ones and keeps the sweep scheduled. Waiting never relies on a blocking Redis connection: a
 * waiter polls (the file record in PostgreSQL for generations, the job for uploads), so a Redis
 * restart cannot leave it hanging.
 */
@Injectable()
export class JobQueue {
  readonly queues: Record<QueueName, Queue>;

  constructor(
    @InjectQueue('generate') private readonly generate: Queue,
    @InjectQueue('validate') private readonly validate: Queue,
    @InjectQueue('maintenance') private readonly maintenance: Queue,
    /** The one queue of earlier versions, drained on upgrade (drainLegacyQueue). */
    @InjectQueue(LEGACY_QUEUE_NAME) private readonly legacy: Queue,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(HealthChecks) health: HealthChecks,
    @Inject(ClsService) private readonly cls: ClsService,
    @Inject(PayloadCipher) private readonly cipher: PayloadCipher,
  ) {
    this.queues = { generate, validate, maintenance };
    // While Redis is away calls fail (503) and the connection comes back by itself.
    for (const queue of Object.values(this.queues)) queue.on('error', () => health.suspect());
    legacy.on('error', () => undefined);
  }

  /** The id of the request (or job) under way, carried by the jobs it adds. */
  private currentRequestId(): string | undefined {
    return this.cls.isActive() ? this.cls.getId() : undefined;
  }

  /** The BullMQ key prefix of these queues (QUEUE_PREFIX). */
  private get prefix(): string {
    return this.generate.opts.prefix ?? 'bull';
  }

  /** The job id is the file id: adding it twice (a retried request, the reconciler) adds one job. */
  async enqueueGenerate(fileId: string, requestId = this.currentRequestId()): Promise<void> {
    await this.generate.add(
      'generate',
      { fileId, requestId },
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
    return this.generate.getJobState(generateJobId(fileId));
  }

  /** Jobs by queue and state, for the metrics gauge (prioritized jobs wait too: BullMQ keeps them apart). */
  async counts(): Promise<Record<QueueName, Record<'waiting' | 'active' | 'delayed' | 'failed', number>>> {
    const entries = await Promise.all(
      (Object.entries(this.queues) as [QueueName, Queue][]).map(async ([name, queue]) => {
        const c = await queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'failed');
        const counts = {
          waiting: (c.waiting ?? 0) + (c.prioritized ?? 0),
          active: c.active ?? 0,
          delayed: c.delayed ?? 0,
          failed: c.failed ?? 0,
        };
        return [name, counts] as const;
      }),
    );
    return Object.fromEntries(entries) as Record<QueueName, (typeof entries)[number][1]>;
  }

  /** Adds a generation again after its job was lost or spent its attempts (the reconciler, within the lease). */
  async requeueGenerate(fileId: string, requestId?: string): Promise<void> {
    const job = await this.generate.getJob(generateJobId(fileId));
    if (job) {
      const state = await job.getState();
      if (state !== 'failed' && state !== 'completed') return;
      await job.remove();
    }
    await this.enqueueGenerate(fileId, requestId);
  }

  /**
   * A large upload: sealed in Redis under a short-lived key (memory only, never a disk), validated by
   * a worker. If the job vanishes (Redis restarted) the caller gets 503 at once: nothing is counted,
   * and the client retries.
   */
  validateFile(
    data: ValidateFileInput,
    file: Buffer,
    wait: { timeoutMs: number },
  ): Promise<FileValidationResponse> {
    return this.uploadJob('validate-file', data, file, wait) as Promise<FileValidationResponse>;
  }

  /**
   * A large spreadsheet to import or CSV to fix (API.md §14), handed to a worker as an upload to
   * validate is; resolves to the task's outcome (its answer, or the refusal as data).
   */
  runUpload<T extends UploadTask>(
    data: T & UploadContext,
    file: Buffer,
    wait: { timeoutMs: number },
  ): Promise<UploadOutcome<UploadResponses[T['kind']]>> {
    const name = data.kind === 'import' ? 'import-sheet' : 'fix-file';
    return this.uploadJob(name, data, file, wait) as Promise<UploadOutcome<UploadResponses[T['kind']]>>;
  }

  /**
   * Seals the input (the form) and the file into Redis and adds their job (libs/jobs
   * sealed-uploads.ts: what is sealed, under which keys, for how long), whose data only names the
   * keys; the caller then waits for the answer. Apart from uploadJob so that a test can leave a job
   * uncollected, as a gateway restarting mid-job does.
   */
  async submitUpload(
    name: 'validate-file' | 'import-sheet' | 'fix-file',
    input: ValidateFileInput | UploadInput,
    file: Buffer,
  ): Promise<SealedUploadKeys & { jobId: string }> {
    const keys = sealedUploadKeys(this.prefix, randomBytes(16).toString('hex'));
    const sealed = await sealUploadInTurns(this.cipher, keys.payloadKey, input, file);
    await this.redis.set(keys.payloadKey, sealed, 'EX', UPLOAD_PAYLOAD_SECONDS);
    try {
      const data: SealedUploadJobData = {
        sealed: { payloadKey: keys.payloadKey, answerKey: keys.answerKey },
        requestId: this.currentRequestId(),
      };
      await this.validate.add(name, data, { jobId: keys.jobId, attempts: 2, ...UPLOAD_JOB_RETENTION });
    } catch (e) {
      await this.redis.del(keys.payloadKey).catch(() => undefined);
      throw e;
    }
    return keys;
  }

  private async uploadJob(
    name: 'validate-file' | 'import-sheet' | 'fix-file',
    input: ValidateFileInput | UploadInput,
    file: Buffer,
    wait: { timeoutMs: number },
  ): Promise<unknown> {
    const keys = await this.submitUpload(name, input, file);
    try {
      const deadline = Date.now() + wait.timeoutMs;
      // A client waits for this answer: polled every 50 ms at most (a job's state is one small read),
      // so that the answer is not held back by the polling itself (it was up to 250 ms).
      for (let pause = 10; ; pause = Math.min(pause * 2, POLL_MAX_MS)) {
        await sleep(pause);
        const current = await Job.fromId(this.validate, keys.jobId);
        if (!current) throw new DependencyUnavailableError('queue', 'the validation job was lost');
        if (current.finishedOn && current.returnvalue) {
          const stored = await this.redis.getBuffer(keys.answerKey);
          if (!stored)
            throw new DependencyUnavailableError('queue', 'the answer of the validation job was lost');
          await current.remove().catch(() => undefined);
          return openAnswer(this.cipher, keys.answerKey, stored);
        }
        if (current.finishedOn && current.failedReason) throw new Error(`${name} failed in the worker`);
        if (Date.now() > deadline)
          throw new DependencyUnavailableError('queue', 'no worker took the validation in time');
      }
    } finally {
      await this.redis.del(keys.payloadKey, keys.answerKey).catch(() => undefined);
    }
  }

  /** The expiry sweep's schedule: upserting the same id keeps one repeatable job for every worker. */
  async scheduleSweep(everyMs: number): Promise<void> {
    await this.maintenance.upsertJobScheduler('sweep', { every: everyMs }, { name: 'sweep', data: {} });
  }

  /**
   * The one queue of earlier versions (LEGACY_QUEUE_NAME), emptied on upgrade: its pending
   * generations are added again to `generate` (same job id: never twice), its sweep scheduler removed,
   * then its keys deleted. Upload validations in it are dropped: their clients got 503 and retry.
   * Returns how many generations moved; 0 when there is no such queue.
   */
  async drainLegacyQueue(): Promise<number> {
    const legacy = this.legacy;
    // The process may have just started: its connection is awaited, not assumed.
    await legacy.waitUntilReady();
    const [counts, schedulers] = await Promise.all([legacy.getJobCounts(), legacy.getJobSchedulers()]);
    if (Object.values(counts).every((n) => !n) && schedulers.length === 0) return 0;
    await legacy.pause();
    let moved = 0;
    for (const job of await legacy.getJobs(['waiting', 'prioritized', 'delayed', 'active', 'failed'])) {
      if (job?.name !== 'generate' || typeof (job.data as { fileId?: unknown }).fileId !== 'string') continue;
      await this.enqueueGenerate((job.data as { fileId: string }).fileId);
      moved++;
    }
    for (const scheduler of schedulers) await legacy.removeJobScheduler(scheduler.key);
    await legacy.obliterate({ force: true });
    return moved;
  }

  /** Closes gracefully, or after 3 s by force (a connection waiting to reconnect must not hold shutdown). */
  async close(): Promise<void> {
    await Promise.all(
      [...Object.values(this.queues), this.legacy].map(async (queue) => {
        const late = await Promise.race([
          queue.close().then(
            () => false,
            () => false,
          ),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 3000).unref()),
        ]);
        if (late) void queue.disconnect().catch(() => undefined);
      }),
    );
  }
}
