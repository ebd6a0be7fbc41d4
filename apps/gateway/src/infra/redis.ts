import { Redis } from 'ioredis';

/**
 * One Redis client per process. Commands fail fast while Redis is unreachable (no offline queue,
 * one retry), so that a request gets 503 at once instead of hanging; the client keeps reconnecting.
 */
export function createRedis(url: string): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    lazyConnect: false,
  });
}
