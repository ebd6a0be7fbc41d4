import { newReservationId } from '@ppfile/contract';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import { isMonth } from './plans';

/** A client or an interactive transaction: ledger statements run alone or inside a lifecycle step. */
export type Db = PrismaClient | Prisma.TransactionClient;

export type ReservationResult =
  { ok: true; reservationId: string; used: number } | { ok: false; used: number; limit: number };

export interface LedgerMonth {
  month: string;
  /** The counter the quota is checked against: committed plus reserved. */
  used: number;
  committed: number;
  reserved: number;
  /** Rows generated with test keys (committed plus reserved), against TEST_ROWS_PER_MONTH. */
  testRows: number;
}

/** Live units count against the plan's quota; test rows against the month's test allowance (API.md §10). */
export type LedgerMode = 'live' | 'test';

/** What a commit kept: the units (or test rows) now counted for good, for the process's metrics. */
export interface CommittedUnits {
  mode: LedgerMode;
  units: number;
}

/**
 * The units ledger (API.md §10): every accepted request holds one reservation that is committed
 * (the file exists, the rows were analysed) or released (nothing came out) exactly once. Each
 * transition is one guarded statement that also moves the month's counter, so a release that runs
 * twice — from a worker and from the gateway, or from a retried cleanup — gives units back once.
 */
export class UnitLedger {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Adds `units` to the month's counter unless that would pass `limit`, and records the
   * reservation, in one statement (all or nothing, never past the limit under concurrency).
   */
  async reserve(
    input: {
      organizationId: string;
      month: string;
      units: number;
      limit: number;
      fileId?: string | null;
      mode?: LedgerMode;
    },
    db: Db = this.prisma,
  ): Promise<ReservationResult> {
    const { organizationId, month, units, limit } = input;
    const test = input.mode === 'test';
    const live = test ? 0 : units;
    const testRows = test ? units : 0;
    if (!isMonth(month)) throw new RangeError(`month must be YYYY-MM (got "${String(month)}")`);
    if (!Number.isSafeInteger(units) || units <= 0)
      throw new RangeError(`units must be a positive integer (got ${units})`);
    const id = newReservationId();
    const now = this.clock().toISOString();
    const rows = await db.$queryRaw<{ used: number }[]>`
      WITH counter AS (
        INSERT INTO "usage_counters" ("organization_id", "month", "used", "test_rows", "updated_at")
        SELECT ${organizationId}, ${month}, ${live}::int, ${testRows}::int, ${now}::timestamp(3)
         WHERE ${units}::int <= ${limit}::int
        ON CONFLICT ("organization_id", "month") DO UPDATE
           SET "used" = "usage_counters"."used" + EXCLUDED."used",
               "test_rows" = "usage_counters"."test_rows" + EXCLUDED."test_rows",
               "updated_at" = EXCLUDED."updated_at"
         WHERE (CASE WHEN ${test}::boolean THEN "usage_counters"."test_rows" ELSE "usage_counters"."used" END) + ${units}::int <= ${limit}::int
        RETURNING (CASE WHEN ${test}::boolean THEN "test_rows" ELSE "used" END) AS "used"
      ), reservation AS (
        INSERT INTO "unit_reservations" ("id", "organization_id", "month", "units", "mode", "state", "file_id", "created_at", "updated_at")
        SELECT ${id}, ${organizationId}, ${month}, ${units}::int, ${test ? 'TEST' : 'LIVE'}::"key_mode", 'RESERVED',
               ${input.fileId ?? null}::text, ${now}::timestamp(3), ${now}::timestamp(3)
          FROM counter
        RETURNING "id"
      )
      SELECT counter."used" FROM counter, reservation`;
    if (rows.length === 1) return { ok: true, reservationId: id, used: Number(rows[0]!.used) };
    const counter = await db.usageCounter.findUnique({
      where: { organizationId_month: { organizationId, month } },
      select: { used: true, testRows: true },
    });
    return { ok: false, used: (test ? counter?.testRows : counter?.used) ?? 0, limit };
  }

  /**
   * reserved → committed, keeping `keep` of the units (all when absent) and giving the rest back.
   * Null when the reservation was already committed or released.
   */
  async commit(
    where: { reservationId: string } | { fileId: string },
    keep?: number,
    db: Db = this.prisma,
  ): Promise<CommittedUnits | null> {
    const now = this.clock().toISOString();
    const byId = 'reservationId' in where ? where.reservationId : null;
    const byFile = 'fileId' in where ? where.fileId : null;
    const rows = await db.$queryRaw<{ mode: 'LIVE' | 'TEST'; units: number }[]>`
      WITH old AS (
        SELECT "id", "units" FROM "unit_reservations"
         WHERE "state" = 'RESERVED' AND ("id" = ${byId}::text OR "file_id" = ${byFile}::text)
         FOR UPDATE
      ), done AS (
        UPDATE "unit_reservations" r
           SET "state" = 'COMMITTED', "units" = LEAST(old."units", COALESCE(${keep ?? null}::int, old."units")),
               "updated_at" = ${now}::timestamp(3)
          FROM old
         WHERE r."id" = old."id" AND r."state" = 'RESERVED'
        RETURNING r."id", r."organization_id", r."month", r."mode", r."units", old."units" - r."units" AS "back"
      ), counter AS (
        UPDATE "usage_counters" c
           SET "used" = GREATEST(c."used" - CASE WHEN done."mode" = 'LIVE' THEN done."back" ELSE 0 END, 0),
               "test_rows" = GREATEST(c."test_rows" - CASE WHEN done."mode" = 'TEST' THEN done."back" ELSE 0 END, 0),
               "updated_at" = ${now}::timestamp(3)
          FROM done
         WHERE c."organization_id" = done."organization_id" AND c."month" = done."month" AND done."back" > 0
        RETURNING c."used"
      )
      SELECT "mode", "units" FROM done`;
    const done = rows[0];
    return rows.length === 1 && done
      ? { mode: done.mode === 'TEST' ? 'test' : 'live', units: Number(done.units) }
      : null;
  }

  /** reserved → released: the units go back to the month's counter. False when already settled. */
  async release(
    where: { reservationId: string } | { fileId: string },
    db: Db = this.prisma,
    options: { unlessProcessing?: boolean } = {},
  ): Promise<boolean> {
    const now = this.clock().toISOString();
    const byId = 'reservationId' in where ? where.reservationId : null;
    const byFile = 'fileId' in where ? where.fileId : null;
    // unlessProcessing: the reconciler's release of a stale reservation, kept when a file still at
    // work holds it (decided in the statement itself, not by an earlier read).
    const unlessProcessing = options.unlessProcessing === true;
    const rows = await db.$queryRaw<{ id: string }[]>`
      WITH done AS (
        UPDATE "unit_reservations" r
           SET "state" = 'RELEASED', "updated_at" = ${now}::timestamp(3)
         WHERE r."state" = 'RESERVED' AND (r."id" = ${byId}::text OR r."file_id" = ${byFile}::text)
           AND NOT (${unlessProcessing}::boolean AND EXISTS (
                 SELECT 1 FROM "files" f WHERE f."id" = r."file_id" AND f."status" = 'PROCESSING'))
        RETURNING r."id", r."organization_id", r."month", r."mode", r."units"
      ), counter AS (
        UPDATE "usage_counters" c
           SET "used" = GREATEST(c."used" - CASE WHEN done."mode" = 'LIVE' THEN done."units" ELSE 0 END, 0),
               "test_rows" = GREATEST(c."test_rows" - CASE WHEN done."mode" = 'TEST' THEN done."units" ELSE 0 END, 0),
               "updated_at" = ${now}::timestamp(3)
          FROM done
         WHERE c."organization_id" = done."organization_id" AND c."month" = done."month"
        RETURNING c."used"
      )
      SELECT "id" FROM done`;
    return rows.length === 1;
  }

  /** Links a reservation to the file it pays for (the file is created in the same transaction). */
  async attachFile(reservationId: string, fileId: string, db: Db = this.prisma): Promise<void> {
    // Only a reservation still held: one the reconciler released meanwhile fails the file's acceptance.
    const { count } = await db.unitReservation.updateMany({
      where: { id: reservationId, state: 'RESERVED' },
      data: { fileId },
    });
    if (count !== 1) throw new Error('the reservation is no longer held');
  }

  /** The month's counter and what the ledger says it is made of. */
  async month(organizationId: string, month: string): Promise<LedgerMonth> {
    if (!isMonth(month)) throw new RangeError(`month must be YYYY-MM (got "${String(month)}")`);
    const [counter, sums] = await Promise.all([
      this.prisma.usageCounter.findUnique({
        where: { organizationId_month: { organizationId, month } },
        select: { used: true, testRows: true },
      }),
      this.prisma.unitReservation.groupBy({
        by: ['state'],
        where: { organizationId, month, mode: 'LIVE', state: { in: ['RESERVED', 'COMMITTED'] } },
        _sum: { units: true },
      }),
    ]);
    const sum = (state: string) => sums.find((s) => s.state === state)?._sum.units ?? 0;
    return {
      month,
      used: counter?.used ?? 0,
      committed: sum('COMMITTED'),
      reserved: sum('RESERVED'),
      testRows: counter?.testRows ?? 0,
    };
  }

  /** Reservations still held, created before `before`, whose file is not processing (or which have none). */
  async listStale(before: Date, limit: number): Promise<{ id: string; fileId: string | null }[]> {
    return this.prisma.$queryRaw<{ id: string; fileId: string | null }[]>`
      SELECT r."id", r."file_id" AS "fileId"
        FROM "unit_reservations" r
        LEFT JOIN "files" f ON f."id" = r."file_id"
       WHERE r."state" = 'RESERVED' AND r."created_at" < ${before.toISOString()}::timestamp(3)
         AND (f."id" IS NULL OR f."status" <> 'PROCESSING')
       ORDER BY r."created_at"
       LIMIT ${limit}::int`;
  }
}
