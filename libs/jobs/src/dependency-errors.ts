/** Node socket errors (pg, ioredis, minio/http). */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ECONNABORTED',
]);
/** PostgreSQL SQLSTATEs: admin/crash shutdown, cannot connect now, connection exceptions, too many connections. */
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '08000', '08001', '08003', '08006', '53300']);
/** Prisma Client codes that mean "cannot reach / lost the database" (never P2010/P2039 alone: any raw-query failure). */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
/** Prisma driver-adapter error kinds (meta.driverAdapterError.cause.kind). */
const ADAPTER_KINDS = new Set([
  'DatabaseNotReachable',
  'ConnectionClosed',
  'SocketTimeout',
  'TooManyConnections',
]);
const NAMES = new Set([
  'MaxRetriesPerRequestError',
  'DependencyUnavailableError',
  'PrismaClientInitializationError',
]);
/** Errors with no code at all: match the whole message, anchored. */
const MESSAGES = [
  /^Connection terminated unexpectedly$/, // pg: socket closed under a query (immediate stop, SIGKILL)
  /^Connection terminated due to connection timeout$/, // pg: connectionTimeoutMillis
  /^timeout exceeded when trying to connect$/, // pg-pool: connectionTimeoutMillis on checkout
  /^Client has encountered a connection error and is not queryable$/, // pg: a client reused after its connection died (interactive tx)
  /^Stream isn't writeable and enableOfflineQueue options is false$/, // ioredis: disconnected, no offline queue
  /^Connection is closed\.$/, // ioredis: in-flight command when the connection closed for good
  /connect ECONNREFUSED/, // wrapped socket errors whose code was dropped on the way
];

/**
 * Whether an error means a dependency (PostgreSQL, Redis, the object store) is down, going down or
 * coming back: the request then gets 503 SERVICE_UNAVAILABLE, never 500 (API.md §6), and a job is
 * retried rather than failed. The signatures were collected by stopping (fast, immediate), killing
 * and restarting each service under load: pg and Prisma's driver adapter (raw queries fail as
 * P2010 with the cause only in meta.driverAdapterError), ioredis/BullMQ and the minio client. Looks
 * through `cause` chains, `meta.driverAdapterError` and AggregateError `errors`.
 */
export function isDependencyDown(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e) || seen.size > 20) continue;
    seen.add(e);
    const f = e as Record<string, unknown>;
    const code = typeof f.code === 'string' ? f.code : undefined;
    if (code && (NETWORK_CODES.has(code) || SQLSTATES.has(code) || PRISMA_CODES.has(code))) return true;
    if (typeof f.originalCode === 'string' && SQLSTATES.has(f.originalCode)) return true;
    if (typeof f.kind === 'string' && ADAPTER_KINDS.has(f.kind)) return true;
    if (typeof f.name === 'string' && NAMES.has(f.name)) return true;
    if (typeof f.message === 'string' && MESSAGES.some((m) => m.test(f.message as string))) return true;
    const meta = f.meta as Record<string, unknown> | undefined;
    queue.push(f.cause, meta?.driverAdapterError);
    if (Array.isArray(f.errors)) queue.push(...(f.errors as unknown[]));
  }
  return false;
}

/** A dependency refused or lost accepted work (a queue job vanished): answered 503 with Retry-After. */
export class DependencyUnavailableError extends Error {
  constructor(
    readonly dependency: 'database' | 'queue' | 'storage',
    why: string,
  ) {
    super(why);
    this.name = 'DependencyUnavailableError';
  }
}
