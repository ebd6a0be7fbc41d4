import { Inject, Injectable, Logger } from '@nestjs/common';
import { FileLifecycle } from '@ppfile/jobs';
import type { Processor } from './processor';

/** `sweep` (repeatable): deletes expired objects and marks their records expired (SERVICE.md §3). */
@Injectable()
export class SweepProcessor implements Processor<'sweep'> {
  readonly name = 'sweep' as const;
  private readonly logger = new Logger('sweep');

  constructor(@Inject(FileLifecycle) private readonly lifecycle: FileLifecycle) {}

  async process(): Promise<{ expired: number }> {
    const expired = await this.lifecycle.sweepExpired(500);
    if (expired) this.logger.log(`${expired} expired file(s) deleted`);
    return { expired };
  }
}
