import { Inject, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { OnWorkerEvent, WorkerHost } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { CLS_ID, ClsService } from 'nestjs-cls';
import {
  HealthChecks,
  isDependencyDown,
  Metrics,
  ROOT_LOGGER,
  type JobOutcome,
  type RootLogger,
} from '@ppfile/infra';
import type { JobName } from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from '../config';

/**
 * What every processor of ppfile shares (a @Processor class of @nestjs/bullmq, one per queue): the
 * job names it handles (the worker refuses to start when a job name has none: worker.module.ts), one
 * job line and its metrics per attempt that ends, the cleanup of a job that failed for good, and a
 * shutdown that lets the current jobs finish within SHUTDOWN_GRACE_SECONDS before the shared clients
 * close (libs/infra). Only ids, counts and the error's class are logged: a job's data or error message
 * could quote a request.
 */
export abstract class JobHost
  extends WorkerHost
  implements OnApplicationBootstrap, BeforeApplicationShutdown
{
  /** The job names of its queue this processor runs. */
  static readonly handles: readonly JobName[];
  protected readonly logger = new Logger('worker');

  @Inject(Metrics) private readonly metrics!: Metrics;
  @Inject(HealthChecks) private readonly health!: HealthChecks;
  @Inject(ROOT_LOGGER) private readonly log!: RootLogger;
  @Inject(WORKER_CONFIG) protected readonly config!: WorkerConfig;
  @Inject(ClsService) private readonly cls!: ClsService;

  /** Runs one job of a name this processor handles. */
  protected abstract handle(job: Job): Promise<unknown>;

  /** Called once a job has failed for good (attempts spent, or stalled too often), with its last error. */
  protected failedForGood?(job: Job, error: Error): Promise<void>;

  /** Runs in the context of the request that added the job: every line it writes carries its id. */
  async process(job: Job): Promise<unknown> {
    const handles = (this.constructor as unknown as typeof JobHost).handles;
    if (!handles.includes(job.name as JobName)) throw new Error(`no processor for job "${job.name}"`);
    return this.cls.run(() => {
      this.cls.set(CLS_ID, requestIdOf(job));
      return this.handle(job);
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.worker.waitUntilReady();
    this.logger.log(
      `processing queue "${this.worker.name}" (${(this.constructor as unknown as typeof JobHost).handles.join(', ')}), concurrency ${this.worker.concurrency}`,
    );
  }

  /** Before any client is closed (InfraModule, onApplicationShutdown): the current jobs finish first. */
  async beforeApplicationShutdown(): Promise<void> {
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

  @OnWorkerEvent('completed')
  onCompleted(job: Job, result: unknown): void {
    this.record(job, 'completed', result);
  }

  /** A job that has failed for good (attempts spent or stalled too often) gets its processor's cleanup. */
  @OnWorkerEvent('failed')
  async onFailed(job: Job | undefined, err: Error): Promise<void> {
    if (!job) return;
    if (isDependencyDown(err)) this.health.suspect();
    let final = job.attemptsMade >= (job.opts.attempts ?? 1) || /stalled/i.test(err.message);
    if (!final)
      final = await job.getState().then(
        (state) => state === 'failed',
        () => false,
      );
    this.record(job, final ? 'failed' : 'retried', undefined, err);
    if (!final || !this.failedForGood) return;
    try {
      await this.failedForGood(job, err);
    } catch (e) {
      this.logger.warn({ job_id: job.id, err_name: (e as Error).name }, 'cleanup of a failed job failed');
    }
  }

  /**
   * A connection error is not logged per reconnection attempt: the health checks look and log once
   * what is down, and once when it is back.
   */
  @OnWorkerEvent('error')
  onError(): void {
    this.health.suspect();
  }

  /** One job line per attempt that ends (file id, rows, duration, outcome) and its metrics. */
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
        request_id: requestIdOf(job),
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
}

/** The id of the request that added a job (none for the scheduled maintenance jobs). */
function requestIdOf(job: Job): string | undefined {
  const id = (job.data as { requestId?: unknown } | undefined)?.requestId;
  return typeof id === 'string' && id !== '' ? id : undefined;
}
