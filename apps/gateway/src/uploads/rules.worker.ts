import { workerData } from 'node:worker_threads';
import { ReferenceDirectory } from '@ppfile/refdata';
import { runRulesTask, THREAD_FAILED, type RulesTask, type TaskOutcome } from './rules-task';

/**
 * A thread of the gateway's rules pool (RulesPool, a piscina pool): validates large declaration
 * bodies, imports spreadsheets and fixes CSV files off the event loop that serves every other request. Holds its own reference lists
 * (loaded once per thread).
 */
const references = new ReferenceDirectory(
  (workerData as { referenceDataDir: string | null }).referenceDataDir,
);

/** What piscina calls with each task. */
export default function runInThread(task: RulesTask): TaskOutcome {
  try {
    return runRulesTask(task, references);
  } catch (e) {
    // Only the class crosses to the event loop, not the error itself: its message could quote the request.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${THREAD_FAILED}: ${(e as Error).name ?? 'Error'}`);
  }
}
