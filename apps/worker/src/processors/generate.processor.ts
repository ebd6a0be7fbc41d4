import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { FileStore } from '@ppfile/db';
import { Clock, isDependencyDown } from '@ppfile/infra';
import { failUnfinishable, FileLifecycle, runGeneration, type GenerateJobData } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import { WORKER_CONFIG, type WorkerConfig } from '../config';
import { OnJob, OnJobFailed } from '../jobs/on-job';
import { GenerationPool } from './generation-pool';

/**
 * `generate`: the large generations the gateway hands off (API.md §8). The job id is the file id;
 * running it twice stores the same object and counts once (libs/jobs runGeneration). The result is
 * the file record itself: the waiting request reads it from PostgreSQL.
 */
@Injectable()
export class GenerateProcessor {
  constructor(
    @Inject(FileLifecycle) private readonly lifecycle: FileLifecycle,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GenerationPool) private readonly threads: GenerationPool,
    @Inject(WORKER_CONFIG) private readonly config: WorkerConfig,
  ) {}

  @OnJob('generate')
  async generate(job: Job<GenerateJobData>): Promise<{ status: string; rows?: number }> {
    const record = await this.files.getFileRecord(job.data.fileId);
    // A record that does not exist was never accepted (its transaction rolled back): nothing to do.
    if (!record) return { status: 'missing' };
    const final = await runGeneration(this.lifecycle, record, {
      references: (v) => this.references.lists(v),
      now: () => this.clock.now(),
      generate: (task) => this.threads.generate(task),
    });
    return { status: final.status, rows: final.rows };
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
