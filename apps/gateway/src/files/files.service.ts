import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Prisma } from '@ppfile/db';
import { newFileId, type Stores } from '@ppfile/db';
import {
  createCsvValidator,
  generateFromRequest,
  generateResponseBody,
  parisDay,
  parseRequest,
  type FileValidationResponse,
  type GeneratedFile,
  type Lang,
} from '@ppfile/rules';
import type { ObjectStorage } from '@ppfile/storage';
import { ApiError } from '../common/api-error';
import type { Principal } from '../common/request-context';
import type { GatewayConfig } from '../config';
import { specVersionOf } from '../declarations/declarations.controller';
import { Clock } from '../infra/clock';
import { ReferenceData } from '../infra/reference-data';
import { CONFIG, STORAGE, STORES } from '../infra/tokens';
import { Quota } from '../limits/quota';
import { rowLimit } from '../limits/row-limit';
import { bodyHash } from './canonical-json';
import { downloadUrl, fileMetadata, isExpired } from './file-metadata';

export interface Reply {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
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
  private readonly logger = new Logger('files');

  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(STORAGE) private readonly storage: ObjectStorage,
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(ReferenceData) private readonly references: ReferenceData,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(Quota) private readonly quota: Quota,
  ) {}

  /**
   * POST /v1/files/generate (SERVICE.md §4.2). With an Idempotency-Key the first request claims the
   * key and its reply is kept; a retry with the same body gets that reply, counted once.
   */
  async generate(principal: Principal, lang: Lang, body: unknown, idempotencyKey: string | undefined): Promise<Reply> {
    const request = parseRequest(body, { lang, maxRows: rowLimit(principal) });
    if (idempotencyKey === undefined) return this.produce(principal, lang, request);

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
      const reply = await this.produce(principal, lang, request);
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

  /** Produces the file: units reserved first, kept only once the file exists (stored or returned). */
  private async produce(principal: Principal, lang: Lang, request: ReturnType<typeof parseRequest>): Promise<Reply> {
    const now = this.clock.now();
    const reservation = await this.quota.reserve(principal, request.rowCount);
    let kept = 0;
    try {
      const file = generateFromRequest(request, {
        refs: this.references.lists(request.spec.version),
        today: parisDay(now),
        generationDay: parisDay(now),
        lang,
      });
      const fileId = newFileId();
      const stored = file.options.store;
      const expiresAt = stored ? new Date(now.getTime() + file.options.retention_hours * 3600_000) : null;
      const objectKey = stored ? `files/${fileId}.csv` : null;
      if (objectKey) await this.storage.put(objectKey, file.content, CSV_TYPE);
      try {
        await this.stores.files.createFileRecord({
          id: fileId,
          organizationId: principal.organization.id,
          apiKeyId: principal.keyId,
          mode: principal.mode,
          status: stored ? 'available' : 'not_stored',
          type: file.type,
          declarant: file.declarant,
          specVersion: file.spec_version,
          filename: file.filename,
          sha256: file.sha256,
          rows: file.rows,
          declarations: file.declarations,
          stored,
          objectKey,
          units: reservation.units,
          createdAt: now,
          expiresAt,
        });
      } catch (e) {
        // No record, no object: nothing is half-written.
        if (objectKey) await this.storage.remove(objectKey).catch(() => undefined);
        throw e;
      }
      kept = reservation.units;
      return { status: 200, body: this.responseBody(file, fileId, principal, expiresAt), replayed: false };
    } finally {
      await this.quota.settle(reservation, kept);
    }
  }

  private responseBody(file: GeneratedFile, fileId: string, principal: Principal, expiresAt: Date | null): Record<string, unknown> {
    return generateResponseBody(file, {
      file_id: fileId,
      mode: principal.mode,
      stored: file.options.store,
      expires_at: expiresAt ? expiresAt.toISOString() : null,
      download_url: file.options.store ? downloadUrl(this.config.publicBaseUrl, fileId) : null,
    });
  }

  /**
   * A replayed reply. The content of a `store: false` file is never kept anywhere: it is produced
   * again from the retried body (the same body, by the idempotency check), and must hash the same.
   */
  private replay(stored: Record<string, unknown>, request: ReturnType<typeof parseRequest>, lang: Lang): Record<string, unknown> {
    if (stored.stored !== false || typeof stored.sha256 !== 'string') return stored;
    const now = this.clock.now();
    const file = generateFromRequest(request, {
      refs: this.references.lists(request.spec.version),
      today: parisDay(now),
      lang,
    });
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
    const version = specVersionOf({ spec_version: fields.spec_version });
    const validator = createCsvValidator(
      {
        type: fields.type ?? '',
        declarant: fields.declarant ?? '',
        spec_version: fields.spec_version,
        strict_references: strict !== 'false',
        filename: upload!.originalname,
      },
      { refs: this.references.lists(version), today: parisDay(this.clock.now()), lang, maxRows: rowLimit(principal) },
    );
    const lines = countDataLines(upload!.buffer);
    if (lines > rowLimit(principal)) {
      throw new ApiError('LINE_LIMIT_EXCEEDED', { limit: rowLimit(principal) }, { limit: rowLimit(principal), rows: lines });
    }
    const reservation = await this.quota.reserve(principal, lines);
    let kept = 0;
    try {
      validator.write(upload!.buffer);
      const result = validator.end();
      kept = result.file_rejected ? 0 : result.rows_total;
      return result;
    } finally {
      await this.quota.settle(reservation, kept);
    }
  }

  /** Deletes expired objects and marks their records expired (SERVICE.md §3); safe to run twice. */
  async sweep(limit = 200): Promise<number> {
    const now = this.clock.now();
    const expired = await this.stores.files.listExpired(now, limit);
    let done = 0;
    for (const record of expired) {
      if (record.objectKey) await this.storage.remove(record.objectKey);
      if (await this.stores.files.markExpired(record.id)) done++;
    }
    await this.stores.idempotency.purgeExpired(now);
    if (done) this.logger.log(`swept ${done} expired file(s)`);
    return done;
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
