import {
  ConfigError,
  EnvBoolean,
  EnvInt,
  EnvRule,
  EnvText,
  EnvTogetherWith,
  EnvTrustProxy,
  EnvUrl,
  OptionalEnvInt,
  servicesConfigOf,
  ServicesEnvironment,
  trustProxyOf,
  validateEnvironment,
  type LogLevelName,
  type ServicesConfig,
  type TrustProxy,
  withoutTrailingSlashes,
} from '@ppfile/config';
import type { DashboardOptions } from '@ppfile/dashboard';

/** The gateway's validated configuration, injected by this token (AppModule provides it). */
export const GATEWAY_CONFIG = Symbol('GatewayConfig');

/**
 * The gateway's environment (API.md §13), validated once at boot. Nothing else reads process.env.
 */
export interface GatewayConfig {
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  redisUrl: string;
  /** REDIS_CLUSTER_NODES (libs/config ServicesConfig). */
  redisClusterNodes?: readonly string[];
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  payloadEncryptionKey: Buffer;
  processingLeaseSeconds: number;
  /** SIGTERM: how long requests in flight may take to finish (SHUTDOWN_GRACE_SECONDS). */
  shutdownGraceSeconds: number;
  /** OPERATOR_USER and OPERATOR_PASSWORD: Bull Board and /metrics; null (both unset) hides them. */
  operator: { user: string; password: string } | null;
  /** The proxies whose X-Forwarded-For is believed (TRUST_PROXY, Express syntax; off by default). */
  trustProxy: TrustProxy;
  /** LOG_LEVEL. */
  logLevel: LogLevelName;
  /** How often the gauges that need I/O are read (METRICS_REFRESH_SECONDS); a scrape reads none. */
  metricsRefreshSeconds: number;
  /** Bull Board may retry or remove jobs (BULL_BOARD_WRITABLE=true); read-only by default. */
  bullBoardWritable: boolean;
  referenceDataDir: string | null;
  /** Pool size of the one Prisma client of the process. */
  databasePoolMax: number;
  /**
   * Multiplies every per-minute limit (plans and anonymous). 1 in production; an operator raises it
   * for a load test, which the plans' limits would otherwise stop within a second.
   */
  rateLimitScale: number;
  /** Request bodies held in memory at once by this gateway (MAX_INFLIGHT_BYTES, 128 MiB). */
  maxInflightBytes: number;
  /** How fast a request body must arrive (common/body-budget.ts); else 408 and the connection closed. */
  body: {
    /** The whole body within this many seconds (BODY_TIMEOUT_SECONDS, 120). */
    timeoutSeconds: number;
    /** After the first `graceSeconds` (10), at least this many bytes a second on average (BODY_MIN_BYTES_PER_SECOND, 16 KiB). */
    minBytesPerSecond: number;
    graceSeconds: number;
  };
  /** Worker threads of the rules: large declaration bodies, every import and fix (RULES_THREADS; default: cores − 1, 2 to 4; 0: inline). */
  rulesThreads?: number;
  /** How long one import or fix may run in a rules thread before it is stopped (RULES_TIME_BUDGET_SECONDS, 10). */
  rulesTimeBudgetSeconds?: number;
  /** Rows an organization's test keys may generate in a calendar month (TEST_ROWS_PER_MONTH, API.md §10). */
  testRowsPerMonth: number;
  /** How long an authenticated key is remembered in-process (0: a lookup per request); bounds revocation delay. */
  authCacheSeconds: number;
  /** Hand-off of large work to the workers (API.md §8). */
  queue: {
    /** Stored generations of more rows than this go through the queue (GENERATE_QUEUE_THRESHOLD_ROWS). */
    generateThresholdRows: number;
    /** Uploads of more bytes than this are validated by a worker (VALIDATE_QUEUE_THRESHOLD_BYTES). */
    validateThresholdBytes: number;
    /** How long a synchronous request waits for its job before answering 202 (QUEUE_WAIT_SECONDS). */
    waitSeconds: number;
    /** BullMQ key prefix (QUEUE_PREFIX), the same for the gateway and its workers. */
    prefix: string;
  };
}

export { ConfigError };

/** What the shared infrastructure (libs/infra) is built from. */
export function servicesOf(config: GatewayConfig): ServicesConfig {
  return {
    databaseUrl: config.databaseUrl,
    redisUrl: config.redisUrl,
    ...(config.redisClusterNodes?.length ? { redisClusterNodes: config.redisClusterNodes } : {}),
    s3: config.s3,
    referenceDataDir: config.referenceDataDir,
    queuePrefix: config.queue.prefix,
    payloadEncryptionKey: config.payloadEncryptionKey,
    processingLeaseSeconds: config.processingLeaseSeconds,
    shutdownGraceSeconds: config.shutdownGraceSeconds,
    logLevel: config.logLevel,
    metricsRefreshSeconds: config.metricsRefreshSeconds,
  };
}

/** What the dashboard it mounts reads of the gateway's configuration (libs/dashboard). */
export function dashboardOptionsOf(config: GatewayConfig): DashboardOptions {
  return {
    publicBaseUrl: config.publicBaseUrl,
    secret: config.payloadEncryptionKey,
    keyPrefix: config.queue.prefix,
    rateLimitScale: config.rateLimitScale,
    testRowsPerMonth: config.testRowsPerMonth,
    asyncAboveRows: config.queue.generateThresholdRows,
  };
}

/**
 * The gateway's variables (API.md §13) besides the shared ones, with their defaults and bounds. One
 * class per app over a shared base: the apps' defaults differ (DATABASE_POOL_MAX) and each sets no
 * variable it does not read (test/deploy.e2e-spec.ts reads these declarations).
 */
export class GatewayEnvironment extends ServicesEnvironment {
  @EnvInt(0, 65535)
  PORT = 3000;

  /** Default `http://localhost:$PORT`. */
  @EnvUrl(['http:', 'https:'], 'an http:// or https:// URL')
  PUBLIC_BASE_URL?: string;

  @EnvTogetherWith('OPERATOR_PASSWORD')
  OPERATOR_USER?: string;

  @EnvText()
  OPERATOR_PASSWORD?: string;

  @EnvBoolean()
  @EnvRule<GatewayEnvironment>(
    (e) => e.BULL_BOARD_WRITABLE !== true || (!!e.OPERATOR_USER && !!e.OPERATOR_PASSWORD),
    'BULL_BOARD_WRITABLE needs OPERATOR_USER and OPERATOR_PASSWORD',
  )
  BULL_BOARD_WRITABLE = false;

  @EnvTrustProxy()
  TRUST_PROXY?: string;

  @EnvInt(1, 200)
  DATABASE_POOL_MAX = 10;

  @EnvInt(1, 1_000_000)
  RATE_LIMIT_SCALE = 1;

  @EnvInt(0, 300)
  AUTH_CACHE_SECONDS = 5;

  @EnvInt(0, 10_000_000)
  TEST_ROWS_PER_MONTH = 1000;

  /** Default: cores − 1, 2 to 4 (uploads/rules-pool.ts). */
  @OptionalEnvInt(0, 64)
  RULES_THREADS?: number;

  @EnvInt(1, 3600)
  RULES_TIME_BUDGET_SECONDS = 10;

  @EnvInt(1024 * 1024, 64 * 1024 * 1024 * 1024)
  MAX_INFLIGHT_BYTES = 128 * 1024 * 1024;

  @EnvInt(5, 3600)
  BODY_TIMEOUT_SECONDS = 120;

  @EnvInt(0, 1024 * 1024 * 1024)
  BODY_MIN_BYTES_PER_SECOND = 16 * 1024;

  @EnvInt(0, 1_000_000)
  GENERATE_QUEUE_THRESHOLD_ROWS = 2000;

  @EnvInt(0, 100 * 1024 * 1024)
  VALIDATE_QUEUE_THRESHOLD_BYTES = 2 * 1024 * 1024;

  @EnvInt(1, 3600)
  QUEUE_WAIT_SECONDS = 120;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const e = validateEnvironment(GatewayEnvironment, env);
  const { queuePrefix, ...services } = servicesConfigOf(e);
  return {
    ...services,
    port: e.PORT,
    publicBaseUrl: withoutTrailingSlashes(e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`),
    operator:
      e.OPERATOR_USER && e.OPERATOR_PASSWORD
        ? { user: e.OPERATOR_USER, password: e.OPERATOR_PASSWORD }
        : null,
    bullBoardWritable: e.BULL_BOARD_WRITABLE === true,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    databasePoolMax: e.DATABASE_POOL_MAX,
    rateLimitScale: e.RATE_LIMIT_SCALE,
    authCacheSeconds: e.AUTH_CACHE_SECONDS,
    testRowsPerMonth: e.TEST_ROWS_PER_MONTH,
    rulesThreads: e.RULES_THREADS,
    rulesTimeBudgetSeconds: e.RULES_TIME_BUDGET_SECONDS,
    maxInflightBytes: e.MAX_INFLIGHT_BYTES,
    body: {
      timeoutSeconds: e.BODY_TIMEOUT_SECONDS,
      minBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND,
      graceSeconds: 10,
    },
    queue: {
      generateThresholdRows: e.GENERATE_QUEUE_THRESHOLD_ROWS,
      validateThresholdBytes: e.VALIDATE_QUEUE_THRESHOLD_BYTES,
      waitSeconds: e.QUEUE_WAIT_SECONDS,
      prefix: queuePrefix,
    },
  };
}
