import { Module, type DynamicModule, type Provider } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import type { WorkerOptions } from 'bullmq';
import { InfraModule, redisOptions, type RootLogger } from '@ppfile/infra';
import { JOB_NAMES, MAX_STALLED_COUNT, queueOf, retryDelayMs, type QueueName } from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from './config';
import { HealthServer } from './health-server';
import { GenerateProcessor } from './processors/generate.processor';
import { GenerationPool } from './processors/generation-pool';
import type { JobHost } from './processors/job-host';
import { SweepProcessor } from './processors/sweep.processor';
import { UploadPool } from './processors/upload-pool';
import { ValidateFileProcessor } from './processors/validate-file.processor';
import { Reconciler } from './reconciler';

export type ProcessorClass = (abstract new (...args: never[]) => JobHost) & {
  readonly handles: readonly string[];
};

/** Every processor of the worker: one per queue (libs/jobs QUEUES). */
export const PROCESSOR_CLASSES: ProcessorClass[] = [GenerateProcessor, ValidateFileProcessor, SweepProcessor];

/**
 * The worker process: the shared infrastructure (libs/infra, which registers the queues), a
 * @Processor per queue and the reconciler. Refuses to build when a job name of libs/jobs has no
 * processor, or one on another queue than its own.
 */
@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig, logger: RootLogger): DynamicModule {
    checkProcessors(PROCESSOR_CLASSES);
    return {
      module: WorkerModule,
      imports: [
        InfraModule.forRoot({
          services: config,
          databasePoolMax: config.databasePoolMax,
          logger,
          requestIds: 'jobs',
        }),
      ],
      providers: [
        { provide: WORKER_CONFIG, useValue: config },
        GenerationPool,
        UploadPool,
        ...PROCESSOR_CLASSES.map((cls) => configured(cls, config)),
        // Health first: its port answers (not ready) while the queues connect.
        HealthServer,
        Reconciler,
      ],
    };
  }
}

/** Every job name of libs/jobs has a processor, on the queue the job travels on (else the worker does not start). */
export function checkProcessors(classes: readonly ProcessorClass[]): void {
  const missing = JOB_NAMES.filter(
    (job) => !classes.some((p) => p.handles.includes(job) && queueOf(p.handles[0] as never) === queueOf(job)),
  );
  if (missing.length) throw new Error(`no processor for job name(s): ${missing.join(', ')}`);
  const astray = classes.filter((p) => new Set(p.handles.map((j) => queueOf(j as never))).size > 1);
  if (astray.length)
    throw new Error(`a processor takes the jobs of one queue: ${astray.map((p) => p.name).join(', ')}`);
}

/**
 * The processor class with this configuration's worker options: @Processor(queue, options) applied
 * to a subclass made here, so that the concurrency of its queue (WORKER_CONCURRENCY_<QUEUE>), the lock
 * (WORKER_LOCK_SECONDS), the backoff and the worker's Redis connection come from the validated
 * configuration — and two workers built in one process (the tests) keep their own.
 */
function configured(cls: ProcessorClass, config: WorkerConfig): Provider {
  const queue = queueOf(cls.handles[0] as never);
  const Base = cls as unknown as new (...args: never[]) => object;
  const Configured = class extends Base {};
  Object.defineProperty(Configured, 'name', { value: cls.name });
  Processor(queue, workerOptions(config, queue))(Configured);
  return { provide: cls, useClass: Configured };
}

/**
 * Long jobs keep their lock: the largest (50,000 rows) blocks the event loop well under a second,
 * and BullMQ renews a lock every lockDuration / 2. Retries back off exponentially, capped (libs/jobs
 * retryDelayMs); a job whose worker died is taken over up to MAX_STALLED_COUNT times.
 */
function workerOptions(config: WorkerConfig, queue: QueueName): Partial<WorkerOptions> {
  return {
    connection: redisOptions(config.redisUrl, 'worker'),
    prefix: config.queuePrefix,
    concurrency: config.concurrency[queue],
    lockDuration: config.lockSeconds * 1000,
    stalledInterval: (config.lockSeconds * 1000) / 2,
    maxStalledCount: MAX_STALLED_COUNT,
    settings: { backoffStrategy: (attemptsMade: number) => retryDelayMs(attemptsMade) },
  };
}
