import { Module, RequestMethod, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import type { Redis } from 'ioredis';
import { createPrismaClient, createStores, type PrismaClient } from '@ppfile/db';
import { PayloadStore } from '@ppfile/jobs';
import { ObjectStorage } from '@ppfile/storage';
import { ApiKeyMiddleware } from './auth/api-key.middleware';
import { ApiExceptionFilter } from './common/api-exception.filter';
import { jsonBodyMiddleware } from './common/json-body.middleware';
import { requestIdMiddleware } from './common/request-id.middleware';
import type { GatewayConfig } from './config';
import { DeclarationsController } from './declarations/declarations.controller';
import { FilesController } from './files/files.controller';
import { FilesService } from './files/files.service';
import { multipartOnly } from './files/multipart-type.middleware';
import { HealthController } from './health/health.controller';
import { Clock, SystemClock } from './infra/clock';
import { JobQueue } from './infra/job-queue';
import { createRedis } from './infra/redis';
import { ReferenceDirectory } from '@ppfile/refdata';
import { Resources } from './infra/resources';
import { CONFIG, PRISMA, REDIS, STORAGE, STORES } from './infra/tokens';
import { Quota } from './limits/quota';
import { RateLimiter } from './limits/rate-limiter';
import { SpecController } from './spec/spec.controller';

export interface GatewayOverrides {
  clock?: Clock;
}

/** The HTTP API (SERVICE.md §4): thin over libs/rules, libs/db and libs/storage. */
@Module({})
export class AppModule implements NestModule {
  static forRoot(config: GatewayConfig, overrides: GatewayOverrides = {}): DynamicModule {
    const clock = overrides.clock ?? new SystemClock();
    return {
      module: AppModule,
      controllers: [HealthController, SpecController, DeclarationsController, FilesController],
      providers: [
        { provide: CONFIG, useValue: config },
        { provide: Clock, useValue: clock },
        { provide: PRISMA, useFactory: () => createPrismaClient(config.databaseUrl, { poolMax: config.databasePoolMax }) },
        { provide: STORES, useFactory: (prisma: PrismaClient) => createStores(prisma, () => clock.now()), inject: [PRISMA] },
        { provide: REDIS, useFactory: () => createRedis(config.redisUrl) },
        { provide: RateLimiter, useFactory: (redis: Redis) => new RateLimiter(redis, () => clock.now().getTime()), inject: [REDIS] },
        { provide: STORAGE, useFactory: () => new ObjectStorage(config.s3) },
        { provide: ReferenceDirectory, useFactory: () => new ReferenceDirectory(config.referenceDataDir) },
        { provide: JobQueue, useFactory: (redis: Redis) => new JobQueue(config.redisUrl, config.queue.prefix, new PayloadStore(redis)), inject: [REDIS] },
        { provide: APP_FILTER, useClass: ApiExceptionFilter },
        Quota,
        FilesService,
        Resources,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(requestIdMiddleware).forRoutes({ path: '*path', method: RequestMethod.ALL });
    consumer.apply(ApiKeyMiddleware).forRoutes({ path: 'v1/*path', method: RequestMethod.ALL });
    consumer
      .apply(jsonBodyMiddleware)
      .forRoutes(
        { path: 'v1/declarations/validate', method: RequestMethod.POST },
        { path: 'v1/files/generate', method: RequestMethod.POST },
      );
    consumer.apply(multipartOnly).forRoutes({ path: 'v1/files/validate', method: RequestMethod.POST });
  }
}
