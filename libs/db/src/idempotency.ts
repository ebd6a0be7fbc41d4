import type { Db } from './ledger';
import type { Prisma, PrismaClient } from './generated/prisma/client';

/** How long a reply is kept for replay (API.md §6, Idempotency-Key). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** How long an in-progress claim holds its key when the caller names no lease. */
export const DEFAULT_CLAIM_LEASE_MS = 5 * 60 * 1000;

export type IdempotencyBegin =
  | { state: 'new' }
  | { state: 'in_progress' }
  /** The claim's request died after its file was accepted: answer from that file, count nothing. */
  | { state: 'accepted'; fileId: string }
  | { state: 'mismatch' }
  | { state: 'completed'; status: number; body: unknown; fileId: string | null };

interface StoredRecord {
  body_hash: string;
  state: 'IN_PROGRESS' | 'COMPLETED';
  lease_over: boolean;
  response_status: number | null;
  response_body: unknown;
  file_id: string | null;
}

/**
 * Idempotency-Key records, per API key. The first request with a key claims it (`new`), runs,
 * and completes it with its reply; later ones with the same body get that reply, with another
 * body 409 IDEMPOTENCY_KEY_REUSED, and while the first still runs 409 IDEMPOTENCY_IN_PROGRESS.
 */
export class IdempotencyStore {
  constructor(private readonly prisma: PrismaClient) {}

  /**
   * Claims `key` or reports its state. The claim is one INSERT … ON CONFLICT: of any number of
   * concurrent requests exactly one gets `new`. A record past its 24 hours counts as absent and is
   * taken over in the same statement, and so is an in-progress claim past its lease whose request
   * never got as far as a file (it crashed): a key is never locked for 24 hours by a dead request.
   */
  async beginIdempotent(
    apiKeyId: string,
    key: string,
    bodyHash: string,
    now: Date = new Date(),
    leaseMs: number = DEFAULT_CLAIM_LEASE_MS,
  ): Promise<IdempotencyBegin> {
    const createdAt = now.toISOString();
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString();
    const leaseExpiresAt = new Date(now.getTime() + leaseMs).toISOString();
    // A record abandoned between our INSERT and our SELECT makes the SELECT come back empty: try again.
    for (let attempt = 0; attempt < 5; attempt++) {
      const claimed = await this.prisma.$queryRaw<{ claimed: number }[]>`
        INSERT INTO "idempotency_records"
               ("api_key_id", "key", "body_hash", "state", "created_at", "expires_at", "lease_expires_at")
        VALUES (${apiKeyId}, ${key}, ${bodyHash}, 'IN_PROGRESS', ${createdAt}::timestamp(3), ${expiresAt}::timestamp(3),
                ${leaseExpiresAt}::timestamp(3))
        ON CONFLICT ("api_key_id", "key") DO UPDATE
           SET "body_hash" = EXCLUDED."body_hash", "state" = 'IN_PROGRESS', "response_status" = NULL,
               "response_body" = NULL, "file_id" = NULL,
               "created_at" = EXCLUDED."created_at", "expires_at" = EXCLUDED."expires_at",
               "lease_expires_at" = EXCLUDED."lease_expires_at"
         WHERE "idempotency_records"."expires_at" <= EXCLUDED."created_at"
            OR ("idempotency_records"."state" = 'IN_PROGRESS' AND "idempotency_records"."file_id" IS NULL
                AND "idempotency_records"."lease_expires_at" <= EXCLUDED."created_at")
        RETURNING 1 AS "claimed"`;
      if (claimed.length === 1) return { state: 'new' };

      const rows = await this.prisma.$queryRaw<StoredRecord[]>`
        SELECT "body_hash", "state"::text AS "state", "response_status", "response_body", "file_id",
               COALESCE("lease_expires_at" <= ${createdAt}::timestamp(3), false) AS "lease_over"
          FROM "idempotency_records"
         WHERE "api_key_id" = ${apiKeyId} AND "key" = ${key}`;
      const record = rows[0];
      if (!record) continue;
      if (record.body_hash !== bodyHash) return { state: 'mismatch' };
      if (record.state === 'IN_PROGRESS') {
        return record.lease_over && record.file_id
          ? { state: 'accepted', fileId: record.file_id }
          : { state: 'in_progress' };
      }
      return {
        state: 'completed',
        status: Number(record.response_status),
        body: record.response_body,
        fileId: record.file_id,
      };
    }
    throw new Error(`Idempotency-Key "${key}" kept changing under concurrent requests`);
  }

  /** Stores the reply to replay; false when the claim is gone (abandoned or taken over). */
  async completeIdempotent(
    apiKeyId: string,
    key: string,
    status: number,
    body: Prisma.InputJsonValue,
    fileId?: string | null,
  ): Promise<boolean> {
    const { count } = await this.prisma.idempotencyRecord.updateMany({
      where: { apiKeyId, key, state: 'IN_PROGRESS' },
      data: { state: 'COMPLETED', responseStatus: status, responseBody: body, fileId: fileId ?? null },
    });
    return count === 1;
  }

  /** Names the file an in-progress claim's request accepted: a retry after a crash answers from it. */
  async attachFile(apiKeyId: string, key: string, fileId: string, db: Db = this.prisma): Promise<void> {
    await db.idempotencyRecord.updateMany({
      where: { apiKeyId, key, state: 'IN_PROGRESS' },
      data: { fileId },
    });
  }

  /** Deletes in-progress claims past their lease whose request accepted nothing (it died). */
  async purgeStaleClaims(now: Date): Promise<number> {
    const { count } = await this.prisma.idempotencyRecord.deleteMany({
      where: { state: 'IN_PROGRESS', fileId: null, leaseExpiresAt: { lte: now } },
    });
    return count;
  }

  /**
   * Drops an unfinished claim so that a retry after a failure can proceed — unless the request had
   * accepted a file that did not fail (its units are counted, or will be): then the claim stays, and
   * a retry after its lease is answered from that file instead of producing and counting another.
   */
  async abandonIdempotent(apiKeyId: string, key: string): Promise<void> {
    await this.prisma.$executeRaw`
      DELETE FROM "idempotency_records" i
       WHERE i."api_key_id" = ${apiKeyId} AND i."key" = ${key} AND i."state" = 'IN_PROGRESS'
         AND (i."file_id" IS NULL
              OR NOT EXISTS (SELECT 1 FROM "files" f WHERE f."id" = i."file_id" AND f."status" <> 'FAILED'))`;
  }

  /** Deletes records past their 24 hours (they already count as absent); returns how many. */
  async purgeExpired(now: Date, limit = 10_000): Promise<number> {
    return await this.prisma.$executeRaw`
      DELETE FROM "idempotency_records"
       WHERE ctid IN (SELECT ctid FROM "idempotency_records"
                       WHERE "expires_at" <= ${now.toISOString()}::timestamp(3) LIMIT ${limit}::int)`;
  }
}
