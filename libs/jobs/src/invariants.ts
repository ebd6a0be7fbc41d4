import { createHash } from 'node:crypto';
import type { PrismaClient } from '@ppfile/db';
import type { ObjectStorage } from '@ppfile/storage';
import { FileLifecycle, objectKeyOf, PAYLOAD_PREFIX } from './lifecycle';

export interface Violation {
  /** What invariant is broken (stable names, for scripts and tests). */
  kind:
    | 'usage_mismatch'
    | 'object_missing'
    | 'object_mismatch'
    | 'orphan_object'
    | 'processing_past_lease'
    | 'payload_left'
    | 'payload_missing'
    | 'reservation_unsettled';
  /** The organization and month, or the file, it concerns: ids only, never a value of a request. */
  subject: string;
  detail: string;
}

/**
 * The invariants of accepted work (API.md §8), checked by `ppfile admin reconcile --check`: the
 * month's usage is exactly the units committed plus those still reserved for work in progress;
 * every available file has its object, byte for byte; no object outlives its record; no file is
 * processing past its lease; no payload outlives its job, and a queued file's payload is there; no reservation is left unsettled by
 * work that has ended.
 */
export async function checkInvariants(input: {
  prisma: PrismaClient;
  storage: ObjectStorage;
  now: Date;
  processingLeaseSeconds: number;
}): Promise<Violation[]> {
  const { prisma, storage, now } = input;
  const violations: Violation[] = [];

  const usage = await prisma.$queryRaw<
    { organization_id: string; month: string; mode: string; counter: number; ledger: number }[]
  >`
    WITH counters AS (
      SELECT "organization_id", "month", 'LIVE' AS "mode", "used" AS "n" FROM "usage_counters"
      UNION ALL SELECT "organization_id", "month", 'TEST', "test_rows" FROM "usage_counters"
    ), ledger AS (
      SELECT "organization_id", "month", "mode"::text AS "mode", SUM("units") AS "n"
        FROM "unit_reservations" WHERE "state" IN ('RESERVED', 'COMMITTED')
       GROUP BY "organization_id", "month", "mode"
    )
    SELECT COALESCE(c."organization_id", l."organization_id") AS "organization_id",
           COALESCE(c."month", l."month") AS "month", COALESCE(c."mode", l."mode") AS "mode",
           COALESCE(c."n", 0)::int AS "counter", COALESCE(l."n", 0)::int AS "ledger"
      FROM counters c
      FULL JOIN ledger l ON l."organization_id" = c."organization_id" AND l."month" = c."month" AND l."mode" = c."mode"
     WHERE COALESCE(c."n", 0) <> COALESCE(l."n", 0)`;
  for (const u of usage) {
    const what = u.mode === 'TEST' ? 'test rows' : 'units';
    violations.push({
      kind: 'usage_mismatch',
      subject: `${u.organization_id} ${u.month}`,
      detail: `${what}: counter ${u.counter}, ledger ${u.ledger}`,
    });
  }

  const unsettled = await prisma.$queryRaw<{ id: string; file_id: string | null; status: string | null }[]>`
    SELECT r."id", r."file_id", f."status"::text AS "status"
      FROM "unit_reservations" r LEFT JOIN "files" f ON f."id" = r."file_id"
     WHERE r."state" = 'RESERVED' AND (f."id" IS NULL OR f."status" <> 'PROCESSING')`;
  for (const r of unsettled) {
    violations.push({
      kind: 'reservation_unsettled',
      subject: r.id,
      detail: r.file_id ? `file ${r.file_id} is ${r.status?.toLowerCase()}` : 'no file',
    });
  }

  const processing = await prisma.fileRecord.findMany({
    where: { status: 'PROCESSING' },
    select: { id: true, progressAt: true },
  });
  for (const f of processing) {
    if (!FileLifecycle.outlivedLease(f, now, input.processingLeaseSeconds)) continue;
    violations.push({
      kind: 'processing_past_lease',
      subject: f.id,
      detail: `processing since ${f.progressAt.toISOString()}, lease ${input.processingLeaseSeconds} s`,
    });
  }

  for (const p of await prisma.jobPayload.findMany({
    where: { file: { status: { not: 'PROCESSING' } } },
    select: { fileId: true },
  })) {
    violations.push({ kind: 'payload_left', subject: p.fileId, detail: 'the payload of a finished job' });
  }
  const payloads = new Set((await storage.list(PAYLOAD_PREFIX)).map((o) => o.key));
  const payloadOwners = new Map(
    (
      await prisma.fileRecord.findMany({
        where: {
          OR: [
            { id: { in: [...payloads].map((k) => k.slice(PAYLOAD_PREFIX.length)) } },
            { payloadKey: { not: null } },
          ],
        },
        select: { id: true, status: true, payloadKey: true },
      })
    ).map((f) => [f.id, f]),
  );
  for (const key of payloads) {
    const owner = payloadOwners.get(key.slice(PAYLOAD_PREFIX.length));
    if (owner?.status === 'PROCESSING' && owner.payloadKey === key) continue;
    violations.push({
      kind: 'payload_left',
      subject: key,
      detail: owner ? `record is ${owner.status.toLowerCase()}` : 'no record',
    });
  }
  for (const f of payloadOwners.values()) {
    if (f.payloadKey && !payloads.has(f.payloadKey))
      violations.push({ kind: 'payload_missing', subject: f.id, detail: `no object ${f.payloadKey}` });
  }

  const objects = new Map((await storage.list('files/')).map((o) => [o.key, o.size]));
  const available = await prisma.fileRecord.findMany({
    where: { status: 'AVAILABLE' },
    select: { id: true, objectKey: true, sha256: true },
  });
  for (const f of available) {
    const key = f.objectKey ?? objectKeyOf(f.id);
    if (!objects.has(key)) {
      violations.push({ kind: 'object_missing', subject: f.id, detail: `no object ${key}` });
      continue;
    }
    const content = await storage.get(key);
    const sha256 = createHash('sha256').update(content).digest('hex');
    if (sha256 !== f.sha256 || content.length !== objects.get(key)) {
      violations.push({
        kind: 'object_mismatch',
        subject: f.id,
        detail: `sha256 ${sha256}, ${content.length} bytes`,
      });
    }
  }
  const owners = new Map(
    (
      await prisma.fileRecord.findMany({
        where: { objectKey: { in: [...objects.keys()] } },
        select: { objectKey: true, status: true },
      })
    ).map((f) => [f.objectKey!, f.status]),
  );
  for (const key of objects.keys()) {
    const status = owners.get(key);
    // An object being written belongs to a processing record; any other object must be available.
    if (status !== 'AVAILABLE' && status !== 'PROCESSING') {
      violations.push({
        kind: 'orphan_object',
        subject: key,
        detail: status ? `record is ${status.toLowerCase()}` : 'no record',
      });
    }
  }
  return violations;
}
