import type { ConnectionOptions, RedisOptions as ConnectionSettings } from 'bullmq';
import { Cluster, Redis } from 'ioredis';

/**
 * The one Redis connection policy of ppfile. Every connection reconnects within 2 s once Redis is
 * back (ioredis' default waits longer and BullMQ's up to 20 s). What differs by use:
 * - `commands` (rate limits, upload payloads) and `queue` (adding and reading jobs): no offline
 *   queue and one retry, so that a request gets 503 at once while Redis is away instead of hanging;
 * - `worker` (BullMQ's blocking connections): no per-request retry limit, as BullMQ requires.
 * `rediss://` URLs connect over TLS.
 */
export type RedisUse = 'commands' | 'queue' | 'worker';

const CONNECT_TIMEOUT_MS = 2000;

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
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt: number) => Math.min(200 * attempt, 2000),
  };
  if (use === 'worker') return { ...base, maxRetriesPerRequest: null };
  return { ...base, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
}

/**
 * Where Redis is: REDIS_URL, or a Redis Cluster (REDIS_CLUSTER_NODES) whose credentials and TLS
 * come from REDIS_URL. libs/config's ServicesConfig is one.
 */
export interface RedisTarget {
  redisUrl: string;
  redisClusterNodes?: readonly string[];
}

const isCluster = (target: RedisTarget): boolean => (target.redisClusterNodes?.length ?? 0) > 0;

/**
 * A Redis Cluster client with the same policy as redisOptions (per node: credentials, TLS, retries;
 * the offline queue is the cluster's own option). Every multi-key operation of ppfile keeps its keys
 * in one hash slot (a `{tag}` in their names) and BullMQ's prefix is braced (queueKeyPrefix).
 */
function clusterClient(target: RedisTarget, use: RedisUse): Cluster {
  const policy = redisOptions(target.redisUrl, use);
  const nodes = (target.redisClusterNodes ?? []).map((hostPort) => {
    const at = hostPort.lastIndexOf(':');
    return { host: hostPort.slice(0, at), port: Number(hostPort.slice(at + 1)) };
  });
  return new Cluster(nodes, {
    // Per node: REDIS_URL's credentials and TLS (each node's own name as the TLS server name).
    redisOptions: {
      username: policy.username,
      password: policy.password,
      ...(new URL(target.redisUrl).protocol === 'rediss:' ? { tls: {} } : {}),
      connectTimeout: CONNECT_TIMEOUT_MS,
      maxRetriesPerRequest: policy.maxRetriesPerRequest,
    },
    clusterRetryStrategy: policy.retryStrategy,
    enableOfflineQueue: policy.enableOfflineQueue ?? true,
    // BullMQ's connected by BullMQ (once its queue or worker listens for errors); and patient
    // with a busy node: a slots refresh that times out is an error event on every queue.
    lazyConnect: use !== 'commands',
    slotsRefreshTimeout: 5000,
  });
}

/**
 * The process's commands client. Its errors are the callers' (503); the event itself is only
 * counted. On a Redis Cluster, a `Cluster`: ppfile uses only the commands both clients have (key
 * commands, EVAL with keys of one slot, MULTI on one slot, PING, QUIT), so it is handed out as the
 * `Redis` every consumer injects.
 */
export function createRedis(
  target: RedisTarget | string,
  onError: (e: Error) => void = () => undefined,
): Redis {
  const t = typeof target === 'string' ? { redisUrl: target } : target;
  const redis = isCluster(t)
    ? (clusterClient(t, 'commands') as unknown as Redis)
    : new Redis(redisOptions(t.redisUrl, 'commands'));
  redis.on('error', onError);
  return redis;
}

/**
 * BullMQ's connection for `use`: its options on one Redis (BullMQ makes and closes its clients), a
 * `Cluster` on a Redis Cluster (BullMQ takes no cluster options: the caller closes it, closeConnection).
 */
export function bullConnection(target: RedisTarget, use: 'queue' | 'worker'): ConnectionOptions {
  return isCluster(target) ? clusterClient(target, use) : redisOptions(target.redisUrl, use);
}

/** Closes a connection bullConnection made (a Cluster); options need nothing. */
export async function closeConnection(connection: ConnectionOptions): Promise<void> {
  if (connection instanceof Cluster) await connection.quit().catch(() => connection.disconnect());
}

/**
 * BullMQ's key prefix: QUEUE_PREFIX, braced on a Redis Cluster (`{bull}`) so that every key of a
 * queue is in one hash slot, as its scripts need (KEDA's lists are then `{bull}:generate:wait`).
 */
export function queueKeyPrefix(target: RedisTarget & { queuePrefix: string }): string {
  return isCluster(target) ? `{${target.queuePrefix}}` : target.queuePrefix;
}
