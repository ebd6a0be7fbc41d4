import { Inject, Injectable } from '@nestjs/common';
import { JobQueue } from '@ppfile/infra';
import type { UploadContext, UploadResponses, UploadTask } from '@ppfile/jobs';
import { RequestError } from '@ppfile/rules';
import { expandedSize } from '@ppfile/sheets';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { RulesPool } from './rules-pool';

/**
 * Where the work on an uploaded spreadsheet or CSV runs (API.md §14 import and fix), chosen from
 * the work, not the upload's size (issue 32: 5 KB of zip expanded to 324 MB of answer): a file that
 * expands past VALIDATE_QUEUE_THRESHOLD_BYTES — a CSV's own size, a workbook's parts as its zip
 * directory claims them, read before anything is inflated (libs/sheets expandedSize) — goes to a
 * worker through the `validate` queue (its memory and CPU are a worker's, and workers scale); a
 * smaller one to a rules thread of the gateway, shared fairly between organizations and stopped
 * past its time budget (RulesPool). The same function everywhere (libs/jobs runUpload); a refusal
 * comes back as the RequestError the inline path throws.
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
    owner: string,
  ): Promise<UploadResponses[T['kind']]> {
    if (expandedSize(bytes) > this.config.queue.validateThresholdBytes) {
      const outcome = await this.queue.runUpload<T>({ ...task, ...ctx }, bytes, {
        timeoutMs: this.config.queue.waitSeconds * 1000,
      });
      if (!outcome.ok) throw RequestError.fromPlain(outcome.refused);
      return outcome.response;
    }
    const answer =
      task.kind === 'import'
        ? await this.rules.run({ kind: 'import', form: task.form, body: bytes, ...ctx }, owner)
        : await this.rules.run({ kind: 'fix', form: task.form, body: bytes, ...ctx }, owner);
    return answer as UploadResponses[T['kind']];
  }
}
