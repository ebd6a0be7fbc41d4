import { Inject } from '@nestjs/common';
import { Processor } from '@nestjs/bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import { uploadOutcome, type UploadJobData, type ValidateFileJobData } from '@ppfile/jobs';
import { createCsvValidator, type FileValidationResponse } from '@ppfile/rules';
import { ReferenceDirectory } from '@ppfile/refdata';
import { JobHost } from './job-host';

/**
 * The `validate` queue — large uploads, read from Redis (never from disk), by the same rules as the
 * gateway's: `validate-file` validates a CSV; `import-sheet` and `fix-file` import a spreadsheet or
 * fix a CSV (API.md §14) and answer with the outcome, a refusal as data (the gateway re-throws it).
 */
@Processor('validate')
export class ValidateFileProcessor extends JobHost {
  static override readonly handles = ['validate-file', 'import-sheet', 'fix-file'] as const;

  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
  ) {
    super();
  }

  protected async handle(job: Job): Promise<unknown> {
    if (job.name === 'validate-file') return this.validateFile(job as Job<ValidateFileJobData>);
    const d = (job as Job<UploadJobData>).data;
    const content = await this.redis.getBuffer(d.payloadKey);
    if (!content) throw new Error('the uploaded file of this job is gone (expired or already done)');
    const outcome = uploadOutcome(d, content, d, this.references);
    await this.redis.del(d.payloadKey);
    return outcome;
  }

  private async validateFile(job: Job<ValidateFileJobData>): Promise<FileValidationResponse> {
    const d = job.data;
    const content = await this.redis.getBuffer(d.payloadKey);
    if (!content) throw new Error('the uploaded file of this job is gone (expired or already done)');
    const validator = createCsvValidator(
      {
        type: d.type,
        declarant: d.declarant,
        spec_version: d.spec_version,
        strict_references: d.strict_references,
        filename: d.filename,
      },
      { refs: this.references.listsFor(d.spec_version), today: d.today, lang: d.lang, maxRows: d.maxRows },
    );
    // Chunks of 1 MiB with a pause between them: the event loop stays free to renew the job's lock.
    for (let offset = 0; offset < content.length; offset += 1 << 20) {
      validator.write(content.subarray(offset, offset + (1 << 20)));
      await new Promise((resolve) => setImmediate(resolve));
    }
    const result = validator.end();
    await this.redis.del(d.payloadKey);
    return result;
  }
}
