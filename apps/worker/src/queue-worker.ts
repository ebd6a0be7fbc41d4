import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { JOB_NAMES, MAX_STALLED_COUNT, QUEUE_NAME, retryDelayMs, type JobName } from '@ppfile/jobs';
import { redisOptions } from '@ppfile/infra';
import { WORKER_CONFIG, type WorkerConfig } from './config';
import { PROCESSORS, type Processor } from './processors/processor';

/**
 * Runs the BullMQ worker of the ppfile queue. Refuses to start when a job name of libs/jobs has no
 * processor. Long jobs keep their lock: the largest (50,000 rows) blocks the event loop well under
 * a second, and BullMQ renews a lock every lockDuration / 2. Retries back off exponentially, capped
 * (libs/jobs retryDelayMs); a job whose worker died is taken over up to MAX_STALLED_COUNT times.
 * On SIGTERM the worker closes first — its current jobs finish, within SHUTDOWN_GRACE_SECONDS —
 * then the shared clients (libs/infra).
 */
@Injectable()
export class QueueWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly byName = new Map<string, Processor>();
  private worker: Worker | null = null;

  constructor(
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(PROCESSORS) processors: Processor[],
  ) {
    for (const p of processors) this.byName.set(p.name, p);
    const missing = JOB_NAMES.filter((name) => !this.byName.has(name));
    if (missing.length) throw new Error(`no processor for job name(s): ${missing.join(', ')}`);
  }

  async onApplicationBootstrap(): Promise<void> {
    this.worker = new Worker(QUEUE_NAME, (job) => this.dispatch(job), {
      connection: redisOptions(this.config.redisUrl, 'worker'),
      prefix: this.config.queuePrefix,
      concurrency: this.config.concurrency,
      lockDuration: this.config.lockSeconds * 1000,
      stalledInterval: (this.config.lockSeconds * 1000) / 2,
      maxStalledCount: MAX_STALLED_COUNT,
      settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
    });
    this.worker.on('failed', (job, err) => void this.onFailed(job, err));
    let reported = 0;
    this.worker.on('error', (err) => {
      // One line per outage, not one per reconnection attempt.
      if (Date.now() - reported < 30_000) return;
      reported = Date.now();
      this.logger.warn(`queue connection error: ${(err as NodeJS.ErrnoException).code ?? err.name}`);
    });
    await this.worker.waitUntilReady();
    this.logger.log(`processing queue "${QUEUE_NAME}" (${JOB_NAMES.join(', ')}), concurrency ${this.config.concurrency}`);
  }

  /** Before any client is closed (InfraModule, onApplicationShutdown): the current jobs finish first. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    const graceful = this.worker.close().then(() => true, () => true);
    const inTime = await Promise.race([
      graceful,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), this.config.shutdownGraceSeconds * 1000).unref()),
    ]);
    // Past the grace period the job is abandoned: its lock expires and another worker takes it over.
    if (!inTime) await this.worker.close(true).catch(() => undefined);
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
      const final = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(err.message) || (await job.getState()) === 'failed';
      if (!final) return;
      await this.byName.get(job.name as JobName)?.failed?.(job as Job<never>, err);
    } catch (e) {
      this.logger.warn(`cleanup of job ${job.id} failed: ${(e as Error).name}`);
    }
  }
}
