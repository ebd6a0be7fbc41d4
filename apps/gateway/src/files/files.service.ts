import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { newFileId, type Prisma, type Stores } from '@ppfile/db';
import {
  failGeneration,
  generateInMemory,
  objectKeyOf,
  outcomeOf,
  type GenerationContext,
  type GenerationOutcome,
  type ProducedOutcome,
} from '@ppfile/jobs';
import {
  createCsvValidator,
  generatedFileName,
  generateResponseBody,
  parisDay,
  parseRequest,
  RequestError,
  requestErrorMessage,
  type DeclarationRequest,
  type FileValidationResponse,
  type Lang,
  type RequestErrorCode,
} from '@ppfile/rules';
import type { ObjectStorage } from '@ppfile/storage';
import { ApiError } from '../common/api-error';
import type { Principal } from '../common/request-context';
import type { GatewayConfig } from '../config';
import { Clock } from '../infra/clock';
import { JobQueue } from '../infra/job-queue';
import { ReferenceDirectory } from '@ppfile/refdata';
import { CONFIG, STORAGE, STORES } from '../infra/tokens';
import { Quota } from '../limits/quota';
import { rowLimit } from '../limits/row-limit';
import { bodyHash } from './canonical-json';
import { downloadUrl, fileMetadata, isExpired } from './file-metadata';

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
  /** For 202: where the file's status is read. */
  location?: string;
}

export interface CallOptions {
  requestId: string;
  /** `Prefer: respond-async` (API.md §8). */
  respondAsync: boolean;
}

/** The error a failed file record holds (API.md §7), as a request error to answer with. */
function failedError(stored: unknown): RequestError {
  const e = (stored as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | null)?.error;
  return new RequestError((e?.code ?? 'INTERNAL_ERROR') as RequestErrorCode, e?.message ?? 'failed', e?.details);
}

export interface UploadFields {
  type?: string;
  declarant?: string;
  strict_references?: string;
  spec_version?: string;
}

const CSV_TYPE = 'text/csv; charset=utf-8';

@Injectable()
export class FilesService {

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(STORAGE) private readonly storage: ObjectStorage,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(Quota) private readonly quota: Quota,
    @Inject(JobQueue) private readonly queue: JobQueue,
  ) {
    this.generation = {
      stores,
      storage,
      references: (version) => references.lists(version),
      now: () => clock.now(),
    };
  }

  private readonly generation: GenerationContext;

  /**
   * POST /v1/files/generate (SERVICE.md §4.2). With an Idempotency-Key the first request claims the
   * key and its reply is kept; a retry with the same body gets that reply, counted once.
   */
  async generate(principal: Principal, lang: Lang, body: unknown, idempotencyKey: string | undefined, call: CallOptions): Promise<Reply> {
    const request = parseRequest(body, { lang, maxRows: rowLimit(principal) });
    if (idempotencyKey === undefined) return this.produce(principal, lang, request, body, call);

    const hash = bodyHash(body);
    const begun = await this.stores.idempotency.beginIdempotent(principal.keyId, idempotencyKey, hash, this.clock.now());
    switch (begun.state) {
      case 'mismatch':
        throw new ApiError('IDEMPOTENCY_KEY_REUSED');
      case 'in_progress':
        throw new ApiError('IDEMPOTENCY_IN_PROGRESS');
      case 'completed':
        return { status: begun.status, body: this.replay(begun.body as Record<string, unknown>, request, lang), replayed: true };
    }
    try {
      const reply = await this.produce(principal, lang, request, body, call);
      // The CSV itself is never kept for replay (store: false means written nowhere).
      const kept = { ...reply.body };
      delete kept.content;
      await this.stores.idempotency.completeIdempotent(
        principal.keyId,
        idempotencyKey,
        reply.status,
        kept as Prisma.InputJsonValue,
        reply.body.file_id as string,
      );
      return reply;
    } catch (e) {
      // A failed request keeps nothing: the same key may be retried.
      await this.stores.idempotency.abandonIdempotent(principal.keyId, idempotencyKey).catch(() => undefined);
      throw e;
    }
  }

  /**
   * Produces the file: units reserved first, kept only once the file exists. Small requests are
   * produced here; large ones (stored files over the threshold) by a worker, through the queue, the
   * same code either way (libs/jobs). `store: false` always stays here: its bytes come back in the
   * answer, and must not travel through Redis.
   */
  private async produce(
    principal: Principal,
    lang: Lang,
    request: DeclarationRequest,
    body: unknown,
    call: CallOptions,
  ): Promise<Reply> {
    const now = this.clock.now();
    const reservation = await this.quota.reserve(principal, request.rowCount);
    let kept = 0;
    try {
      if (request.options.store && request.rowCount > this.config.queue.generateThresholdRows) {
        const reply = await this.produceByWorker(principal, lang, request, body, call, now, reservation.units);
        // From the record's creation on, its units are the worker's to keep or give back.
        kept = reservation.units;
        return reply;
      }
      const file = generateInMemory(this.generation, request, lang, now);
      const fileId = newFileId();
      const stored = file.options.store;
      const expiresAt = stored ? new Date(now.getTime() + file.options.retention_hours * 3600_000) : null;
      const objectKey = stored ? objectKeyOf(fileId) : null;
      if (objectKey) await this.storage.put(objectKey, file.content, CSV_TYPE);
      try {
        await this.stores.files.createFileRecord({
          ...this.recordOf(principal, request, fileId, file.filename, reservation.units, now),
          status: stored ? 'available' : 'not_stored',
          sha256: file.sha256,
          rows: file.rows,
          declarations: file.declarations,
          objectKey,
          expiresAt,
        });
      } catch (e) {
        // No record, no object: nothing is half-written.
        if (objectKey) await this.storage.remove(objectKey).catch(() => undefined);
        throw e;
      }
      kept = reservation.units;
      return { status: 200, body: this.responseBody(outcomeOf(file, expiresAt), fileId, file.filename, principal, file.content), replayed: false };
    } finally {
      await this.quota.settle(reservation, kept);
    }
  }

  private async produceByWorker(
    principal: Principal,
    lang: Lang,
    request: DeclarationRequest,
    body: unknown,
    call: CallOptions,
    now: Date,
    units: number,
  ): Promise<Reply> {
    const fileId = newFileId();
    const filename = generatedFileName(request.type, parisDay(now), randomBytes(4).toString('hex'));
    const record = await this.stores.files.createFileRecord({
      ...this.recordOf(principal, request, fileId, filename, units, now),
      status: 'processing',
      rows: request.rowCount,
      declarations: request.declarations.length,
    });
    let job;
    try {
      job = await this.queue.enqueueGenerate({ fileId, lang, requestId: call.requestId }, JSON.stringify(body));
    } catch (e) {
      const error = { code: 'SERVICE_UNAVAILABLE', message: requestErrorMessage('SERVICE_UNAVAILABLE', lang, {}), details: {}, request_id: call.requestId };
      await failGeneration(this.generation, record, { error }).catch(() => undefined);
      throw e;
    }
    if (call.respondAsync) {
      return { status: 202, body: { file_id: fileId, status: 'processing' }, replayed: false, location: `/v1/files/${fileId}` };
    }
    let outcome: GenerationOutcome;
    try {
      outcome = await this.queue.waitGenerate(job, this.config.queue.waitSeconds * 1000);
    } catch (e) {
      const current = await this.stores.files.getFileRecord(fileId);
      if (current?.status === 'failed') throw failedError(current.error);
      if (current?.status === 'processing') {
        // Still running past the wait: answer as the asynchronous mode would.
        return { status: 202, body: { file_id: fileId, status: 'processing' }, replayed: false, location: `/v1/files/${fileId}` };
      }
      throw e;
    }
    if (outcome.status === 'failed') throw new RequestError(outcome.error.code as RequestErrorCode, outcome.error.message, outcome.error.details);
    return { status: 200, body: this.responseBody(outcome, fileId, filename, principal, null), replayed: false };
  }

  private recordOf(principal: Principal, request: DeclarationRequest, id: string, filename: string, units: number, now: Date) {
    return {
      id,
      organizationId: principal.organization.id,
      apiKeyId: principal.keyId,
      mode: principal.mode,
      type: request.type,
      declarant: request.declarant,
      specVersion: request.spec.version,
      filename,
      stored: request.options.store,
      units,
      createdAt: now,
    };
  }

  private responseBody(
    outcome: ProducedOutcome,
    fileId: string,
    filename: string,
    principal: Principal,
    content: Buffer | null,
  ): Record<string, unknown> {
    const stored = outcome.status === 'available';
    return generateResponseBody(
      { ...outcome, filename, content },
      {
        file_id: fileId,
        mode: principal.mode,
        stored,
        expires_at: outcome.expires_at,
        download_url: stored ? downloadUrl(this.config.publicBaseUrl, fileId) : null,
      },
    );
  }

  /**
   * A replayed reply. The content of a `store: false` file is never kept anywhere: it is produced
   * again from the retried body (the same body, by the idempotency check), and must hash the same.
   */
  private replay(stored: Record<string, unknown>, request: DeclarationRequest, lang: Lang): Record<string, unknown> {
    if (stored.stored !== false || typeof stored.sha256 !== 'string') return stored;
    const file = generateInMemory(this.generation, request, lang, this.clock.now());
    if (file.sha256 !== stored.sha256) throw new Error('replayed content differs from the original');
    return { ...stored, content: file.content.toString('utf8') };
  }

  async metadata(principal: Principal, id: string): Promise<Record<string, unknown>> {
    const record = await this.ownRecord(principal, id);
    return fileMetadata(record, this.clock.now(), this.config.publicBaseUrl);
  }

  /** GET /v1/files/{id}/download: only for the key that created the file (SERVICE.md §4.5). */
  async download(principal: Principal, id: string): Promise<{ filename: string; sha256: string; content: Buffer }> {
    const record = await this.ownRecord(principal, id);
    if (!record.stored || record.status === 'not_stored') throw new ApiError('FILE_NOT_STORED');
    const retention = record.expiresAt ? Math.round((record.expiresAt.getTime() - record.createdAt.getTime()) / 3600_000) : 24;
    if (isExpired(record, this.clock.now()) || !record.objectKey) throw new ApiError('FILE_EXPIRED', { limit: retention });
    if (record.status !== 'available') throw new ApiError('NOT_FOUND');
    const content = await this.storage.get(record.objectKey);
    return { filename: record.filename, sha256: record.sha256 ?? '', content };
  }

  private async ownRecord(principal: Principal, id: string) {
    const record = /^file_[0-9a-f]{32}$/.test(id) ? await this.stores.files.getFileRecord(id) : null;
    // A file of another key answers exactly like a missing one: existence is not revealed.
    if (!record || record.apiKeyId !== principal.keyId) throw new ApiError('NOT_FOUND');
    return record;
  }

  /**
   * POST /v1/files/validate (SERVICE.md §4.3): the upload is analysed in memory (multer's memory
   * storage), never written to disk. Units are reserved for the lines the file holds and settled
   * to the rows actually analysed (none when the file is rejected as a whole).
   */
  async validateUpload(
    principal: Principal,
    lang: Lang,
    upload: { buffer: Buffer; originalname: string } | undefined,
    fields: UploadFields,
  ): Promise<FileValidationResponse> {
    const problems: { field: string; message: string }[] = [];
    if (!upload) problems.push({ field: 'file', message: lang === 'fr' ? 'est obligatoire' : 'is required' });
    const strict = fields.strict_references;
    if (strict !== undefined && strict !== 'true' && strict !== 'false') {
      problems.push({ field: 'strict_references', message: 'true | false' });
    }
    if (problems.length) throw new ApiError('INVALID_REQUEST', { count: problems.length }, { fields: problems });
    // Built first on both paths: it refuses a wrong type, declarant or spec_version (400) before any
    // unit is reserved or anything is queued.
    const validator = createCsvValidator(
      {
        type: fields.type ?? '',
        declarant: fields.declarant ?? '',
        spec_version: fields.spec_version,
        strict_references: strict !== 'false',
        filename: upload!.originalname,
      },
      { refs: this.references.listsFor(fields.spec_version), today: parisDay(this.clock.now()), lang, maxRows: rowLimit(principal) },
    );
    const lines = countDataLines(upload!.buffer);
    const limit = rowLimit(principal);
    if (lines > limit) throw new ApiError('LINE_LIMIT_EXCEEDED', { limit }, { limit, rows: lines });
    const reservation = await this.quota.reserve(principal, lines);
    let kept = 0;
    try {
      let result: FileValidationResponse;
      if (upload!.buffer.length > this.config.queue.validateThresholdBytes) {
        result = await this.queue.validateFile(
          {
            payloadKey: `validate:${randomBytes(16).toString('hex')}`,
            type: fields.type ?? '',
            declarant: fields.declarant ?? '',
            spec_version: fields.spec_version,
            strict_references: strict !== 'false',
            filename: upload!.originalname,
            lang,
            maxRows: limit,
            today: parisDay(this.clock.now()),
          },
          upload!.buffer,
          this.config.queue.waitSeconds * 1000,
        );
      } else {
        validator.write(upload!.buffer);
        result = validator.end();
      }
      kept = result.file_rejected ? 0 : result.rows_total;
      return result;
    } finally {
      await this.quota.settle(reservation, kept);
    }
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
