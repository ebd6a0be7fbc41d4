import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { FileStore } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import {
  failUnfinishable,
  FileLifecycle,
  FileProduction,
  isDependencyDown,
  type GenerateJobData,
} from '@ppfile/jobs';
import { WORKER_CONFIG, type WorkerConfig } from '../config';
import { OnJob, OnJobFailed } from '../jobs/on-job';
import { GenerationPool } from './generation-pool';

/**
 * `generate`: the large generations the gateway hands off (API.md §8). The job id is the file id;
 * running it twice stores the same object and counts once (libs/jobs FileProduction.runQueued). The result is
 * the file record itself: the waiting request reads it from PostgreSQL.
 */
@Injectable()
export class GenerateProcessor {
  constructor(
    @Inject(FileLifecycle) private readonly lifecycle: FileLifecycle,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(FileProduction) private readonly production: FileProduction,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GenerationPool) private readonly threads: GenerationPool,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  @OnJob('generate')
  async generate(job: Job<GenerateJobData>): Promise<{ status: string; rows?: number }> {
    const final = await this.production.runQueued(job.data.fileId, (task) => this.threads.generate(task));
    // A record that does not exist was never accepted (its transaction rolled back): nothing to do.
    return final ? { status: final.status, rows: final.rows } : { status: 'missing' };
  }

  /**
   * Attempts spent. A dependency that is still down is not the request's fault: while the file's
   * lease runs it stays processing and the reconciler re-creates its job; anything else fails it.
   */
  @OnJobFailed('generate')
  async failedForGood(job: Job<GenerateJobData>, error: Error): Promise<void> {
    const record = await this.files.getFileRecord(job.data.fileId);
    if (!record || record.status !== 'processing') return;
    const leased = !FileLifecycle.outlivedLease(record, this.clock.now(), this.config.processingLeaseSeconds);
    if (isDependencyDown(error) && leased) return;
    await failUnfinishable(this.lifecycle, record);
  }
}
