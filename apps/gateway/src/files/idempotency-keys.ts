import { Inject, Injectable } from '@nestjs/common';
import { ApiError, type GenerateResponseBody, type ProcessingResponseBody } from '@ppfile/contract';
import { IdempotencyStore, type Prisma } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import type { ClaimRef } from '@ppfile/jobs';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { bodyHash } from './canonical-json';
import type { Reply } from './reply';

/** Where a request with its Idempotency-Key stands before it runs. */
export type Begun =
  /** Its own to run: `claim` is null when the request has no key. */
  | { state: 'new'; claim: ClaimRef | null }
  /** Answered before: the kept reply (a 202 names a file whose state is read now). */
  | { state: 'completed'; status: 200; body: GenerateResponseBody }
  | { state: 'completed'; status: 202; body: ProcessingResponseBody }
  /** Its first request accepted this file and died: the answer is that file's, counted once. */
  | { state: 'accepted'; claim: ClaimRef; fileId: string };

/**
 * Idempotency-Key (SERVICE.md §4.2): the first request with a key claims it, for a lease as long
 * as a request can last; its reply is kept 24 hours and replayed to a retry with the same body,
 * counted once. A claim whose request died is taken over after its lease — or, when that request
 * had already accepted a file, answered from that file, so nothing is produced or counted twice:
 * the claim is data the file's production carries, and libs/jobs FileLifecycle points it at the
 * file in the transaction that accepts it.
 */
@Injectable()
export class IdempotencyKeys {
  constructor(
    @Inject(IdempotencyStore) private readonly records: IdempotencyStore,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /** Claims the key, or says how it was answered; a key reused with another body, or in use, is refused. */
  async begin(keyId: string, key: string | undefined, body: unknown): Promise<Begun> {
    if (key === undefined) return { state: 'new', claim: null };
    const leaseMs = (this.config.queue.waitSeconds + 60) * 1000;
    const begun = await this.records.beginIdempotent(keyId, key, bodyHash(body), this.clock.now(), leaseMs);
    switch (begun.state) {
      case 'new':
        return { state: 'new', claim: { apiKeyId: keyId, key } };
      case 'mismatch':
        throw new ApiError('IDEMPOTENCY_KEY_REUSED');
      case 'in_progress':
        throw new ApiError('IDEMPOTENCY_IN_PROGRESS');
      case 'accepted':
        return { state: 'accepted', claim: { apiKeyId: keyId, key }, fileId: begun.fileId };
      case 'completed':
        // Only a generate's 200 or 202 is kept (a refusal keeps nothing).
        return begun.status === 202
          ? { state: 'completed', status: 202, body: begun.body as ProcessingResponseBody }
          : { state: 'completed', status: 200, body: begun.body as GenerateResponseBody };
    }
  }

  /** Keeps the reply for 24 hours (the CSV itself never: `store: false` means written nowhere). */
  async complete(claim: ClaimRef | null, reply: Reply): Promise<Reply> {
    if (!claim) return reply;
    const kept: Record<string, unknown> = { ...reply.body };
    delete kept.content;
    await this.records.completeIdempotent(
      claim.apiKeyId,
      claim.key,
      reply.status,
      kept as Prisma.InputJsonValue,
      reply.body.file_id,
    );
    return reply;
  }

  /** A request that failed before accepting anything keeps nothing: the same key may be retried. */
  async abandon(claim: ClaimRef | null): Promise<void> {
    if (claim) await this.records.abandonIdempotent(claim.apiKeyId, claim.key).catch(() => undefined);
  }
}
