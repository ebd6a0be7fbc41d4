import { Inject, Injectable } from '@nestjs/common';
import { Redis } from 'ioredis';
import { PrismaClient } from '@ppfile/db';
import { ObjectStorage } from '@ppfile/storage';
import { DependencyLog, type DependencyName } from './observability/dependency-log';

export type Dependency = 'database' | 'redis' | 'storage';
/** What a process checks of itself besides its dependencies (the gateway's body budget). */
export type LocalCheck = 'body_budget';

export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, 'up' | 'down'> & Partial<Record<LocalCheck, 'up' | 'down'>>;
  /** The dependencies that did not answer in time, and the local checks that failed. */
  down: (Dependency | LocalCheck)[];
}

/** A readiness with a local check of the process added. */
export function withLocalCheck(r: Readiness, name: LocalCheck, up: boolean): Readiness {
  const down = up ? r.down : [...r.down, name];
  return { ready: down.length === 0, checks: { ...r.checks, [name]: up ? 'up' : 'down' }, down };
}

/** How long each dependency has to answer a readiness check. */
export const READINESS_TIMEOUT_MS = 1500;
/** While a dependency is down, how often it is asked again (so that its return is logged). */
const RECHECK_MS = 5000;
const LOG_NAME: Record<Dependency, DependencyName> = { database: 'postgres', redis: 'redis', storage: 's3' };

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([
    work,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);
}

/**
 * Readiness of a process (API.md §13 `/health/ready`): PostgreSQL, Redis and the object store each
 * asked something cheap, in parallel, with a short timeout; the answer names what is down. A Redis
 * client error (reconnecting) makes it look: the log says once what is down, and once when it is back.
 */
@Injectable()
export class HealthChecks {
  private watching = false;
  private readonly observers: ((r: Readiness, startedAt: number) => void)[] = [];
  private readonly deps: { prisma: PrismaClient; redis: Redis; storage: ObjectStorage; log: DependencyLog };
  private readonly timeoutMs = READINESS_TIMEOUT_MS;

  constructor(
    @Inject(PrismaClient) prisma: PrismaClient,
    @Inject(Redis) redis: Redis,
    @Inject(ObjectStorage) storage: ObjectStorage,
    @Inject(DependencyLog) log: DependencyLog,
  ) {
    this.deps = { prisma, redis, storage, log };
    redis.on('error', () => this.suspect());
  }

  /**
   * Told of every readiness answer, whoever asked (a probe, the watch, the metrics), with when its
   * check began: the dependency gauge follows the probes' checks without a check of its own.
   */
  observe(observer: (r: Readiness, startedAt: number) => void): void {
    this.observers.push(observer);
  }

  async readiness(): Promise<Readiness> {
    const startedAt = Date.now();
    const probe = async (dependency: Dependency, work: () => Promise<unknown>): Promise<'up' | 'down'> => {
      try {
        const ok = await within(this.timeoutMs, work());
        if (ok === false) throw new Error('no answer');
        this.deps.log.answered(LOG_NAME[dependency]);
        return 'up';
      } catch (e) {
        this.deps.log.failed(LOG_NAME[dependency], e, 'readiness');
        return 'down';
      }
    };
    const [database, redis, storage] = await Promise.all([
      probe('database', () => this.deps.prisma.$queryRaw`SELECT 1`),
      probe('redis', () => this.deps.redis.ping()),
      probe('storage', () => this.deps.storage.ping()),
    ]);
    const checks = { database, redis, storage };
    const down = (Object.keys(checks) as Dependency[]).filter((k) => checks[k] === 'down');
    const answer: Readiness = { ready: down.length === 0, checks, down };
    for (const observer of this.observers) observer(answer, startedAt);
    return answer;
  }

  /**
   * A client reported an error that may mean a dependency is down (a request's 503, a Redis
   * reconnection): check all three now and, while one is down, every 5 s, so that the log says
   * once what went down and once when it is back — not once per failed request or retry.
   */
  suspect(): void {
    if (this.watching) return;
    this.watching = true;
    const round = (): void => {
      void this.readiness().then((r) => {
        if (r.ready) this.watching = false;
        else setTimeout(round, RECHECK_MS).unref();
      });
    };
    round();
  }
}

/** The `/health/ready` answer of either process: 200 when ready, else 503 with Retry-After naming what is down. */
export function readinessAnswer(r: Readiness): {
  status: 200 | 503;
  headers: Record<string, string>;
  body: { status: 'ready' | 'unavailable'; checks: Readiness['checks']; down: Readiness['down'] };
} {
  return {
    status: r.ready ? 200 : 503,
    headers: r.ready ? {} : { 'Retry-After': '5' },
    body: { status: r.ready ? 'ready' : 'unavailable', checks: r.checks, down: r.down },
  };
}
