import {
  EnvDirectory,
  EnvInt,
  EnvMatches,
  EnvOneOf,
  EnvRequired,
  EnvRule,
  EnvText,
  EnvUrl,
} from './env-validation';

export const LOG_LEVEL_NAMES = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevelName = (typeof LOG_LEVEL_NAMES)[number];

/**
 * The object store (S3_*): path-style, an endpoint with its credentials. Its own class: the CLI's
 * `admin reconcile --check` reads these and nothing else of the services.
 */
export class S3Environment {
  @EnvRequired(' (npm start starts a local S3 endpoint when it is unset)')
  @EnvMatches(/^https?:\/\/[^/]+\/?$/, 'must look like http(s)://host[:port]')
  S3_ENDPOINT?: string;

  @EnvRule<S3Environment>(
    (e) => !e.S3_ENDPOINT || (!!e.S3_ACCESS_KEY && !!e.S3_SECRET_KEY),
    'S3_ACCESS_KEY and S3_SECRET_KEY are required',
  )
  S3_ACCESS_KEY?: string;

  @EnvText()
  S3_SECRET_KEY?: string;

  @EnvText()
  S3_BUCKET = 'ppfile';

  @EnvText()
  S3_REGION = 'us-east-1';
}

/** `admin reconcile --check`: the object store, and when a processing file counts as stale. */
export class ReconcileEnvironment extends S3Environment {
  @EnvInt(1, 7 * 86400)
  PROCESSING_LEASE_SECONDS = 600;
}

/**
 * What every ppfile process reads (API.md §13): database, Redis, object storage, reference data,
 * queue prefix, payload key, leases, shutdown, logs. Each app's environment extends it with its own
 * settings (apps/gateway and apps/worker config.ts): their defaults and bounds differ
 * (DATABASE_POOL_MAX), and an app sets no variable it does not read.
 */
export class ServicesEnvironment extends ReconcileEnvironment {
  @EnvUrl(['postgresql:', 'postgres:'], 'a postgresql:// URL')
  DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/ppfile';

  @EnvUrl(['redis:', 'rediss:'], 'a redis:// or rediss:// URL')
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * A Redis Cluster's nodes (`host:port,…`, some or all: the others are discovered); REDIS_URL then
   * gives only the credentials and TLS. Unset: REDIS_URL is one Redis.
   */
  @EnvMatches(/^[^\s,:]+:\d{1,5}(,[^\s,:]+:\d{1,5})*$/, 'must be host:port pairs separated by commas')
  REDIS_CLUSTER_NODES?: string;

  @EnvDirectory()
  PPFILE_REFERENCE_DATA?: string;

  /** The prefix of every Redis key of the service: the same for the gateways and workers sharing a Redis. */
  @EnvMatches(/^[A-Za-z0-9._-]{1,64}$/, 'must be letters, digits, ".", "_" or "-" (at most 64)')
  QUEUE_PREFIX = 'bull';

  /** AES-256-GCM key of the request bodies kept until their job ends (32 bytes base64). */
  @EnvRequired(' (32 bytes, base64; `npm start` makes a local one)')
  @EnvRule<ServicesEnvironment>(
    (e) => !e.PAYLOAD_ENCRYPTION_KEY || Buffer.from(e.PAYLOAD_ENCRYPTION_KEY, 'base64').length === 32,
    'PAYLOAD_ENCRYPTION_KEY must be 32 bytes encoded in base64 (e.g. `openssl rand -base64 32`)',
  )
  PAYLOAD_ENCRYPTION_KEY?: string;

  @EnvInt(0, 3600)
  SHUTDOWN_GRACE_SECONDS = 25;

  @EnvOneOf(LOG_LEVEL_NAMES)
  LOG_LEVEL: LogLevelName = 'info';

  /** How often the gauges that need I/O are read, off the scrape (libs/infra MetricsRefresher). */
  @EnvInt(1, 3600)
  METRICS_REFRESH_SECONDS = 15;
}

/** What every ppfile process shares (API.md §13): database, Redis, object storage, reference data, queue prefix. */
export interface ServicesConfig {
  databaseUrl: string;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES as `host:port` strings; absent or empty: REDIS_URL is one Redis. */
  redisClusterNodes?: readonly string[];
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  referenceDataDir: string | null;
  queuePrefix: string;
  /** AES-256-GCM key of the request bodies kept until their job ends (PAYLOAD_ENCRYPTION_KEY, 32 bytes base64). */
  payloadEncryptionKey: Buffer;
  /** A file processing this long after its last sign of life is resumed or ends failed (PROCESSING_LEASE_SECONDS). */
  processingLeaseSeconds: number;
  /** How long SIGTERM waits for the requests or jobs in flight (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** Lowest level of the JSON log lines (LOG_LEVEL). */
  logLevel: LogLevelName;
  /** How often the queue, file and dependency gauges are read (METRICS_REFRESH_SECONDS); a scrape reads none. */
  metricsRefreshSeconds: number;
}

export function s3ConfigOf(env: S3Environment): ServicesConfig['s3'] {
  return {
    endpoint: env.S3_ENDPOINT ?? '',
    accessKey: env.S3_ACCESS_KEY ?? '',
    secretKey: env.S3_SECRET_KEY ?? '',
    bucket: env.S3_BUCKET,
    region: env.S3_REGION,
  };
}

/** The shared settings of a validated environment, as libs/infra takes them. */
export function servicesConfigOf(env: ServicesEnvironment): ServicesConfig {
  return {
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    ...(env.REDIS_CLUSTER_NODES ? { redisClusterNodes: env.REDIS_CLUSTER_NODES.split(',') } : {}),
    s3: s3ConfigOf(env),
    referenceDataDir: env.PPFILE_REFERENCE_DATA ?? null,
    queuePrefix: env.QUEUE_PREFIX,
    payloadEncryptionKey: Buffer.from(env.PAYLOAD_ENCRYPTION_KEY ?? '', 'base64'),
    processingLeaseSeconds: env.PROCESSING_LEASE_SECONDS,
    shutdownGraceSeconds: env.SHUTDOWN_GRACE_SECONDS,
    logLevel: env.LOG_LEVEL,
    metricsRefreshSeconds: env.METRICS_REFRESH_SECONDS,
  };
}

/** A base URL without its trailing slashes: `https://x.example//` → `https://x.example` (a loop: a regular expression here would be quadratic). */
export function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 47) end--;
  return url.slice(0, end);
}
