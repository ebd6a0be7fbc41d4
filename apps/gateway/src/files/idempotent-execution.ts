import { Inject, Injectable } from '@nestjs/common';
import { ApiError, type GenerateResponseBody, type ProcessingResponseBody } from '@ppfile/contract';
import { IdempotencyStore, type Prisma } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import type { ClaimRef } from '@ppfile/jobs';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { bodyHash } from './canonical-json';
import type { Reply } from './reply';

/**
 * Idempotency-Key (SERVICE.md §4.2): the first request with a key claims it, for a lease as long
 * as a request can last; its reply is kept 24 hours and replayed to a retry with the same body,
 * counted once. A claim whose request died is taken over after its lease — or, when that request
 * had already accepted a file, answered from that file, so nothing is produced or counted twice.
 * The wrapped handler gets its claim as data: the file lifecycle points the claim at the file it
 * accepts in the same transaction (libs/jobs FileLifecycle.open).
 */
@Injectable()
export class IdempotentExecution {
  constructor(
    @Inject(IdempotencyStore) private readonly records: IdempotencyStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async run(options: {
    keyId: string;
    key: string | undefined;
    body: unknown;
    execute: (claim: ClaimRef | null) => Promise<Reply>;
    replay: (stored: GenerateResponseBody) => GenerateResponseBody;
    resume: (fileId: string) => Promise<Reply>;
  }): Promise<Reply> {
    const { keyId, key } = options;
    if (key === undefined) return options.execute(null);
    const leaseMs = (this.config.queue.waitSeconds + 60) * 1000;
    const begun = await this.records.beginIdempotent(
      keyId,
      key,
      bodyHash(options.body),
      this.clock.now(),
      leaseMs,
    );
    switch (begun.state) {
      case 'mismatch':
        throw new ApiError('IDEMPOTENCY_KEY_REUSED');
      case 'in_progress':
        throw new ApiError('IDEMPOTENCY_IN_PROGRESS');
      case 'completed': {
        // Only a generate's 200 or 202 is kept (a refusal keeps nothing). A 202 is not replayed as
        // it was: the file has moved on since. The retry gets its state now (200 with the file once
        // available, else 202 with Location again).
        if (begun.status === 202)
          return {
            ...(await options.resume((begun.body as ProcessingResponseBody).file_id)),
            replayed: true,
          };
        return { status: 200, body: options.replay(begun.body as GenerateResponseBody), replayed: true };
      }
      case 'accepted':
        // Its first request accepted a file and died: the answer is that file's (a replay, counted once).
        return this.complete(keyId, key, { ...(await options.resume(begun.fileId)), replayed: true });
    }
    try {
      const reply = await options.execute({ apiKeyId: keyId, key });
      return await this.complete(keyId, key, reply);
    } catch (e) {
      // A failed request keeps nothing: the same key may be retried.
      await this.records.abandonIdempotent(keyId, key).catch(() => undefined);
      throw e;
    }
  }

  private async complete(keyId: string, key: string, reply: Reply): Promise<Reply> {
    // The CSV itself is never kept for replay (store: false means written nowhere).
    const kept: Record<string, unknown> = { ...reply.body };
    delete kept.content;
    await this.records.completeIdempotent(
      keyId,
      key,
      reply.status,
      kept as Prisma.InputJsonValue,
      reply.body.file_id,
    );
    return reply;
  }
}
