import type { ReferenceDirectory } from '@ppfile/refdata';
import {
  fixCsv,
  RequestError,
  type createCsvValidator,
  type FileValidationResponse,
  type FixRequest,
  type FixResponse,
  type Lang,
  type PlainRequestError,
  type RulesEnvironment,
} from '@ppfile/rules';
import { importSheet, type ImportRequest, type ImportResult } from '@ppfile/sheets';

/**
 * The work on an uploaded spreadsheet or CSV (API.md §14), one function wherever it runs: inline or
 * in a rules thread of the gateway for most files, in a worker (the `validate` queue) for the large
 * ones. Pure: the bytes in memory in, plain data out (it crosses threads and Redis).
 */
export type UploadTask = { kind: 'import'; form: ImportRequest } | { kind: 'fix'; form: FixRequest };

export interface UploadResponses {
  import: ImportResult;
  fix: FixResponse;
}

export interface UploadContext {
  lang: Lang;
  maxRows: number;
  /** yyyymmdd, Europe/Paris: the gateway's day, so that every path judges dates alike. */
  today: number;
}

/** What a task ends with, as plain data: its answer, or the refusal its request gets. */
export type UploadOutcome<R> = { ok: true; response: R } | { ok: false; refused: PlainRequestError };

export function rulesEnvironment(
  ctx: UploadContext,
  specVersion: unknown,
  references: ReferenceDirectory,
): RulesEnvironment {
  return { refs: references.listsFor(specVersion), today: ctx.today, lang: ctx.lang, maxRows: ctx.maxRows };
}

/** Imports or fixes the bytes (throws RequestError for a refused request). */
export function runUpload<T extends UploadTask>(
  task: T,
  bytes: Uint8Array,
  ctx: UploadContext,
  references: ReferenceDirectory,
): UploadResponses[T['kind']] {
  const env = rulesEnvironment(ctx, task.form.spec_version, references);
  const answer = task.kind === 'import' ? importSheet(bytes, task.form, env) : fixCsv(bytes, task.form, env);
  return answer as UploadResponses[T['kind']];
}

/** runUpload, a refusal returned as data (for a thread or a job). */
export function uploadOutcome<T extends UploadTask>(
  task: T,
  bytes: Uint8Array,
  ctx: UploadContext,
  references: ReferenceDirectory,
): UploadOutcome<UploadResponses[T['kind']]> {
  try {
    return { ok: true, response: runUpload(task, bytes, ctx, references) };
  } catch (e) {
    if (e instanceof RequestError) return { ok: false, refused: e.toPlain() };
    throw e;
  }
}

/**
 * Bytes of a CSV checked between two turns of the event loop: about 1,400 rows, 5–7 ms of CPU here.
 * A file under VALIDATE_QUEUE_THRESHOLD_BYTES is validated in the gateway, on its event loop; in one
 * step, 2 MiB (about 12,000 rows) took 37–59 ms of CPU, and held it longer on a busy machine (issue 32).
 */
export const VALIDATE_SLICE_BYTES = 256 * 1024;

/**
 * A CSV validated in slices of `sliceBytes`, the event loop free between two (setImmediate: the
 * requests waiting meanwhile are served). The validator reads a stream (the CLI gives it 1 MiB at a
 * time), so the answer is the one a single write gives.
 */
export async function validateInSlices(
  validator: ReturnType<typeof createCsvValidator>,
  bytes: Uint8Array,
  sliceBytes = VALIDATE_SLICE_BYTES,
): Promise<FileValidationResponse> {
  for (let at = 0; at < bytes.length; at += sliceBytes) {
    if (at > 0) await new Promise((resolve) => setImmediate(resolve));
    validator.write(bytes.subarray(at, at + sliceBytes));
  }
  return validator.end();
}
