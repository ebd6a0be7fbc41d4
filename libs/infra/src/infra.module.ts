import { Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import { Redis } from 'ioredis';
import type { ServicesConfig } from '@ppfile/config';
import {
  ApiKeyStore,
  createPrismaClient,
  createStores,
  FileStore,
  IdempotencyStore,
  JobPayloadStore,
  LifecycleStore,
  OrganizationStore,
  PrismaClient,
  UnitLedger,
  UsageStore,
  type Stores,
} from '@ppfile/db';
import { FileLifecycle, PayloadCipher } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { ObjectStorage } from '@ppfile/storage';
import { Clock, SystemClock } from './clock';
import { HealthChecks } from './health';
import { JobQueue } from './job-queue';
import { createRedis } from './redis';

/** Every store over the process's one Prisma client (libs/db createStores). */
export const STORES = Symbol('Stores');
export const INFRA_OPTIONS = Symbol('InfraOptions');

export interface InfraOptions {
  services: ServicesConfig;
  /** Connections of this process's one pool (the gateway serves requests, a worker runs few jobs). */
  databasePoolMax: number;
  /** Tests move time by hand; production uses the system clock. */
  clock?: Clock;
}

/** One line when a dependency starts failing, not one per reconnection attempt (ioredis retries every 2 s). */
class OutageLog {
  private readonly logger = new Logger('dependencies');
  private last = 0;
  report(what: string, e: Error): void {
    const now = Date.now();
    if (now - this.last < 30_000) return;
    this.last = now;
    this.logger.warn(`${what} unreachable (${(e as NodeJS.ErrnoException).code ?? e.name}); retrying`);
  }
}

/** Closes the process-wide clients last, after the app's own shutdown hooks (the worker closes first). */
@Injectable()
class InfraShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(Redis) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await Promise.allSettled([this.prisma.$disconnect(), this.redis.quit()]);
  }
}

const STORE_CLASSES = {
  organizations: OrganizationStore,
  apiKeys: ApiKeyStore,
  usage: UsageStore,
  files: FileStore,
  idempotency: IdempotencyStore,
  ledger: UnitLedger,
  payloads: JobPayloadStore,
  lifecycle: LifecycleStore,
} as const satisfies { [K in keyof Stores]: abstract new (...args: never[]) => Stores[K] };

/**
 * The shared infrastructure of both process roles (the model of immich's server): PostgreSQL through
 * one Prisma client and its stores, Redis, the object store, the reference lists, the queue and the
 * file lifecycle — each built once, here, from the validated configuration. Global: feature modules
 * inject what they need by class.
 */
@Module({})
export class InfraModule {
  static forRoot(options: InfraOptions): DynamicModule {
    const { services } = options;
    const outages = new OutageLog();
    const storeProviders: Provider[] = (Object.keys(STORE_CLASSES) as (keyof Stores)[]).map((name) => ({
      provide: STORE_CLASSES[name],
      useFactory: (stores: Stores) => stores[name],
      inject: [STORES],
    }));
    const providers: Provider[] = [
      { provide: INFRA_OPTIONS, useValue: options },
      { provide: Clock, useValue: options.clock ?? new SystemClock() },
      { provide: PrismaClient, useFactory: () => createPrismaClient(services.databaseUrl, { poolMax: options.databasePoolMax }) },
      { provide: STORES, useFactory: (prisma: PrismaClient, clock: Clock) => createStores(prisma, () => clock.now()), inject: [PrismaClient, Clock] },
      ...storeProviders,
      { provide: Redis, useFactory: () => createRedis(services.redisUrl, (e) => outages.report('redis', e)) },
      { provide: ObjectStorage, useFactory: () => new ObjectStorage(services.s3) },
      { provide: ReferenceDirectory, useFactory: () => new ReferenceDirectory(services.referenceDataDir) },
      { provide: PayloadCipher, useFactory: () => new PayloadCipher(services.payloadEncryptionKey) },
      {
        provide: FileLifecycle,
        useFactory: (stores: Stores, storage: ObjectStorage, cipher: PayloadCipher, clock: Clock) =>
          new FileLifecycle({ stores, storage, cipher, now: () => clock.now() }),
        inject: [STORES, ObjectStorage, PayloadCipher, Clock],
      },
      {
        provide: JobQueue,
        useFactory: (redis: Redis) =>
          new JobQueue({ redisUrl: services.redisUrl, prefix: services.queuePrefix, redis, onError: (e) => outages.report('redis (queue)', e) }),
        inject: [Redis],
      },
      {
        provide: HealthChecks,
        useFactory: (prisma: PrismaClient, redis: Redis, storage: ObjectStorage) => new HealthChecks({ prisma, redis, storage }),
        inject: [PrismaClient, Redis, ObjectStorage],
      },
      InfraShutdown,
    ];
    return {
      module: InfraModule,
      global: true,
      providers,
      exports: providers.filter((p): p is Exclude<Provider, typeof InfraShutdown> => p !== InfraShutdown).map((p) => (typeof p === 'function' ? p : p.provide)),
    };
  }
}
