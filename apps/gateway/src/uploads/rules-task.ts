import type { ReferenceDirectory } from '@ppfile/refdata';
import { runUpload } from '@ppfile/jobs';
import {
  parseJsonBody,
  RequestError,
  validateDeclarations,
  type DeclarationValidationResponse,
  type FixRequest,
  type FixResponse,
  type Lang,
  type PlainRequestError,
} from '@ppfile/rules';
import type { ImportRequest, ImportResult } from '@ppfile/sheets';

/** What every task of the rules knows of its request. */
interface TaskBase {
  lang: Lang;
  maxRows: number;
  /** yyyymmdd, Europe/Paris: the gateway's day. */
  today: number;
}

/**
 * The CPU work of a request, as plain data (it may cross a thread boundary), each with the bytes it
 * reads: a declaration body to validate (JSON, parsed where it is validated), a spreadsheet to import,
 * an official CSV to fix (API.md §14).
 */
export type RulesTask =
  | (TaskBase & { kind: 'validate'; body: Uint8Array })
  | (TaskBase & { kind: 'import'; body: Uint8Array; form: ImportRequest })
  | (TaskBase & { kind: 'fix'; body: Uint8Array; form: FixRequest });

export type TaskKind = RulesTask['kind'];
export type TaskOf<K extends TaskKind> = Extract<RulesTask, { kind: K }>;
export interface TaskResponses {
  validate: DeclarationValidationResponse;
  import: ImportResult;
  fix: FixResponse;
}

/**
 * How the message of an error thrown by a rules thread begins (rules.worker.ts, followed by the
 * class only): the pool tells it from a thread that died.
 */
export const THREAD_FAILED = 'rules thread failed';

/** What a task ends with, as plain data (it crosses a thread boundary). */
export type TaskOutcome<K extends TaskKind = TaskKind> =
  { ok: true; response: TaskResponses[K] } | { ok: false; refused: PlainRequestError };

/** POST /v1/declarations/validate of a parsed body (throws RequestError): the event loop's small bodies and the threads' large ones. */
export function validateBody(
  raw: unknown,
  task: TaskBase,
  references: ReferenceDirectory,
): DeclarationValidationResponse {
  const specVersion = (raw as { spec_version?: unknown } | null)?.spec_version;
  return validateDeclarations(raw, {
    refs: references.listsFor(specVersion),
    today: task.today,
    lang: task.lang,
    maxRows: task.maxRows,
  });
}

/** A task's work (throws RequestError): the same function in a worker thread or inline. */
function work(task: RulesTask, references: ReferenceDirectory): TaskResponses[TaskKind] {
  switch (task.kind) {
    case 'validate':
      return validateBody(parseJsonBody(task.body, task.lang), task, references);
    case 'import':
      return runUpload({ kind: 'import', form: task.form }, task.body, task, references);
    case 'fix':
      return runUpload({ kind: 'fix', form: task.form }, task.body, task, references);
  }
}

/** Runs a task; a refused request is an outcome, not an exception (it crosses threads as data). */
export function runRulesTask<K extends TaskKind>(
  task: TaskOf<K>,
  references: ReferenceDirectory,
): TaskOutcome<K> {
  try {
    return { ok: true, response: work(task, references) as TaskResponses[K] };
  } catch (e) {
    if (e instanceof RequestError) return { ok: false, refused: e.toPlain() };
    throw e;
  }
}
