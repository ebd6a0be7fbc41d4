import { Inject, Injectable } from '@nestjs/common';
import { JobQueue } from '@ppfile/infra';
import type { UploadContext, UploadResponses, UploadTask } from '@ppfile/jobs';
import { RequestError } from '@ppfile/rules';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RulesPool } from './rules-pool';

/**
 * Where the work on an uploaded spreadsheet or CSV runs (API.md §14 import and fix), as for an upload
 * to validate: a file over VALIDATE_QUEUE_THRESHOLD_BYTES goes to a worker through the `validate`
 * queue (its memory and CPU are a worker's, and workers scale); a smaller one in the gateway, in a
 * rules thread when it is large enough to hold the event loop. The same function everywhere
 * (libs/jobs runUpload); a refusal comes back as the RequestError the inline path throws.
 */
@Injectable()
export class UploadWork {
  constructor(
    @Inject(RulesPool) private readonly rules: RulesPool,
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async run<T extends UploadTask>(
    task: T,
    bytes: Buffer,
    ctx: UploadContext,
  ): Promise<UploadResponses[T['kind']]> {
    if (bytes.length > this.config.queue.validateThresholdBytes) {
      const outcome = await this.queue.runUpload<T>({ ...task, ...ctx }, bytes, {
        timeoutMs: this.config.queue.waitSeconds * 1000,
      });
      if (!outcome.ok) throw RequestError.fromPlain(outcome.refused);
      return outcome.response;
    }
    const answer =
      task.kind === 'import'
        ? await this.rules.run({ kind: 'import', form: task.form, body: bytes, ...ctx })
        : await this.rules.run({ kind: 'fix', form: task.form, body: bytes, ...ctx });
    return answer as UploadResponses[T['kind']];
  }
}
