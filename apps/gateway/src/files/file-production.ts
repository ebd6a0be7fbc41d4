import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  ApiError,
  generateResponseBody,
  newFileId,
  type FileSummary,
  type GenerateResponseBody,
} from '@ppfile/contract';
import { FileStore, type FileRecord } from '@ppfile/db';
import { Clock, isDependencyDown, JobQueue } from '@ppfile/infra';
import {
  FileLifecycle,
  generateInMemory,
  internalErrorBody,
  produceFile,
  type ClaimRef,
  serviceUnavailableBody,
  summaryOfRecord,
} from '@ppfile/jobs';
import { ReferenceDirectory } from '@ppfile/refdata';
import {
  generatedFileName,
  parisDay,
  type DeclarationRequest,
  type GeneratedFile,
  type Lang,
} from '@ppfile/rules';
import { Draining } from '../common/draining';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { Units, type Reservation } from '../limits/units';
import { downloadUrl } from './file-metadata';
import { processingReply, type CallOptions, type Reply } from './reply';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Produces a generated file: units reserved first, committed once the file exists, released
 * otherwise (the ledger does each once). Small requests are produced here, large stored ones by a
 * worker through the queue; both through the same lifecycle (libs/jobs FileLifecycle). `store:
 * false` always stays here: its bytes come back in the answer and must not travel anywhere.
 */
@Injectable()
export class FileProduction {
  constructor(
    @Inject(FileLifecycle) private readonly lifecycle: FileLifecycle,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(JobQueue) private readonly queue: JobQueue,
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Units) private readonly units: Units,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(Draining) private readonly draining: Draining,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async produce(input: {
    principal: Principal;
    lang: Lang;
    request: DeclarationRequest;
    rawBody: Buffer;
    call: CallOptions;
    claim: ClaimRef | null;
  }): Promise<Reply> {
    const { principal, request } = input;
    const reservation = await this.units.reserve(principal, request.rowCount, { produces: true });
    if (request.options.store && request.rowCount > this.config.queue.generateThresholdRows) {
      return this.byJob({ ...input, reservation });
    }
    return this.inProcess({ ...input, reservation });
  }

  private async inProcess(input: {
    principal: Principal;
    lang: Lang;
    request: DeclarationRequest;
    call: CallOptions;
    claim: ClaimRef | null;
    reservation: Reservation;
  }): Promise<Reply> {
    const { principal, lang, request, reservation } = input;
    const now = this.clock.now();
    let file: GeneratedFile;
    let record: FileRecord;
    try {
      file = generateInMemory({
        request,
        lang,
        references: (v) => this.references.lists(v),
        today: now,
        generationDay: now,
      });
      const base = this.recordOf({
        principal,
        request,
        id: newFileId(),
        filename: file.filename,
        reservation,
        now,
        lang,
        requestId: input.call.requestId,
      });
      if (!request.options.store) {
        // Its units are committed with the record: the claim points at it in the same transaction,
        // so a retry after a crash here is answered from it (content made again), not counted twice.
        await this.lifecycle.recordNotStored({
          record: { ...base, rows: file.rows, declarations: file.declarations },
          reservationId: reservation?.reservationId ?? null,
          file,
          claim: input.claim,
        });
        return this.reply({
          fileId: base.id,
          principal,
          summary: { ...file, content: file.content },
          stored: false,
          expiresAt: null,
        });
      }
      record = await this.lifecycle.open({
        record: { ...base, rows: file.rows, declarations: file.declarations },
        reservationId: reservation?.reservationId ?? null,
      });
    } catch (e) {
      // Nothing was accepted: the units go back (once, whoever else tries).
      await this.units.release(reservation).catch(() => undefined);
      throw e;
    }
    let final: FileRecord;
    try {
      final = await produceFile(this.lifecycle, record, { ok: true, file });
    } catch (e) {
      // No object and no available record: the file fails, its units go back (or the reconciler does it).
      const error = isDependencyDown(e)
        ? serviceUnavailableBody(lang, input.call.requestId)
        : internalErrorBody(lang, input.call.requestId);
      await this.lifecycle.fail(record.id, error).catch(() => undefined);
      throw e;
    }
    return this.reply({
      fileId: final.id,
      principal,
      summary: file,
      stored: true,
      expiresAt: final.expiresAt,
    });
  }

  private async byJob(input: {
    principal: Principal;
    lang: Lang;
    request: DeclarationRequest;
    rawBody: Buffer;
    call: CallOptions;
    claim: ClaimRef | null;
    reservation: Reservation;
  }): Promise<Reply> {
    const { principal, lang, request, call, reservation } = input;
    const now = this.clock.now();
    const fileId = newFileId();
    const filename = generatedFileName(request.type, parisDay(now), randomBytes(4).toString('hex'));
    try {
      await this.lifecycle.open({
        record: {
          ...this.recordOf({
            principal,
            request,
            id: fileId,
            filename,
            reservation,
            now,
            lang,
            requestId: call.requestId,
          }),
          rows: request.rowCount,
          declarations: request.declarations.length,
        },
        reservationId: reservation?.reservationId ?? null,
        body: input.rawBody,
        claim: input.claim,
      });
    } catch (e) {
      await this.units.release(reservation).catch(() => undefined);
      throw e;
    }
    // From here the work is durable (its body is in PostgreSQL, its claim points at it): the file
    // ends available or failed, and a retry of the request is answered from it.
    try {
      await this.queue.enqueueGenerate(fileId);
    } catch (e) {
      await this.lifecycle.fail(fileId, serviceUnavailableBody(lang, call.requestId)).catch(() => undefined);
      throw e;
    }
    if (call.respondAsync) return processingReply(fileId);
    return this.awaitFile({ principal, fileId, timeoutMs: this.config.queue.waitSeconds * 1000 });
  }

  /**
   * Waits for a queued file by reading its record (PostgreSQL is the record, not Redis): the answer
   * it ends with, its 422, or — past the wait, or when the gateway drains — 202 `processing`.
   */
  async awaitFile(input: { principal: Principal; fileId: string; timeoutMs: number }): Promise<Reply> {
    const deadline = Date.now() + input.timeoutMs;
    let stop = false;
    const unlisten = this.draining.onDrain(() => (stop = true));
    try {
      for (let pause = 25; !stop && Date.now() < deadline; pause = Math.min(pause * 2, 250)) {
        await sleep(pause);
        // The database may be away for a moment: the wait goes on, and ends 202 at worst.
        const record = await this.files.getFileRecord(input.fileId).catch(() => null);
        if (record && record.status !== 'processing') return this.replyOfRecord(record, input.principal);
      }
      return processingReply(input.fileId);
    } finally {
      unlisten();
    }
  }

  /** The answer a finished record gives (a retried request whose first attempt died, a waiting request). */
  replyOfRecord(record: FileRecord, principal: Principal): Reply {
    if (record.status === 'processing') return processingReply(record.id);
    if (record.status === 'failed')
      throw ApiError.fromBody((record.error as { error?: Record<string, never> } | null)?.error);
    return this.reply({
      fileId: record.id,
      principal,
      summary: summaryOfRecord(record),
      stored: record.stored,
      expiresAt: record.expiresAt,
    });
  }

  /**
   * A replayed reply. The content of a `store: false` file is never kept anywhere: it is produced
   * again from the retried body (the same body, by the idempotency check), and must hash the same.
   */
  replay(stored: GenerateResponseBody, request: DeclarationRequest, lang: Lang): GenerateResponseBody {
    if (stored.stored) return stored;
    const now = this.clock.now();
    const file = generateInMemory({
      request,
      lang,
      references: (v) => this.references.lists(v),
      today: now,
      generationDay: now,
    });
    if (file.sha256 !== stored.sha256) throw new Error('replayed content differs from the original');
    return { ...stored, content: file.content.toString('utf8') };
  }

  private reply(input: {
    fileId: string;
    principal: Principal;
    summary: FileSummary;
    stored: boolean;
    expiresAt: Date | null;
  }): Reply {
    const { fileId, stored } = input;
    const body = generateResponseBody(input.summary, {
      file_id: fileId,
      mode: input.principal.mode,
      stored,
      expires_at: input.expiresAt ? input.expiresAt.toISOString() : null,
      download_url: stored ? downloadUrl(this.config.publicBaseUrl, fileId) : null,
    });
    return { status: 200, body, replayed: false };
  }

  private recordOf(input: {
    principal: Principal;
    request: DeclarationRequest;
    id: string;
    filename: string;
    reservation: Reservation;
    now: Date;
    lang: Lang;
    requestId: string;
  }) {
    const { principal, request } = input;
    return {
      id: input.id,
      organizationId: principal.organization.id,
      apiKeyId: principal.keyId,
      mode: principal.mode,
      type: request.type,
      declarant: request.declarant,
      specVersion: request.spec.version,
      filename: input.filename,
      stored: request.options.store,
      // Units counted for the file: a test key's rows are held against its allowance, not counted as units.
      units: input.reservation?.mode === 'live' ? input.reservation.units : 0,
      createdAt: input.now,
      lang: input.lang,
      requestId: input.requestId,
    };
  }
}
