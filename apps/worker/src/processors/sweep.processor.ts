import { Inject, Logger } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import { FileLifecycle } from '@ppfile/jobs';
import { JobHost } from './job-host';

/** The `maintenance` queue — `sweep` (repeatable): deletes expired objects and marks their records expired (SERVICE.md §3). */
@Processor('maintenance')
export class SweepProcessor extends JobHost {
  static override readonly handles = ['sweep'] as const;
  private readonly sweepLogger = new Logger('sweep');

  constructor(@Inject(FileLifecycle) private readonly lifecycle: FileLifecycle) {
    super();
  }

  protected async handle(): Promise<{ expired: number }> {
    const expired = await this.lifecycle.sweepExpired(500);
    if (expired) this.sweepLogger.log(`${expired} expired file(s) deleted`);
    return { expired };
  }
}
