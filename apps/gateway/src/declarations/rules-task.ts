import type { ReferenceDirectory } from '@ppfile/refdata';
import {
  parseJsonBody,
  RequestError,
  validateDeclarations,
  type DeclarationValidationResponse,
  type Lang,
  type PlainRequestError,
} from '@ppfile/rules';

/** A declaration body to validate, as its JSON bytes: it is parsed where it is validated. */
export interface ValidateTask {
  body: Uint8Array;
  lang: Lang;
  maxRows: number;
  /** yyyymmdd, Europe/Paris: the gateway's day. */
  today: number;
}

/**
 * How the message of an error thrown by a rules thread begins (rules.worker.ts, followed by the
 * class only): the pool tells it from a thread that died.
 */
export const THREAD_FAILED = 'rules thread failed';

/** What a task ends with, as plain data (it crosses a thread boundary). */
export type TaskOutcome =
  { ok: true; response: DeclarationValidationResponse } | { ok: false; refused: PlainRequestError };

/** POST /v1/declarations/validate of a parsed body (throws RequestError): the event loop's small bodies and the threads' large ones. */
export function validateBody(
  raw: unknown,
  task: Omit<ValidateTask, 'body'>,
  references: ReferenceDirectory,
): DeclarationValidationResponse {
  return validateDeclarations(raw, {
    refs: references.listsFor((raw as { spec_version?: unknown } | null)?.spec_version),
    today: task.today,
    lang: task.lang,
    maxRows: task.maxRows,
  });
}

/** POST /v1/declarations/validate on raw bytes: the same function in a worker thread or inline. */
export function runValidateTask(task: ValidateTask, references: ReferenceDirectory): TaskOutcome {
  try {
    const raw = parseJsonBody(task.body, task.lang);
    return { ok: true, response: validateBody(raw, task, references) };
  } catch (e) {
    if (e instanceof RequestError) return { ok: false, refused: e.toPlain() };
    throw e;
  }
}
