import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { ScheduleModule } from '@nestjs/schedule';
import { InfraModule, type RootLogger } from '@ppfile/infra';
import { QUEUE_NAMES } from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from './config';
import { HealthServer } from './health-server';
import { JobHandlers } from './jobs/job-handlers';
import { QueueWorkers } from './jobs/queue-workers';
import { QUEUE_WORKER_OPTIONS, queueWorkerOptions } from './jobs/worker-options';
import { GenerateProcessor } from './processors/generate.processor';
import { GenerationPool } from './processors/generation-pool';
import { SweepProcessor } from './processors/sweep.processor';
import { UploadPool } from './processors/upload-pool';
import { ValidateFileProcessor } from './processors/validate-file.processor';
import { Reconciler } from './reconciler';

/** The providers whose @OnJob methods run the jobs of libs/jobs QUEUES. */
export const JOB_PROVIDERS = [GenerateProcessor, ValidateFileProcessor, SweepProcessor];

/**
 * The worker process: the shared infrastructure (libs/infra) with the queues it processes, the job
 * handlers (@OnJob methods, found and checked at boot by JobHandlers: a job name of libs/jobs without
 * one stops the worker), one BullMQ worker per queue (QueueWorkers, options from QUEUE_WORKER_OPTIONS)
 * and the reconciler on an interval (@nestjs/schedule).
 */
@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig, logger: RootLogger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        InfraModule.forRoot({
          services: config,
          databasePoolMax: config.databasePoolMax,
          logger,
          requestIds: 'jobs',
          // Every queue, whatever WORKER_QUEUES takes: the reconciler of every pool adds to `generate`
          // and `maintenance`, and a pool processes some of them.
          queues: QUEUE_NAMES,
        }),
        DiscoveryModule,
        ScheduleModule.forRoot(),
      ],
      providers: [
        { provide: WORKER_CONFIG, useValue: config },
        { provide: QUEUE_WORKER_OPTIONS, useFactory: queueWorkerOptions, inject: [WORKER_CONFIG] },
        GenerationPool,
        UploadPool,
        ...JOB_PROVIDERS,
        JobHandlers,
        // Health first: its port answers (not ready) while the queues connect.
        HealthServer,
        QueueWorkers,
        Reconciler,
      ],
    };
  }
}
