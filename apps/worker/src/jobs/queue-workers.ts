import {
  Inject,
  Injectable,
  Logger,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
} from '@nestjs/common';
import { Worker, type Job } from 'bullmq';
import { CLS_ID, ClsService } from 'nestjs-cls';
import {
  closeConnection,
  HealthChecks,
  Metrics,
  ROOT_LOGGER,
  type JobOutcome,
  type RootLogger,
} from '@ppfile/infra';
import { isDependencyDown, QUEUES, type QueueName } from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from '../config';
import { JobHandlers } from './job-handlers';
import { QUEUE_WORKER_OPTIONS, type QueueWorkerOptions } from './worker-options';

/**
 * One BullMQ worker per queue this process takes (WORKER_QUEUES, every queue of libs/jobs QUEUES by
 * default; a pool of k8s/ takes some only), built here with its options (QUEUE_WORKER_OPTIONS)
 * rather than by @nestjs/bullmq's @Processor, whose options are fixed on a class by its decorator
 * (immich builds its workers the same way). Each runs a job through the handler discovery found for
 * its name (JobHandlers), in the context of the request that added it; writes one job line and its
 * metrics per attempt that ends; runs the cleanup of a job that failed for good; tells the health
 * checks of connection errors; and at shutdown lets the current jobs finish within
 * SHUTDOWN_GRACE_SECONDS before the shared clients close (libs/infra). Only ids, counts and the
 * error's class are logged: a job's data or error message could quote a request.
 */
@Injectable()
export class QueueWorkers implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('worker');
  private readonly workers = new Map<QueueName, Worker>();

  constructor(
    @Inject(JobHandlers) private readonly handlers: JobHandlers,
    @Inject(QUEUE_WORKER_OPTIONS) private readonly options: QueueWorkerOptions,
    @Inject(Metrics) private readonly metrics: Metrics,
    @Inject(HealthChecks) private readonly health: HealthChecks,
    @Inject(ROOT_LOGGER) private readonly log: RootLogger,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
    @Inject(ClsService) private readonly cls: ClsService,
  ) {}

  /** The BullMQ worker of a queue (once the application has started; only a queue of WORKER_QUEUES has one). */
  worker(queue: QueueName): Worker {
    const worker = this.workers.get(queue);
    if (!worker) throw new Error(`no worker for queue "${queue}" in this process`);
    return worker;
  }

  /** After every module's init, so that the job handlers have been found and checked (JobHandlers). */
  async onApplicationBootstrap(): Promise<void> {
    for (const queue of this.config.queues) {
      const worker = new Worker(queue, (job: Job) => this.run(queue, job), this.options[queue]);
      worker.on('completed', (job, result) => this.record(job, 'completed', result));
      worker.on('failed', (job, err) => void this.onFailed(job, err));
      // A connection error is not logged per reconnection attempt: the health checks look and log
      // once what is down, and once when it is back.
      worker.on('error', () => this.health.suspect());
      this.workers.set(queue, worker);
    }
    await Promise.all(
      [...this.workers].map(async ([queue, worker]) => {
        await worker.waitUntilReady();
        this.logger.log(
          `processing queue "${queue}" (${QUEUES[queue].join(', ')}), concurrency ${worker.concurrency}`,
        );
      }),
    );
  }

  /** Before any client is closed (InfraModule, onApplicationShutdown): the current jobs finish first. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => this.close(worker)));
    // A Redis Cluster client given to the workers (worker-options.ts) is not BullMQ's to close.
    await Promise.all(
      [...new Set(Object.values(this.options).map((o) => o.connection))].map((c) => closeConnection(c)),
    );
  }

  private async close(worker: Worker): Promise<void> {
    const graceful = worker.close().then(
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
    if (!inTime) await worker.close(true).catch(() => undefined);
  }

  /** Runs in the context of the request that added the job: every line it writes carries its id. */
  private run(queue: QueueName, job: Job): Promise<unknown> {
    const handler = this.handlers.handlerOf(queue, job.name);
    return this.cls.run(() => {
      this.cls.set(CLS_ID, requestIdOf(job));
      return handler.run(job);
    });
  }

  /** A job that has failed for good (attempts spent or stalled too often) gets its handler's cleanup. */
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
      const queue = job.queueName as QueueName;
      await this.handlers.handlerOf(queue, job.name).failedForGood?.(job, err);
    } catch (e) {
      this.logger.warn({ job_id: job.id, err_name: (e as Error).name }, 'cleanup of a failed job failed');
    }
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
