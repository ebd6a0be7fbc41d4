import {
  Inject,
  Injectable,
  Module,
  type DynamicModule,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { BullModule, getQueueToken } from '@nestjs/bullmq';
import type { ConnectionOptions, Queue } from 'bullmq';
import { ClsModule, ClsService, ClsServiceManager } from 'nestjs-cls';
import { Redis } from 'ioredis';
import type { ServicesConfig } from '@ppfile/config';
import {
  ApiKeyStore,
  ColumnMappingStore,
  createPrismaClient,
  createStores,
  FileStore,
  IdempotencyStore,
  JobPayloadStore,
  OrganizationStore,
  PrismaClient,
  SessionStore,
  UnitLedger,
  UsageHistoryStore,
  UsageStore,
  UserStore,
  type Stores,
} from '@ppfile/db';
import { FileLifecycle, FileProduction, PayloadCipher, type QueueName } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';
import { ObjectStorage } from '@ppfile/storage';
import { Clock, SystemClock } from './clock';
import { HealthChecks } from './health';
import { JobQueue } from './job-queue';
import { bullConnection, closeConnection, createRedis, queueKeyPrefix } from './redis';
import { DependencyLog } from './observability/dependency-log';
import type { RootLogger } from './observability/logger';
import { Metrics } from './observability/metrics';
import { MetricsRefresher } from './observability/metrics-refresher';

/** Every store over the process's one Prisma client (libs/db createStores). */
export const STORES = Symbol('Stores');
export const INFRA_OPTIONS = Symbol('InfraOptions');
/** The process's pino logger (JSON lines), for access and job lines; Nest's Logger writes through it too. */
export const ROOT_LOGGER = Symbol('RootLogger');
/** BullMQ's connection of this process's queues (libs/infra redis.ts bullConnection), closed last. */
const QUEUE_CONNECTION = Symbol('QueueConnection');

export interface InfraOptions {
  services: ServicesConfig;
  /** Connections of this process's one pool (the gateway serves requests, a worker runs few jobs). */
  databasePoolMax: number;
  /** Tests move time by hand; production uses the system clock. */
  clock?: Clock;
  /** The process's logger (createRootLogger), built before Nest so that boot lines are JSON too. */
  logger: RootLogger;
  /**
   * Where the request id of the work under way comes from (nestjs-cls): the gateway names it per
   * request (its X-Request-Id); a worker takes it from the job (QueueWorkers). Read by every log line,
   * the jobs added and the error bodies.
   */
  requestIds: 'http' | 'jobs';
  /**
   * The queues of libs/jobs QUEUES this process uses, the only ones it registers: the gateway those
   * it adds to, a worker those it processes. JobQueue refuses any other.
   */
  queues: readonly QueueName[];
}

/** Closes the process-wide clients last, after the app's own shutdown hooks (the worker closes first). */
@Injectable()
class InfraShutdown implements OnApplicationShutdown {
  constructor(
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(PrismaClient) private readonly prisma: PrismaClient,
    @Inject(Redis) private readonly redis: Redis,
    @Inject(QUEUE_CONNECTION) private readonly queueConnection: ConnectionOptions,
    @Inject(ROOT_LOGGER) private readonly logger: RootLogger,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await this.queue.close();
    await Promise.allSettled([
      this.prisma.$disconnect(),
      this.redis.quit(),
      closeConnection(this.queueConnection),
    ]);
    // The lines kept by the gateway's InfoLineBatcher: Nest then kills the process with its signal.
    this.logger.flush();
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
  users: UserStore,
  sessions: SessionStore,
  usageHistory: UsageHistoryStore,
  columnMappings: ColumnMappingStore,
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
    // One for the process's queues: on a Redis Cluster a client that InfraShutdown closes.
    const queueConnection = bullConnection(services, 'queue');
    const storeProviders: Provider[] = (Object.keys(STORE_CLASSES) as (keyof Stores)[]).map((name) => ({
      provide: STORE_CLASSES[name],
      useFactory: (stores: Stores) => stores[name],
      inject: [STORES],
    }));
    const providers: Provider[] = [
      { provide: INFRA_OPTIONS, useValue: options },
      { provide: ROOT_LOGGER, useValue: options.logger },
      { provide: DependencyLog, useValue: new DependencyLog(options.logger) },
      { provide: Clock, useValue: options.clock ?? new SystemClock() },
      {
        provide: PrismaClient,
        useFactory: () => createPrismaClient(services.databaseUrl, { poolMax: options.databasePoolMax }),
      },
      {
        provide: STORES,
        useFactory: (prisma: PrismaClient, clock: Clock) => createStores(prisma, () => clock.now()),
        inject: [PrismaClient, Clock],
      },
      ...storeProviders,
      { provide: Redis, useFactory: () => createRedis(services) },
      { provide: QUEUE_CONNECTION, useValue: queueConnection },
      { provide: ObjectStorage, useFactory: () => new ObjectStorage(services.s3) },
      {
        provide: ReferenceDirectory,
        // Loaded at start (18,317 ROME codes, ~30 ms): a bad reference directory stops the process
        // at boot, and the first request does not pay the load.
        useFactory: () => {
          const directory = new ReferenceDirectory(services.referenceDataDir);
          directory.lists(CURRENT_SPEC_VERSION);
          return directory;
        },
      },
      { provide: PayloadCipher, useFactory: () => new PayloadCipher(services.payloadEncryptionKey) },
      {
        provide: FileLifecycle,
        useFactory: (
          prisma: PrismaClient,
          stores: Stores,
          storage: ObjectStorage,
          cipher: PayloadCipher,
          clock: Clock,
          metrics: Metrics,
        ) =>
          new FileLifecycle({
            prisma,
            stores,
            storage,
            cipher,
            now: () => clock.now(),
            onCommitted: (c) => metrics.committed(c),
          }),
        inject: [PrismaClient, STORES, ObjectStorage, PayloadCipher, Clock, Metrics],
      },
      {
        provide: JobQueue,
        useFactory: (
          redis: Redis,
          health: HealthChecks,
          cls: ClsService,
          cipher: PayloadCipher,
          ...queues: Queue[]
        ) =>
          new JobQueue({
            queues: Object.fromEntries(options.queues.map((name, i) => [name, queues[i]!])),
            prefix: services.queuePrefix,
            redis,
            health,
            cls,
            cipher,
          }),
        inject: [Redis, HealthChecks, ClsService, PayloadCipher, ...options.queues.map(getQueueToken)],
      },
      HealthChecks,
      {
        provide: FileProduction,
        useFactory: (
          lifecycle: FileLifecycle,
          stores: Stores,
          references: ReferenceDirectory,
          clock: Clock,
          queue: JobQueue,
        ) =>
          new FileProduction({
            lifecycle,
            stores,
            references: (version) => references.lists(version),
            now: () => clock.now(),
            enqueue: (fileId) => queue.enqueueGenerate(fileId),
          }),
        inject: [FileLifecycle, STORES, ReferenceDirectory, Clock, JobQueue],
      },
      {
        provide: Metrics,
        useFactory: (health: HealthChecks) => {
          const metrics = new Metrics();
          health.observe((r, startedAt) => metrics.dependencies(r, startedAt));
          return metrics;
        },
        inject: [HealthChecks],
      },
      {
        // The gauges' reads, off the scrape (issue 35); started at bootstrap, stopped before shutdown.
        provide: MetricsRefresher,
        useFactory: (metrics: Metrics, queue: JobQueue, stores: Stores, health: HealthChecks) =>
          new MetricsRefresher(
            metrics,
            {
              queueCounts: () => queue.counts(),
              fileCounts: () => stores.files.countByStatus(),
              readiness: () => health.readiness(),
            },
            { periodSeconds: services.metricsRefreshSeconds },
          ),
        inject: [Metrics, JobQueue, STORES, HealthChecks],
      },
      InfraShutdown,
      ...(options.requestIds === 'http'
        ? [{ provide: ClsService, useValue: ClsServiceManager.getClsService() }]
        : []),
    ];
    return {
      module: InfraModule,
      global: true,
      // The queues this process uses (`queues`, of libs/jobs QUEUES) on the configuration's Redis and
      // QUEUE_PREFIX; @nestjs/bullmq builds each once.
      imports: [
        // A worker's jobs run in nestjs-cls contexts (QueueWorkers). The gateway does not import
        // ClsModule: it would add a global guard and a global interceptor to every route (no-ops
        // here, but an interceptor puts each request through rxjs and AsyncResource.bind: 4 % of
        // the gateway's CPU under bench:http, issue 35); its request-id middleware opens the
        // context itself (runWithRequestId), on the same process-wide ClsService.
        ...(options.requestIds === 'http' ? [] : [ClsModule.forRoot({ global: true })]),
        BullModule.forRootAsync({
          useFactory: () => ({
            connection: queueConnection,
            prefix: queueKeyPrefix(services),
          }),
        }),
        BullModule.registerQueue(...options.queues.map((name) => ({ name }))),
      ],
      providers,
      exports: [
        BullModule,
        ...providers
          .filter((p): p is Exclude<Provider, typeof InfraShutdown> => p !== InfraShutdown)
          .map((p) => (typeof p === 'function' ? p : p.provide)),
      ],
    };
  }
}
