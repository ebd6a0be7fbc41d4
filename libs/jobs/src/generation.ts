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

/**
 * A generation's CPU work, as plain data (a queued one crosses a thread boundary): the request the
 * gateway parsed, or the body a queued file sealed, which is parsed as the gateway parsed it.
 */
export interface GenerationTask {
  source: { request: DeclarationRequest } | { body: Uint8Array };
  lang: Lang;
  /** Judges the rows (filing deadlines, future dates): epoch ms. */
  today: number;
  /** Dates the file's name: the day the request was accepted, epoch ms. */
  generationDay: number;
}

/** What a generation ends with: the file, or the refusal the request would have had. */
export type GenerationOutcome = { ok: true; file: GeneratedFile } | { ok: false; refused: PlainRequestError };

/** Where a generation's CPU work runs: a worker's thread pool, or inline (`generateFile`). */
export type GenerationRunner = (task: GenerationTask) => Promise<GenerationOutcome>;

/**
 * Generates a file in memory, nothing written: a pure function of its task (a 20,000-row body takes
 * a few hundred milliseconds), run inline or in a worker thread so that the event loop serving the
 * other queues stays free. A refused request is an outcome, not an exception.
 */
export function generateFile(
  task: GenerationTask,
  references: (specVersion: string) => ReferenceLists,
): GenerationOutcome {
  try {
    const request =
      'request' in task.source
        ? task.source.request
        : // Parsed as the gateway parsed it when it accepted the request (a byte-order mark ignored).
          parseRequest(parseJsonBody(task.source.body, task.lang), { lang: task.lang });
    const file = generateFromRequest(request, {
      refs: references(request.spec.version),
      today: parisDay(new Date(task.today)),
      generationDay: parisDay(new Date(task.generationDay)),
      lang: task.lang,
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
