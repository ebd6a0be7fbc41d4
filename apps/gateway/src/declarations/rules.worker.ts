import { parentPort, workerData } from 'node:worker_threads';
import { ReferenceDirectory } from '@ppfile/refdata';
import { runValidateTask, type ValidateTask } from './rules-task';

/**
 * A thread of the gateway's rules pool (RulesPool): validates large declaration bodies off the
 * event loop that serves every other request. Holds its own reference lists (loaded once).
 */
const references = new ReferenceDirectory(
  (workerData as { referenceDataDir: string | null }).referenceDataDir,
);

parentPort!.on('message', (message: { id: number; task: ValidateTask }) => {
  try {
    parentPort!.postMessage({ id: message.id, outcome: runValidateTask(message.task, references) });
  } catch (e) {
    // Only the class: a message could quote the request.
    parentPort!.postMessage({ id: message.id, failure: (e as Error).name ?? 'Error' });
  }
});
