import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Queue, Worker, type Job } from 'bullmq';
import { bullConnection, JOB_NAMES, QUEUE_NAME, type JobName } from '@ppfile/jobs';
import type { WorkerConfig } from './config';
import { PROCESSORS, type Processor } from './processors/processor';
import { CONFIG } from './tokens';

/**
 * Runs the BullMQ worker of the ppfile queue. Refuses to start when a job name of libs/jobs has no
 * processor. Long jobs keep their lock: the largest (50,000 rows) blocks the event loop well under
 * a second, and BullMQ renews a lock every lockDuration / 2. On SIGTERM the worker closes first
 * (finishing its current jobs), then the queue.
 */
@Injectable()
export class QueueWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly byName = new Map<string, Processor>();
  private worker: Worker | null = null;
  private queue: Queue | null = null;

  constructor(
    @Inject(CONFIG) private readonly config: WorkerConfig,
    @Inject(PROCESSORS) processors: Processor[],
  ) {
    for (const p of processors) this.byName.set(p.name, p);
    const missing = JOB_NAMES.filter((name) => !this.byName.has(name));
    if (missing.length) throw new Error(`no processor for job name(s): ${missing.join(', ')}`);
  }

  async onApplicationBootstrap(): Promise<void> {
    const connection = bullConnection(this.config.redisUrl);
    const prefix = this.config.queuePrefix;
    this.queue = new Queue(QUEUE_NAME, { connection, prefix });
    if (this.config.sweepIntervalSeconds > 0) {
      // One scheduler for every worker: upserting the same id keeps a single repeatable job.
      await this.queue.upsertJobScheduler('sweep', { every: this.config.sweepIntervalSeconds * 1000 }, { name: 'sweep', data: {} });
    }
    this.worker = new Worker(QUEUE_NAME, (job) => this.dispatch(job), {
      connection,
      prefix,
      concurrency: this.config.concurrency,
      lockDuration: this.config.lockSeconds * 1000,
      stalledInterval: (this.config.lockSeconds * 1000) / 2,
      maxStalledCount: 1,
    });
    this.worker.on('failed', (job, err) => void this.onFailed(job, err));
    this.worker.on('error', (err) => this.logger.warn(`worker error: ${err.name}`));
    await this.worker.waitUntilReady();
    this.logger.log(`processing queue "${QUEUE_NAME}" (${JOB_NAMES.join(', ')}), concurrency ${this.config.concurrency}`);
  }

  /** Before any client is closed (Resources, onApplicationShutdown): the current jobs finish first. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.worker?.close();
    await this.queue?.close();
  }

  private dispatch(job: Job): Promise<unknown> {
    const processor = this.byName.get(job.name as JobName);
    if (!processor) throw new Error(`no processor for job "${job.name}"`);
    return processor.process(job as Job<never>);
  }

  /** A job that has failed for good (attempts spent or stalled too often) gets its processor's cleanup. */
  private async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job) return;
    // Only the job's class and name are logged: its error message could quote a request.
    this.logger.warn(`job ${job.name} ${job.id} attempt ${job.attemptsMade} failed: ${err.name}`);
    try {
      // Final when the attempts are spent or the job stalled too often (the state may lag the event).
      const final = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(err.message) || (await job.getState()) === 'failed';
      if (!final) return;
      await this.byName.get(job.name as JobName)?.failed?.(job as Job<never>);
    } catch (e) {
      this.logger.warn(`cleanup of job ${job.id} failed: ${(e as Error).name}`);
    }
  }
}
