import { Module, type DynamicModule } from '@nestjs/common';
import { InfraModule, type RootLogger } from '@ppfile/infra';
import { WORKER_CONFIG, type WorkerConfig } from './config';
import { HealthServer } from './health-server';
import { GenerateProcessor } from './processors/generate.processor';
import { PROCESSORS } from './processors/processor';
import { SweepProcessor } from './processors/sweep.processor';
import { ValidateFileProcessor } from './processors/validate-file.processor';
import { QueueWorker } from './queue-worker';
import { Reconciler } from './reconciler';

const PROCESSOR_CLASSES = [GenerateProcessor, ValidateFileProcessor, SweepProcessor];

/** The worker process: the shared infrastructure (libs/infra), the processors of libs/jobs' job names and the reconciler. */
@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig, logger: RootLogger): DynamicModule {
    return {
      module: WorkerModule,
      imports: [InfraModule.forRoot({ services: config, databasePoolMax: config.databasePoolMax, logger })],
      providers: [
        { provide: WORKER_CONFIG, useValue: config },
        ...PROCESSOR_CLASSES,
        {
          provide: PROCESSORS,
          useFactory: (...processors: unknown[]) => processors,
          inject: PROCESSOR_CLASSES,
        },
        // Health first: its port answers (not ready) while the queue connects.
        HealthServer,
        QueueWorker,
        Reconciler,
      ],
    };
  }
}
