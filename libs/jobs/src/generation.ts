import { ApiError, type ErrorBody } from '@ppfile/contract';
import type { FileRecord } from '@ppfile/db';
import {
  generateFromRequest,
  parisDay,
  parseRequest,
  RequestError,
  type DeclarationRequest,
  type GeneratedFile,
  type Lang,
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
  return lifecycle.fail(record.id, internalErrorBody(langOf(record), record.requestId));
}

/** The language the accepting request asked for, as kept with its file. */
export function langOf(record: FileRecord): Lang {
  return record.lang === 'fr' ? 'fr' : 'en';
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
  env: { references: (specVersion: string) => ReferenceLists; now: () => Date },
): Promise<FileRecord> {
  if (record.status !== 'processing') return record;
  const lang = langOf(record);
  const body = await lifecycle.readBody(record.id);
  if (!body) {
    // Accepted work whose body is gone cannot be resumed: the file fails, its units go back.
    await failUnfinishable(lifecycle, record);
    return record;
  }
  let file: GeneratedFile;
  try {
    const request = parseRequest(JSON.parse(body.toString('utf8')), { lang });
    file = generateInMemory({
      request,
      lang,
      references: env.references,
      today: env.now(),
      generationDay: record.createdAt,
    });
  } catch (e) {
    if (!(e instanceof RequestError)) throw e;
    await lifecycle.fail(record.id, refusalBody(e, record.requestId));
    return record;
  }
  // The name given when the request was accepted is the file's name (the 202 may have told it).
  return lifecycle.store(record, { ...file, filename: record.filename }, file.options.retention_hours);
}
