import type { RedisOptions as ConnectionSettings } from 'bullmq';
import { Redis } from 'ioredis';

/**
 * The one Redis connection policy of ppfile. Every connection reconnects within 2 s once Redis is
 * back (ioredis' default waits longer and BullMQ's up to 20 s). What differs by use:
 * - `commands` (rate limits, upload payloads) and `queue` (adding and reading jobs): no offline
 *   queue and one retry, so that a request gets 503 at once while Redis is away instead of hanging;
 * - `worker` (BullMQ's blocking connections): no per-request retry limit, as BullMQ requires.
 * `rediss://` URLs connect over TLS.
 */
export type RedisUse = 'commands' | 'queue' | 'worker';

export function redisOptions(redisUrl: string, use: RedisUse): ConnectionSettings {
  const url = new URL(redisUrl);
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined;
  const base: ConnectionSettings = {
    host: url.hostname || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    username: url.username ? decodeURIComponent(url.username) : undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number.isInteger(db) ? db : undefined,
    ...(url.protocol === 'rediss:' ? { tls: { servername: url.hostname } } : {}),
    connectTimeout: 2000,
    retryStrategy: (attempt: number) => Math.min(200 * attempt, 2000),
  };
  if (use === 'worker') return { ...base, maxRetriesPerRequest: null };
  return { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
}

/** The process's commands client. Its errors are the callers' (503); the event itself is only counted. */
export function createRedis(redisUrl: string, onError: (e: Error) => void = () => undefined): Redis {
  const redis = new Redis(redisOptions(redisUrl, 'commands'));
  redis.on('error', onError);
  return redis;
}
