import { Inject, Injectable, Logger } from '@nestjs/common';
import { FileLifecycle } from '@ppfile/jobs';
import { OnJob } from '../jobs/on-job';

/** The `maintenance` queue — `sweep` (repeatable): deletes expired objects and marks their records expired (SERVICE.md §3). */
@Injectable()
export class SweepProcessor {
  private readonly sweepLogger = new Logger('sweep');

  constructor(@Inject(FileLifecycle) private readonly lifecycle: FileLifecycle) {}

  @OnJob('sweep')
  async sweep(): Promise<{ expired: number }> {
    const expired = await this.lifecycle.sweepExpired(500);
    if (expired) this.sweepLogger.log(`${expired} expired file(s) deleted`);
    return { expired };
  }
}
