import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { JOB_NAMES, MAX_STALLED_COUNT, QUEUE_NAME, retryDelayMs } from '@ppfile/jobs';
import {
  HealthChecks,
  isDependencyDown,
  Metrics,
  redisOptions,
  ROOT_LOGGER,
  type JobOutcome,
  type RootLogger,
} from '@ppfile/infra';
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
    @Inject(Metrics) private readonly metrics: Metrics,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(ROOT_LOGGER) private readonly log: RootLogger,
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
    this.worker.on('completed', (job, result) => this.record(job, 'completed', result));
    this.worker.on('failed', (job, err) => void this.onFailed(job, err));
    // A connection error is not logged per reconnection attempt: the health checks look and log
    // once what is down, and once when it is back.
    this.worker.on('error', () => this.health.suspect());
    await this.worker.waitUntilReady();
    this.logger.log(
      `processing queue "${QUEUE_NAME}" (${JOB_NAMES.join(', ')}), concurrency ${this.config.concurrency}`,
    );
  }

  /** Before any client is closed (InfraModule, onApplicationShutdown): the current jobs finish first. */
  async beforeApplicationShutdown(): Promise<void> {
    if (!this.worker) return;
    const graceful = this.worker.close().then(
      () => true,
      () => true,
    );
    const inTime = await Promise.race([
      graceful,
      new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(false), this.config.shutdownGraceSeconds * 1000).unref(),
      ),
    ]);
    // Past the grace period the job is abandoned: its lock expires and another worker takes it over.
    if (!inTime) await this.worker.close(true).catch(() => undefined);
  }

  private dispatch(job: Job): Promise<unknown> {
    const processor = this.byName.get(job.name);
    if (!processor) throw new Error(`no processor for job "${job.name}"`);
    return processor.process(job as Job<never>);
  }

  /**
   * One job line per attempt that ends (file id, rows, duration, outcome) and its metrics. Only ids,
   * counts and the error's class are logged: a job's data or error message could quote a request.
   */
  private record(job: Job, outcome: JobOutcome, result?: unknown, err?: Error): void {
    const seconds =
      job.processedOn && job.finishedOn ? Math.max(0, job.finishedOn - job.processedOn) / 1000 : undefined;
    this.metrics.jobs.inc({ name: job.name, outcome });
    if (seconds !== undefined) this.metrics.jobDuration.observe({ name: job.name, outcome }, seconds);
    const r = (result ?? {}) as { rows?: unknown; rows_total?: unknown; expired?: unknown };
    const rows =
      typeof r.rows === 'number' ? r.rows : typeof r.rows_total === 'number' ? r.rows_total : undefined;
    const data = job.data as { fileId?: unknown };
    this.log[outcome === 'completed' ? 'info' : 'warn'](
      {
        type: 'job',
        job: job.name,
        job_id: job.id,
        file_id: typeof data.fileId === 'string' ? data.fileId : undefined,
        rows,
        expired: typeof r.expired === 'number' ? r.expired : undefined,
        attempt: job.attemptsMade,
        duration_ms: seconds === undefined ? undefined : Math.round(seconds * 1000),
        outcome,
        error: err?.name,
      },
      'job',
    );
  }

  /** A job that has failed for good (attempts spent or stalled too often) gets its processor's cleanup. */
  private async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job) return;
    if (isDependencyDown(err)) this.health.suspect();
    let final = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(err.message);
    if (!final)
      final = await job.getState().then(
        (state) => state === 'failed',
        () => false,
      );
    this.record(job, final ? 'failed' : 'retried', undefined, err);
    if (!final) return;
    try {
      await this.byName.get(job.name)?.failed?.(job as Job<never>, err);
    } catch (e) {
      this.logger.warn({ job_id: job.id, err_name: (e as Error).name }, 'cleanup of a failed job failed');
    }
  }
}
