import { Inject, Injectable } from '@nestjs/common';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import {
  openUpload,
  PayloadCipher,
  sealAnswer,
  UPLOAD_ANSWER_SECONDS,
  validateInSlices,
  type SealedAnswerRef,
  type SealedUploadJobData,
  type UploadInput,
  type UploadTask,
  type ValidateFileInput,
} from '@ppfile/jobs';
import { createCsvValidator, type FileValidationResponse } from '@ppfile/rules';
import { ReferenceDirectory } from '@ppfile/refdata';
import { OnJob } from '../jobs/on-job';
import { UploadPool } from './upload-pool';
import type { UploadThreadOutcome } from './upload-task';

/**
 * The `validate` queue — large uploads, read from Redis (never from disk), by the same rules as the
 * gateway's: `validate-file` validates a CSV; `import-sheet` and `fix-file` import a spreadsheet or
 * fix a CSV (API.md §14) and answer with the outcome, a refusal as data (the gateway re-throws it).
 * The upload (the form and the file) comes sealed and the answer goes back sealed, under keys that
 * expire (libs/jobs sealed-uploads.ts): the job's data and returnvalue only say where they are.
 *
 * Imports and fixes run in an upload thread, within the upload time budget (UploadPool). A CSV to
 * validate stays on the event loop, in 1 MiB slices: the validator is one linear pass (split on `|`,
 * bounded fields; 16.8 MB in 188 ms, about 12 ms a slice), so the lock renewals and the health port
 * run between slices and no input makes a slice slow; a thread would add a copy of the file and a
 * second path to keep alike with the gateway's streaming validation.
 */
@Injectable()
export class ValidateFileProcessor {
  constructor(
    @Inject(Redis) private readonly redis: Redis,
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(PayloadCipher) private readonly cipher: PayloadCipher,
    @Inject(UploadPool) private readonly uploads: UploadPool,
  ) {}

  @OnJob('validate-file')
  validateFile(job: Job<SealedUploadJobData>): Promise<SealedAnswerRef> {
    return this.answer<ValidateFileInput>(job, async (input, file) => {
      const validation = await this.validateCsv(input, file);
      return [validation, validation.rows_total];
    });
  }

  @OnJob('import-sheet')
  importSheet(job: Job<SealedUploadJobData>): Promise<SealedAnswerRef> {
    return this.answer<UploadInput>(job, (input, file) => this.inThread('import', input, file));
  }

  @OnJob('fix-file')
  fixFile(job: Job<SealedUploadJobData>): Promise<SealedAnswerRef> {
    return this.answer<UploadInput>(job, (input, file) => this.inThread('fix', input, file));
  }

  /**
   * Opens the job's sealed upload, works out its answer and seals it back for the waiting gateway,
   * deleting the upload: the job's return value only says where the answer is, and its row count.
   */
  private async answer<I>(
    job: Job<SealedUploadJobData>,
    work: (
      input: I,
      file: Buffer,
    ) => Promise<[FileValidationResponse | UploadThreadOutcome, number | undefined]>,
  ): Promise<SealedAnswerRef> {
    const { sealed } = job.data;
    if (!sealed) throw new Error('this job names no sealed upload (added by a gateway of another version)');
    const stored = await this.redis.getBuffer(sealed.payloadKey);
    if (!stored) throw new Error('the uploaded file of this job is gone (expired or already done)');
    const upload = openUpload<I>(this.cipher, sealed.payloadKey, stored);
    const [answer, rows] = await work(upload.input, upload.file);
    await this.redis
      .multi()
      .set(sealed.answerKey, sealAnswer(this.cipher, sealed.answerKey, answer), 'EX', UPLOAD_ANSWER_SECONDS)
      .del(sealed.payloadKey)
      .exec();
    return { sealed: sealed.answerKey, rows };
  }

  /** An import or a fix, in an upload thread within the upload time budget (UploadPool). */
  private async inThread(
    kind: UploadTask['kind'],
    d: UploadInput,
    file: Buffer,
  ): Promise<[UploadThreadOutcome, number | undefined]> {
    if (d.kind !== kind)
      throw new Error(`this job's sealed upload is not a${kind === 'import' ? 'n import' : ' fix'}`);
    const task: UploadTask =
      d.kind === 'import' ? { kind: 'import', form: d.form } : { kind: 'fix', form: d.form };
    const outcome = await this.uploads.run(task, file, { lang: d.lang, maxRows: d.maxRows, today: d.today });
    return [outcome, outcome.ok ? rowsOf(outcome.response) : undefined];
  }

  private async validateCsv(d: ValidateFileInput, content: Buffer): Promise<FileValidationResponse> {
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
    // Slices of 1 MiB with a turn of the event loop between them: it stays free to renew the job's lock.
    return validateInSlices(validator, content, 1 << 20);
  }
}

/** The rows an import read or a fix validated: the job line's count (a number, nothing of the file). */
function rowsOf(response: unknown): number | undefined {
  const r = response as { rows_read?: unknown; validation?: { rows_total?: unknown } };
  const n = typeof r.rows_read === 'number' ? r.rows_read : r.validation?.rows_total;
  return typeof n === 'number' ? n : undefined;
}
