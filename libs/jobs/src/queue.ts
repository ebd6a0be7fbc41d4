import type { Lang } from '@ppfile/rules';

/**
 * The queue, its job names and their data: the one place the gateway (producer) and the worker
 * (consumer) agree on. Job data never holds a request body or a file: those travel as payloads
 * (payloads.ts) under a key with a short TTL, because BullMQ keeps job data in Redis.
 */
export const QUEUE_NAME = 'ppfile';

export const JOB_NAMES = ['generate', 'validate-file', 'sweep'] as const;
export type JobName = (typeof JOB_NAMES)[number];

export interface GenerateJobData {
  /** The file record (status processing) this job completes; also the job id. */
  fileId: string;
  lang: Lang;
  requestId: string;
}

export interface ValidateFileJobData {
  payloadKey: string;
  type: string;
  declarant: string;
  spec_version?: string;
  strict_references: boolean;
  filename: string;
  lang: Lang;
  maxRows: number;
  /** yyyymmdd, Europe/Paris: the gateway's day, so that both paths judge dates alike. */
  today: number;
}

export type SweepJobData = Record<string, never>;

export interface JobData {
  generate: GenerateJobData;
  'validate-file': ValidateFileJobData;
  sweep: SweepJobData;
}

/** Attempts of a generation before it ends `failed` (a worker killed mid-job is recovered as stalled). */
export const GENERATE_ATTEMPTS = 3;

/** Redis connection options for BullMQ from a redis:// URL (BullMQ wants no per-request retry limit). */
export function bullConnection(redisUrl: string): {
  host: string;
  port: number;
  username?: string;
  password?: string;
  db?: number;
  maxRetriesPerRequest: null;
  retryStrategy: (attempt: number) => number;
} {
  const url = new URL(redisUrl);
  const db = url.pathname.length > 1 ? Number(url.pathname.slice(1)) : undefined;
  return {
    host: url.hostname || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    username: url.username || undefined,
    password: url.password ? decodeURIComponent(url.password) : undefined,
    db: Number.isInteger(db) ? db : undefined,
    maxRetriesPerRequest: null,
    // Reconnect within 2 s once Redis is back (BullMQ's default waits up to 20 s between attempts).
    retryStrategy: (attempt: number) => Math.min(200 * attempt, 2000),
  };
}
