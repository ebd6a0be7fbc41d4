import { Inject, Injectable } from '@nestjs/common';
import { ApiError, REQUEST_FIELD_PROBLEMS } from '@ppfile/contract';
import { Clock, JobQueue } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import { createCsvValidator, parisDay, type FileValidationResponse, type Lang } from '@ppfile/rules';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { rowLimit } from '../limits/row-limit';
import { Units } from '../limits/units';

export interface UploadFields {
  type?: string;
  declarant?: string;
  strict_references?: string;
  spec_version?: string;
}

/** The form fields of an upload besides `file`; any other is refused, as an unknown JSON field is. */
const UPLOAD_FIELDS: ReadonlySet<string> = new Set([
  'type',
  'declarant',
  'strict_references',
  'spec_version',
]);

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
  ) {}

  async validate(input: {
    principal: Principal;
    lang: Lang;
    upload: { buffer: Buffer; originalname: string } | undefined;
    fields: UploadFields;
  }): Promise<FileValidationResponse> {
    const { principal, lang, upload, fields } = input;
    const problems: { field: string; message: string }[] = [];
    if (!upload) problems.push({ field: 'file', message: REQUEST_FIELD_PROBLEMS.required[lang] });
    for (const name of Object.keys(fields))
      if (!UPLOAD_FIELDS.has(name))
        problems.push({ field: name, message: REQUEST_FIELD_PROBLEMS.unknown[lang] });
    const strict = fields.strict_references;
    if (strict !== undefined && strict !== 'true' && strict !== 'false') {
      problems.push({
        field: 'strict_references',
        message: `${REQUEST_FIELD_PROBLEMS.one_of[lang]}: true, false`,
      });
    }
    if (problems.length || !upload) {
      throw new ApiError(
        'INVALID_REQUEST',
        { count: problems.length },
        { fields: problems, field_count: problems.length },
      );
    }
    const limit = rowLimit(principal);
    const today = parisDay(this.clock.now());
    const form = {
      type: fields.type ?? '',
      declarant: fields.declarant ?? '',
      spec_version: fields.spec_version,
      strict_references: strict !== 'false',
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
        validator.write(upload.buffer);
        result = validator.end();
      }
    } catch (e) {
      await this.units.release(reservation).catch(() => undefined);
      throw e;
    }
    await this.units.commit(reservation, result.file_rejected ? 0 : result.rows_total);
    return result;
  }
}

/** Lines after the header: an upper bound of the rows, known before any analysis (for the quota). */
export function countDataLines(bytes: Buffer): number {
  if (bytes.length === 0) return 0;
  let lines = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  if (bytes[bytes.length - 1] !== 10) lines++;
  return Math.max(0, lines - 1);
}
