import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@ppfile/contract';
import { Clock, JobQueue } from '@ppfile/infra';
import { validateInSlices } from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import {
  countDataLines,
  createCsvValidator,
  parisDay,
  resolveKind,
  type FileValidationResponse,
  type FixResponse,
  type Lang,
} from '@ppfile/rules';
import { UploadWork } from '../uploads/upload-work';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import type { UploadForm } from '../uploads/dto/upload-form.dto';
import { rowLimit } from '../limits/row-limit';
import { Units } from '../limits/units';

/**
 * POST /v1/files/validate (SERVICE.md §4.3): the upload is analysed in memory (multer's memory
 * storage), never written to disk; large ones by a worker through Redis (memory too). Units are
 * reserved for the lines the file holds and committed for the rows actually analysed (none when
 * the file is rejected as a whole); a lost job is 503 and counts nothing.
 */
@Injectable()
export class UploadValidation {
  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(Units) private readonly units: Units,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(UploadWork) private readonly work: UploadWork,
  ) {}

  async validate(input: {
    principal: Principal;
    lang: Lang;
    upload: { buffer: Buffer; originalname: string };
    /** Checked by its DTO: a file, a type and a declarant, strict_references true or false. */
    form: UploadForm;
  }): Promise<FileValidationResponse> {
    const { principal, lang, upload, form: fields } = input;
    const limit = rowLimit(principal);
    const today = parisDay(this.clock.now());
    const form = {
      type: fields.type,
      declarant: fields.declarant,
      spec_version: fields.spec_version,
      strict_references: fields.strict_references !== 'false',
      filename: upload.originalname,
    };
    // Built first on both paths: it refuses a wrong type, declarant or spec_version (400) before any
    // unit is reserved or anything is queued.
    const validator = createCsvValidator(form, {
      refs: this.references.listsFor(fields.spec_version),
      today,
      lang,
      maxRows: limit,
    });
    const lines = countDataLines(upload.buffer);
    if (lines > limit) throw new ApiError('LINE_LIMIT_EXCEEDED', { limit }, { limit, rows: lines });
    const reservation = await this.units.reserve(principal, lines);
    let result: FileValidationResponse;
    try {
      if (upload.buffer.length > this.config.queue.validateThresholdBytes) {
        result = await this.queue.validateFile({ ...form, lang, maxRows: limit, today }, upload.buffer, {
          timeoutMs: this.config.queue.waitSeconds * 1000,
        });
      } else {
        result = await validateInSlices(validator, upload.buffer);
      }
    } catch (e) {
      await this.units.release(reservation).catch(() => undefined);
      throw e;
    }
    await this.units.commit(reservation, result.file_rejected ? 0 : result.rows_total);
    return result;
  }

  /**
   * POST /v1/files/fix (API.md §14): the same form and the same count as a validation (one unit per
   * row analysed with a live key, none for a file rejected as a whole), the file fixed and validated
   * again by libs/rules in memory — by a worker or a rules thread when it is large (UploadWork).
   */
  async fix(input: {
    principal: Principal;
    lang: Lang;
    upload: { buffer: Buffer };
    form: UploadForm;
  }): Promise<FixResponse> {
    const { principal, lang, upload, form: fields } = input;
    const limit = rowLimit(principal);
    const form = {
      type: fields.type,
      declarant: fields.declarant,
      spec_version: fields.spec_version,
      strict_references: fields.strict_references !== 'false',
    };
    // A wrong spec_version is refused (400) before any unit is reserved.
    resolveKind(form, lang);
    const lines = countDataLines(upload.buffer);
    if (lines > limit) throw new ApiError('LINE_LIMIT_EXCEEDED', { limit }, { limit, rows: lines });
    const reservation = await this.units.reserve(principal, lines);
    let result: FixResponse;
    try {
      result = await this.work.run(
        { kind: 'fix', form },
        upload.buffer,
        { lang, maxRows: limit, today: parisDay(this.clock.now()) },
        principal.organization.id,
      );
    } catch (e) {
      await this.units.release(reservation).catch(() => undefined);
      throw e;
    }
    const v = result.validation;
    await this.units.commit(reservation, v.file_rejected ? 0 : v.rows_total);
    return result;
  }
}
