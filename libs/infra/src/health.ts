import type { Redis } from 'ioredis';
import type { PrismaClient } from '@ppfile/db';
import type { ObjectStorage } from '@ppfile/storage';

export type Dependency = 'database' | 'redis' | 'storage';

export interface Readiness {
  ready: boolean;
  checks: Record<Dependency, 'up' | 'down'>;
  /** The dependencies that did not answer in time. */
  down: Dependency[];
}

/** How long each dependency has to answer a readiness check. */
export const READINESS_TIMEOUT_MS = 1500;

function within<T>(ms: number, work: Promise<T>): Promise<T> {
  return Promise.race([work, new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref())]);
}

/**
 * Readiness of a process (API.md §13 `/health/ready`): PostgreSQL, Redis and the object store each
 * asked something cheap, in parallel, with a short timeout; the answer names what is down.
 */
export class HealthChecks {
  constructor(
    private readonly deps: { prisma: PrismaClient; redis: Redis; storage: ObjectStorage },
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
  ) {}

  async readiness(): Promise<Readiness> {
    const probe = async (work: () => Promise<unknown>): Promise<'up' | 'down'> => {
      try {
        const ok = await within(this.timeoutMs, work());
        return ok === false ? 'down' : 'up';
      } catch {
        return 'down';
      }
    };
    const [database, redis, storage] = await Promise.all([
      probe(() => this.deps.prisma.$queryRaw`SELECT 1`),
      probe(() => this.deps.redis.ping()),
      probe(() => this.deps.storage.ping()),
    ]);
    const checks = { database, redis, storage };
    const down = (Object.keys(checks) as Dependency[]).filter((k) => checks[k] === 'down');
    return { ready: down.length === 0, checks, down };
  }
}

/** The `/health/ready` answer of either process: 200 when ready, else 503 with Retry-After naming what is down. */
export function readinessAnswer(r: Readiness): {
  status: 200 | 503;
  headers: Record<string, string>;
  body: { status: 'ready' | 'unavailable'; checks: Readiness['checks']; down: Dependency[] };
} {
  return {
    status: r.ready ? 200 : 503,
    headers: r.ready ? {} : { 'Retry-After': '5' },
    body: { status: r.ready ? 'ready' : 'unavailable', checks: r.checks, down: r.down },
  };
}
