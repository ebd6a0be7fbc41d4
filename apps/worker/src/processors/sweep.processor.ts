import { Inject, Injectable, Logger } from '@nestjs/common';
import { sweepExpired, type GenerationContext } from '@ppfile/jobs';
import { GENERATION } from '../tokens';
import type { Processor } from './processor';

/** `sweep` (repeatable): deletes expired objects and marks their records expired (SERVICE.md §3). */
@Injectable()
export class SweepProcessor implements Processor<'sweep'> {
  readonly name = 'sweep' as const;
  private readonly logger = new Logger('sweep');

  constructor(@Inject(GENERATION) private readonly ctx: GenerationContext) {}

  async process(): Promise<{ expired: number }> {
    const expired = await sweepExpired(this.ctx, 500);
    if (expired) this.logger.log(`${expired} expired file(s) deleted`);
    return { expired };
  }
}
