import { Inject, Injectable } from '@nestjs/common';
import { ApiError, generateResponseBody, type GenerateResponseBody } from '@ppfile/contract';
import { FileStore, type FileRecord } from '@ppfile/db';
import { FileProduction, summaryOfRecord, type FileOrder } from '@ppfile/jobs';
import { parseRequest, type DeclarationRequest, type Lang } from '@ppfile/rules';
import { Draining } from '../common/draining';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { rowLimit } from '../limits/row-limit';
import { Units } from '../limits/units';
import { downloadUrl } from './file-metadata';
import { IdempotencyKeys } from './idempotency-keys';
import { processingReply, type CallOptions, type Reply } from './reply';

/**
 * POST /v1/files/generate (SERVICE.md §4.2) as HTTP sees it: the body's structure and row limit
 * first (nothing spent on a malformed request), the Idempotency-Key, the units reserved, then the
 * file produced by libs/jobs FileProduction (the one way, also the generate processor's), and its
 * record turned into the answer: 200 with the file, 202 while a worker makes it, or its refusal.
 */
@Injectable()
export class GenerateService {
  constructor(
    @Inject(IdempotencyKeys) private readonly keys: IdempotencyKeys,
    @Inject(FileProduction) private readonly production: FileProduction,
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(Units) private readonly units: Units,
    @Inject(Draining) private readonly draining: Draining,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async generate(input: {
    principal: Principal;
    lang: Lang;
    body: unknown;
    rawBody: Buffer | undefined;
    idempotencyKey: string | undefined;
    call: CallOptions;
  }): Promise<Reply> {
    const { principal, lang, body, call } = input;
    const request = parseRequest(body, { lang, maxRows: rowLimit(principal) });
    const begun = await this.keys.begin(principal.keyId, input.idempotencyKey, body);
    if (begun.state === 'completed') {
      // A 202 is not replayed as it was: the file has moved on since; the retry gets its state now.
      if (begun.status === 202)
        return { ...this.replyOf(await this.record(begun.body.file_id), principal), replayed: true };
      return { status: 200, body: this.replayed(begun.body, request, lang), replayed: true };
    }
    if (begun.state === 'accepted') {
      // Its first request accepted the file and died: the answer is that file's, finished if need be.
      const produced = await this.production.resume(await this.record(begun.fileId), { request });
      const reply = await this.answer(produced.record, principal, call);
      return this.keys.complete(begun.claim, { ...this.withContent(reply, request, lang), replayed: true });
    }
    try {
      const held = await this.units.reserve(principal, request.rowCount, { produces: true });
      const order: FileOrder = {
        request,
        body: input.rawBody ?? Buffer.from(JSON.stringify(body), 'utf8'),
        lang,
        requestId: call.requestId,
        owner: { organizationId: principal.organization.id, apiKeyId: principal.keyId, mode: principal.mode },
        held,
        claim: begun.claim,
        queueAboveRows: this.config.queue.generateThresholdRows,
      };
      const produced = await this.production.produce(order);
      return await this.keys.complete(
        begun.claim,
        await this.answer(produced.record, principal, call, produced.content),
      );
    } catch (e) {
      await this.keys.abandon(begun.claim);
      throw e;
    }
  }

  /** A record's answer; a processing one is waited for (PostgreSQL read) unless the caller asked for 202. */
  private async answer(
    record: FileRecord,
    principal: Principal,
    call: CallOptions,
    content: Buffer | null = null,
  ): Promise<Reply> {
    if (record.status !== 'processing' || call.respondAsync) return this.replyOf(record, principal, content);
    const stop = new AbortController();
    const unlisten = this.draining.onDrain(() => stop.abort());
    try {
      const done = await this.production.awaitFile(record.id, {
        timeoutMs: this.config.queue.waitSeconds * 1000,
        signal: stop.signal,
      });
      return done ? this.replyOf(done, principal) : processingReply(record.id);
    } finally {
      unlisten();
    }
  }

  /** 200 with the file, 202 while it is processing, or the refusal it ended with. */
  private replyOf(record: FileRecord, principal: Principal, content: Buffer | null = null): Reply {
    if (record.status === 'processing') return processingReply(record.id);
    if (record.status === 'failed')
      throw ApiError.fromBody((record.error as { error?: Record<string, never> } | null)?.error);
    const body = generateResponseBody(
      { ...summaryOfRecord(record), content },
      {
        file_id: record.id,
        mode: principal.mode,
        stored: record.stored,
        expires_at: record.expiresAt ? record.expiresAt.toISOString() : null,
        download_url: record.stored ? downloadUrl(this.config.publicBaseUrl, record.id) : null,
      },
    );
    return { status: 200, body, replayed: false };
  }

  /** A `store: false` answer whose content was not at hand (never kept anywhere): made again. */
  private withContent(reply: Reply, request: DeclarationRequest, lang: Lang): Reply {
    return reply.status === 200 && !reply.body.stored && reply.body.content === undefined
      ? { ...reply, body: this.replayed(reply.body, request, lang) }
      : reply;
  }

  /**
   * A replayed 200. The content of a `store: false` file is never kept: it is produced again from
   * the retried body (the same body, by the idempotency check), and must hash the same.
   */
  private replayed(
    stored: GenerateResponseBody,
    request: DeclarationRequest,
    lang: Lang,
  ): GenerateResponseBody {
    if (stored.stored) return stored;
    return { ...stored, content: this.production.regenerate(request, lang, stored.sha256).toString('utf8') };
  }

  private async record(fileId: string): Promise<FileRecord> {
    const record = await this.files.getFileRecord(fileId);
    if (!record) throw new ApiError('INTERNAL_ERROR');
    return record;
  }
}
