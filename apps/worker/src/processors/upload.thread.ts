import { parentPort, workerData } from 'node:worker_threads';
import { uploadOutcome } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';
import {
  UPLOAD_THREAD_FAILED,
  type UploadStarted,
  type UploadThreadOutcome,
  type UploadThreadTask,
} from './upload-task';

/**
 * A thread of the worker's UploadPool (piscina): imports a large spreadsheet or fixes a large CSV
 * (libs/jobs uploadOutcome) off the event loop that renews the jobs' locks, within the upload time
 * budget (the pool stops the thread past it). Holds its own reference lists, loaded with the thread
 * so that the first upload's budget does not pay for them.
 */
const references = new ReferenceDirectory(
  (workerData as { referenceDataDir: string | null }).referenceDataDir,
);
references.lists(CURRENT_SPEC_VERSION);

/** What piscina calls with each task. */
export default function runUploadInThread(job: UploadThreadTask): UploadThreadOutcome {
  parentPort!.postMessage({ uploadStarted: job.token } satisfies UploadStarted);
  try {
    return uploadOutcome(job.task, job.bytes, job.ctx, references);
  } catch (e) {
    // Only the class crosses to the event loop, not the error itself: its message could quote the file.
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`${UPLOAD_THREAD_FAILED}: ${(e as Error).name ?? 'Error'}`);
  }
}
