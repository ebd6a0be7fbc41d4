import * as path from 'node:path';
import { DEFAULT_QUEUE_PREFIX } from '@ppfile/jobs';

/**
 * The gateway's environment (API.md §13), validated once at boot. Nothing else reads process.env.
 */
export interface GatewayConfig {
  port: number;
  publicBaseUrl: string;
  databaseUrl: string;
  redisUrl: string;
  s3: { endpoint: string; accessKey: string; secretKey: string; bucket: string; region: string };
  operator: { user: string; password: string } | null;
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

export class ConfigError extends Error {}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n < min || n > max) problems.push(`${name} must be an integer from ${min} to ${max}`);
    return n;
  };
  const port = int('PORT', 3000, 0, 65535);
  const s3Endpoint = env.S3_ENDPOINT ?? '';
  if (!s3Endpoint) problems.push('S3_ENDPOINT is required (npm start starts a local S3 endpoint when it is unset)');
  else if (!/^https?:\/\/[^/]+\/?$/.test(s3Endpoint)) problems.push('S3_ENDPOINT must look like http(s)://host[:port]');
  if (s3Endpoint && (!env.S3_ACCESS_KEY || !env.S3_SECRET_KEY)) problems.push('S3_ACCESS_KEY and S3_SECRET_KEY are required');
  const operator =
    env.OPERATOR_USER && env.OPERATOR_PASSWORD ? { user: env.OPERATOR_USER, password: env.OPERATOR_PASSWORD } : null;
  const config: GatewayConfig = {
    port,
    publicBaseUrl: (env.PUBLIC_BASE_URL || `http://localhost:${port}`).replace(/\/+$/, ''),
    databaseUrl: env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/ppfile',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    s3: {
      endpoint: s3Endpoint,
      accessKey: env.S3_ACCESS_KEY ?? '',
      secretKey: env.S3_SECRET_KEY ?? '',
      bucket: env.S3_BUCKET || 'ppfile',
      region: env.S3_REGION || 'us-east-1',
    },
    operator,
    bullBoardWritable: env.BULL_BOARD_WRITABLE === 'true',
    referenceDataDir: env.PPFILE_REFERENCE_DATA ? path.resolve(env.PPFILE_REFERENCE_DATA) : null,
    databasePoolMax: int('DATABASE_POOL_MAX', 10, 1, 200),
    rateLimitScale: int('RATE_LIMIT_SCALE', 1, 1, 1_000_000),
    authCacheSeconds: int('AUTH_CACHE_SECONDS', 5, 0, 300),
    queue: {
      generateThresholdRows: int('GENERATE_QUEUE_THRESHOLD_ROWS', 2000, 0, 1_000_000),
      validateThresholdBytes: int('VALIDATE_QUEUE_THRESHOLD_BYTES', 2 * 1024 * 1024, 0, 100 * 1024 * 1024),
      waitSeconds: int('QUEUE_WAIT_SECONDS', 120, 1, 3600),
      prefix: env.QUEUE_PREFIX || DEFAULT_QUEUE_PREFIX,
    },
  };
  if (problems.length) throw new ConfigError(`invalid environment: ${problems.join('; ')}`);
  return config;
}
