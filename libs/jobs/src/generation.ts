import { ApiError, type ErrorBody } from '@ppfile/contract';
import type { FileRecord } from '@ppfile/db';
import {
  generateFromRequest,
  parisDay,
  parseJsonBody,
  parseRequest,
  RequestError,
  type DeclarationRequest,
  type GeneratedFile,
  type Lang,
  type PlainRequestError,
  type ReferenceLists,
} from '@ppfile/rules';
import type { FileLifecycle } from './lifecycle';

export interface GenerationInput {
  request: DeclarationRequest;
  lang: Lang;
  references: (specVersion: string) => ReferenceLists;
  /** Judges the rows (filing deadlines, future dates). */
  today: Date;
  /** Dates the file's name: the day the request was accepted. */
  generationDay: Date;
}

/** Generates in memory (throws RequestError, e.g. VALIDATION_FAILED): nothing is written yet. */
export function generateInMemory(input: GenerationInput): GeneratedFile {
  return generateFromRequest(input.request, {
    refs: input.references(input.request.spec.version),
    today: parisDay(input.today),
    generationDay: parisDay(input.generationDay),
    lang: input.lang,
  });
}

/** A queued generation's CPU work, as plain data (it may cross a thread boundary): its sealed body, opened. */
export interface GenerationTask {
  body: Uint8Array;
  lang: Lang;
  /** Judges the rows (filing deadlines, future dates): epoch ms. */
  today: number;
  /** Dates the file's name: the day the request was accepted, epoch ms. */
  generationDay: number;
}

/** What a generation's CPU work ends with: the file, or the refusal the request would have had. */
export type GenerationOutcome = { ok: true; file: GeneratedFile } | { ok: false; refused: PlainRequestError };

/**
 * Parses a body and generates its file: the CPU of a generation (a 20,000-row body takes a few hundred
 * milliseconds), a pure function of its input, run inline or in a worker thread (the worker's
 * GenerationPool) so that the event loop serving the other queues stays free.
 */
export function generateFromBody(
  task: GenerationTask,
  references: (specVersion: string) => ReferenceLists,
): GenerationOutcome {
  try {
    // Parsed as the gateway parsed it when it accepted the request (a byte-order mark ignored).
    const request = parseRequest(parseJsonBody(task.body, task.lang), { lang: task.lang });
    const file = generateInMemory({
      request,
      lang: task.lang,
      references,
      today: new Date(task.today),
      generationDay: new Date(task.generationDay),
    });
    return { ok: true, file };
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    return { ok: false, refused: e.toPlain() };
  }
}

/** The error body a refused request gets, in the words of its own language (API.md §6). */
export function refusalBody(error: RequestError, requestId: string): ErrorBody {
  return ApiError.from(error).body('en', requestId);
}

/** A failure retrying cannot fix and that is not the request's fault: INTERNAL_ERROR in the request's language. */
export function internalErrorBody(lang: Lang, requestId: string): ErrorBody {
  return new ApiError('INTERNAL_ERROR').body(lang, requestId);
}

export function serviceUnavailableBody(lang: Lang, requestId: string): ErrorBody {
  return new ApiError('SERVICE_UNAVAILABLE').body(lang, requestId);
}

/**
 * A file that cannot be finished (its lease ran out, its body is gone, its attempts were spent on a
 * fault that is not a dependency's): it fails with INTERNAL_ERROR in its request's language.
 */
export function failUnfinishable(lifecycle: FileLifecycle, record: FileRecord): Promise<boolean> {
  return lifecycle.fail(record.id, internalErrorBody(record.lang, record.requestId));
}

/**
 * A queued generation (the worker's `generate` job), safe to run any number of times: a file no
 * longer processing is left as it is; its sealed body is read from the database (a job re-created
 * after a Redis loss finds it there); invalid rows end it `failed` with the 422 body the request
 * would have had (deterministic: not retried). Dependency failures throw, and the job is retried.
 */
export async function runGeneration(
  lifecycle: FileLifecycle,
  record: FileRecord,
  env: {
    references: (specVersion: string) => ReferenceLists;
    now: () => Date;
    /** Where the CPU work runs (a thread pool); inline by default. */
    generate?: (task: GenerationTask) => Promise<GenerationOutcome>;
  },
): Promise<FileRecord> {
  if (record.status !== 'processing') return record;
  const body = await lifecycle.readBody(record.id);
  if (!body) {
    // Accepted work whose body is gone cannot be resumed: the file fails, its units go back.
    await failUnfinishable(lifecycle, record);
    return record;
  }
  const task: GenerationTask = {
    body,
    lang: record.lang,
    today: env.now().getTime(),
    generationDay: record.createdAt.getTime(),
  };
  const outcome = env.generate ? await env.generate(task) : generateFromBody(task, env.references);
  return produceFile(lifecycle, record, outcome);
}

/**
 * The one way a file is produced, by the gateway (a small request, generated while its client
 * waits) and by the generate processor (a queued one): a processing record and the outcome of its
 * generation end the record `available` (its object stored, its units committed) or `failed` with
 * the refusal its request would have had (units released). Safe to run twice; a dependency that is
 * down throws, and the caller retries or fails the file.
 */
export async function produceFile(
  lifecycle: FileLifecycle,
  record: FileRecord,
  outcome: GenerationOutcome,
): Promise<FileRecord> {
  if (!outcome.ok) {
    await lifecycle.fail(record.id, refusalBody(RequestError.fromPlain(outcome.refused), record.requestId));
    return record;
  }
  const file = outcome.file;
  // The name given when the request was accepted is the file's name (the 202 may have told it).
  return lifecycle.store(record, { ...file, filename: record.filename }, file.options.retention_hours);
}
