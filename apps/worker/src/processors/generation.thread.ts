import { workerData } from 'node:worker_threads';
import { generateFile, type GenerationOutcome, type GenerationTask } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';

/**
 * A thread of the worker's GenerationPool (piscina): parses a queued generation's body and generates
 * its file off the event loop that runs the other queues' jobs. Holds its own reference lists.
 */
const references = new ReferenceDirectory(
  (workerData as { referenceDataDir: string | null }).referenceDataDir,
);

export default function generate(task: GenerationTask): GenerationOutcome {
  return generateFile(task, (version) => references.lists(version));
}
