import { randomBytes } from 'node:crypto';
import { Job, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { ClsService } from 'nestjs-cls';
import {
  generateJobId,
  generateJobOptions,
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
import type { HealthChecks } from './health';

/** The longest pause between two looks at an upload's validation job. */
const POLL_MAX_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface JobQueueDeps {
  /** The queues this process uses (InfraModule.forRoot `queues`), built once by @nestjs/bullmq. */
  queues: Partial<Record<QueueName, Queue>>;
  /** QUEUE_PREFIX: the sealed uploads' keys sit beside the queues'. */
  prefix: string;
  redis: Redis;
  health: HealthChecks;
  cls: ClsService;
  cipher: PayloadCipher;
}

/**
 * The queues of libs/jobs QUEUES this process uses, each registered by @nestjs/bullmq in InfraModule
 * where it is used: the gateway adds generations and uploads; the workers' reconciler re-adds lost
 * generations and keeps the sweep scheduled. Waiting never relies on a blocking Redis connection: a
 * waiter polls (the file record in PostgreSQL for generations, the job for uploads), so a Redis
 * restart cannot leave it hanging.
 */
export class JobQueue {
  private readonly redis: Redis;
  private readonly cls: ClsService;
  private readonly cipher: PayloadCipher;
  private readonly prefix: string;

  constructor(private readonly deps: JobQueueDeps) {
    this.redis = deps.redis;
    this.cls = deps.cls;
    this.cipher = deps.cipher;
    this.prefix = deps.prefix;
    // While Redis is away calls fail (503) and the connection comes back by itself.
    for (const queue of Object.values(deps.queues)) queue.on('error', () => deps.health.suspect());
  }

  /** A queue this process registered; any other is a wiring mistake, named. */
  queue(name: QueueName): Queue {
    const queue = this.deps.queues[name];
    if (!queue)
      throw new Error(`queue "${name}" is not registered in this process (InfraModule.forRoot queues)`);
    return queue;
  }

  /** The id of the request (or job) under way, carried by the jobs it adds. */
  private currentRequestId(): string | undefined {
    return this.cls.isActive() ? this.cls.getId() : undefined;
  }

  /** The job id is the file id: adding it twice (a retried request, the reconciler) adds one job. */
  async enqueueGenerate(fileId: string, requestId = this.currentRequestId()): Promise<void> {
    await this.queue('generate').add('generate', { fileId, requestId }, generateJobOptions(fileId));
  }

  /** `waiting`, `active`, `delayed`, `completed`, `failed`, … or `unknown` when Redis has no such job. */
  async generateJobState(fileId: string): Promise<string> {
    return this.queue('generate').getJobState(generateJobId(fileId));
  }

  /** Jobs by queue and state, for the metrics gauge (prioritized jobs wait too: BullMQ keeps them apart). */
  async counts(): Promise<
    Partial<Record<QueueName, Record<'waiting' | 'active' | 'delayed' | 'failed', number>>>
  > {
    const entries = await Promise.all(
      (Object.entries(this.deps.queues) as [QueueName, Queue][]).map(async ([name, queue]) => {
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
    return Object.fromEntries(entries);
  }

  /** Adds a generation again after its job was lost or spent its attempts (the reconciler, within the lease). */
  async requeueGenerate(fileId: string, requestId?: string): Promise<void> {
    const job = await this.queue('generate').getJob(generateJobId(fileId));
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
      await this.queue('validate').add(name, data, {
        jobId: keys.jobId,
        attempts: 2,
        ...UPLOAD_JOB_RETENTION,
      });
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
        const current = await Job.fromId(this.queue('validate'), keys.jobId);
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
    await this.queue('maintenance').upsertJobScheduler(
      'sweep',
      { every: everyMs },
      { name: 'sweep', data: {} },
    );
  }

  /** Closes gracefully, or after 3 s by force (a connection waiting to reconnect must not hold shutdown). */
  async close(): Promise<void> {
    await Promise.all(
      Object.values(this.deps.queues).map(async (queue) => {
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
