import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import type { Stores } from '@ppfile/db';
import {
  failGeneration,
  generatePayloadKey,
  runGeneration,
  type GenerateJobData,
  type GenerationContext,
  type GenerationOutcome,
  PayloadStore,
} from '@ppfile/jobs';
import { parseRequest, requestErrorMessage } from '@ppfile/rules';
import { GENERATION, STORES } from '../tokens';
import type { Processor } from './processor';

/**
 * `generate`: the large generations the gateway hands off (API.md §8). The job id is the file id;
 * running it twice stores the same object and counts once (libs/jobs runGeneration).
 */
@Injectable()
export class GenerateProcessor implements Processor<'generate'> {
  readonly name = 'generate' as const;

  constructor(
    @Inject(GENERATION) private readonly ctx: GenerationContext,
    @Inject(STORES) private readonly stores: Stores,
    @Inject(PayloadStore) private readonly payloads: PayloadStore,
  ) {}

  async process(job: Job<GenerateJobData>): Promise<GenerationOutcome> {
    const { fileId, lang, requestId } = job.data;
    const record = await this.stores.files.getFileRecord(fileId);
    if (!record) throw new Error(`file record ${fileId} not found`);
    const payload = await this.payloads.get(generatePayloadKey(fileId));
    if (!payload) {
      if (record.status === 'processing') await this.fail(job, 'payload expired');
      throw new Error('the request body of this job is gone (expired or already done)');
    }
    const request = parseRequest(JSON.parse(payload.toString('utf8')), { lang });
    const outcome = await runGeneration(this.ctx, fileId, request, lang, requestId);
    await this.payloads.remove(generatePayloadKey(fileId));
    return outcome;
  }

  async failed(job: Job<GenerateJobData>): Promise<void> {
    await this.payloads.remove(generatePayloadKey(job.data.fileId));
    await this.fail(job, 'failed');
  }

  /** Ends the file `failed`, its units given back; the error is the one the request would have had. */
  private async fail(job: Job<GenerateJobData>, _why: string): Promise<void> {
    const record = await this.stores.files.getFileRecord(job.data.fileId);
    if (!record || record.status !== 'processing') return;
    const { lang, requestId } = job.data;
    await failGeneration(this.ctx, record, {
      error: { code: 'INTERNAL_ERROR', message: requestErrorMessage('INTERNAL_ERROR', lang, {}), details: {}, request_id: requestId },
    });
  }
}
