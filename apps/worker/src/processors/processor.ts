import type { Job } from 'bullmq';
import type { JobData, JobName } from '@ppfile/jobs';

/** A processor of one job name. The worker refuses to start if a job name has none. */
export interface Processor<N extends JobName = JobName> {
  readonly name: N;
  process(job: Job<JobData[N]>): Promise<unknown>;
  /** Called once a job has failed for good (attempts spent, or stalled too often), with its last error. */
  failed?(job: Job<JobData[N]>, error: Error): Promise<void>;
}

export const PROCESSORS = Symbol('Processors');
