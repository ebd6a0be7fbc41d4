import { Module, type DynamicModule, type OnApplicationShutdown, Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { createPrismaClient, createStores, type PrismaClient, type Stores } from '@ppfile/db';
import { PayloadStore, type GenerationContext } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { ObjectStorage } from '@ppfile/storage';
import type { WorkerConfig } from './config';
import { GenerateProcessor } from './processors/generate.processor';
import { PROCESSORS } from './processors/processor';
import { SweepProcessor } from './processors/sweep.processor';
import { ValidateFileProcessor } from './processors/validate-file.processor';
import { QueueWorker } from './queue-worker';
import { CONFIG, GENERATION, PRISMA, REDIS, STORAGE, STORES } from './tokens';

/** Closes the process-wide clients after the worker (a provider shut down after QueueWorker). */
@Injectable()
class Resources implements OnApplicationShutdown {
  constructor(
    @Inject(PRISMA) private readonly prisma: PrismaClient,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}
  async onApplicationShutdown(): Promise<void> {
    await Promise.allSettled([this.prisma.$disconnect(), this.redis.quit()]);
  }
}

/** The worker process: BullMQ processors over libs/jobs and libs/rules; no HTTP API. */
@Module({})
export class WorkerModule {
  static forRoot(config: WorkerConfig): DynamicModule {
    return {
      module: WorkerModule,
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl, { poolMax: config.databasePoolMax }) },
        { provide: STORES, useFactory: (prisma: PrismaClient) => createStores(prisma), inject: [PRISMA] },
        { provide: REDIS, useFactory: () => new Redis(config.redisUrl, { maxRetriesPerRequest: 3 }) },
        { provide: PayloadStore, useFactory: (redis: Redis) => new PayloadStore(redis), inject: [REDIS] },
        { provide: STORAGE, useFactory: () => new ObjectStorage(config.s3) },
        { provide: ReferenceDirectory, useFactory: () => new ReferenceDirectory(config.referenceDataDir) },
        {
          provide: GENERATION,
          useFactory: (stores: Stores, storage: ObjectStorage, refs: ReferenceDirectory): GenerationContext => ({
            stores,
            storage,
            references: (version) => refs.lists(version),
            now: () => new Date(),
          }),
          inject: [STORES, STORAGE, ReferenceDirectory],
        },
        GenerateProcessor,
        ValidateFileProcessor,
        SweepProcessor,
        {
          provide: PROCESSORS,
          useFactory: (...processors: unknown[]) => processors,
          inject: [GenerateProcessor, ValidateFileProcessor, SweepProcessor],
        },
        QueueWorker,
        Resources,
      ],
    };
  }
}
