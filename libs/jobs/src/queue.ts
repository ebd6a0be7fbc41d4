import type { JobsOptions } from 'bullmq';
import type { Lang } from '@ppfile/rules';
import type { SealedUploadKeys } from './sealed-uploads';
import type { UploadContext, UploadTask } from './uploads';

/**
 * The queue, its job names and their data: the one place the gateway (producer) and the worker
 * (consumer) agree on. Job data never holds a request body or a file. A generation's body is kept,
 * sealed, in PostgreSQL until its job ends (FileLifecycle): Redis carries jobs, it is not the record.
 * An upload to validate, import or fix travels through Redis sealed under a short-lived key, and its
 * answer comes back the same way (sealed-uploads.ts; in memory only, SERVICE.md §4.3); if its job is
 * lost the client is told to retry.
 */
export const JOB_NAMES = ['generate', 'validate-file', 'import-sheet', 'fix-file', 'sweep'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/**
 * One queue per kind of work (issue 20), each with its own workers' concurrency
 * (WORKER_CONCURRENCY_<QUEUE>): an interactive upload validation never waits behind generations, and
 * maintenance (the expiry sweep) never behind either. Redis keys: `<QUEUE_PREFIX>:<queue>:…`.
 */
export const QUEUES = {
  generate: ['generate'],
  validate: ['validate-file', 'import-sheet', 'fix-file'],
  maintenance: ['sweep'],
} as const satisfies Record<string, readonly JobName[]>;
export type QueueName = keyof typeof QUEUES;
export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

/** The queue a job name travels on. */
export function queueOf(job: JobName): QueueName {
  return QUEUE_NAMES.find((q) => (QUEUES[q] as readonly JobName[]).includes(job))!;
}

export interface GenerateJobData {
  /** The file record (status processing) this job completes; also the job id. */
  fileId: string;
  /** The accepting request's id: the worker's lines for this job carry it. */
  requestId?: string;
}

/** A CSV to validate: the `validate-file` job's input, sealed with the file (sealed-uploads.ts). */
export interface ValidateFileInput {
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

/**
 * A large spreadsheet to import or CSV to fix (API.md §14): the `import-sheet` / `fix-file` job's
 * input, sealed with the file like a CSV to validate; the worker answers with the task's outcome (its
 * answer, or the refusal as data), sealed too.
 */
export type UploadInput<T extends UploadTask = UploadTask> = T & UploadContext;

/**
 * The data of every job of the `validate` queue, what Bull Board shows: where its sealed input and
 * answer are, and the request's id — nothing of the form or the file. Not `payloadKey` as before: a
 * worker of an earlier version fails such a job (no key) rather than reading ciphertext as a CSV.
 */
export interface SealedUploadJobData {
  sealed: SealedUploadKeys;
  /** The uploading request's id: the worker's lines for this job carry it. */
  requestId?: string;
}

export type SweepJobData = Record<string, never>;

export interface JobData {
  generate: GenerateJobData;
  'validate-file': SealedUploadJobData;
  'import-sheet': SealedUploadJobData;
  'fix-file': SealedUploadJobData;
  sweep: SweepJobData;
}

/**
 * Retries of a generation: exponential from 1 s, capped at 30 s, 10 attempts — about two and a
 * half minutes, enough to outlast a PostgreSQL or object-store outage of two minutes without a
 * client retry. Beyond that the reconciler re-enqueues the file while its lease runs.
 */
export const GENERATE_ATTEMPTS = 10;
export const RETRY_BASE_MS = 1000;
export const RETRY_CAP_MS = 30_000;

export function retryDelayMs(attemptsMade: number): number {
  return Math.min(RETRY_CAP_MS, RETRY_BASE_MS * 2 ** Math.max(0, attemptsMade - 1));
}

/** A worker that dies mid-job leaves it stalled; it is taken over this many times before failing. */
export const MAX_STALLED_COUNT = 5;

export const generateJobId = (fileId: string): string => fileId;

/** The backoff type of ppfile's jobs: the worker computes it (retryDelayMs: exponential, capped). */
export const BACKOFF_TYPE = 'ppfile';

/**
 * How a generation is added, by whoever adds it (the gateway, the reconciler, the legacy queue's
 * drain): the job id is the file id, so adding it twice adds one job.
 */
export function generateJobOptions(fileId: string): JobsOptions {
  return {
    jobId: generateJobId(fileId),
    attempts: GENERATE_ATTEMPTS,
    backoff: { type: BACKOFF_TYPE },
    removeOnComplete: { age: 3600 },
    removeOnFail: { age: 24 * 3600 },
  };
}
