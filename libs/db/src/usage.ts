import type { PrismaClient } from './generated/prisma/client';
import type { OrganizationStore } from './organizations';
import { isMonth, PLANS } from './plans';

export type Reservation = { ok: true; used: number } | { ok: false; used: number; limit: number };

export interface Usage {
  month: string;
  used: number;
  limit: number;
}

function checkMonth(month: string): void {
  if (!isMonth(month)) throw new RangeError(`month must be YYYY-MM (got "${month}")`);
}

function checkUnits(units: number): void {
  if (!Number.isSafeInteger(units) || units < 0)
    throw new RangeError(`units must be a non-negative integer (got ${units})`);
}

/**
 * Monthly units per organization (SERVICE.md §8, API.md §10). A request reserves its units before
 * the work and gives them back if no file comes out, so the quota is never exceeded even when
 * several gateways count at once.
 */
export class UsageStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly organizations: OrganizationStore,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /**
   * Adds `units` to the month's counter unless that would pass `limit`; all or nothing. One
   * statement: the insert of a missing counter and the guarded increment of an existing one are
   * decided by PostgreSQL under the row lock, so concurrent reservations never overshoot.
   */
  async reserveUnits(
    organizationId: string,
    month: string,
    units: number,
    limit: number,
  ): Promise<Reservation> {
    checkMonth(month);
    checkUnits(units);
    checkUnits(limit);
    const now = this.clock().toISOString();
    const rows = await this.prisma.$queryRaw<{ used: number }[]>`
      INSERT INTO "usage_counters" ("organization_id", "month", "used", "updated_at")
      SELECT ${organizationId}, ${month}, ${units}::int, ${now}::timestamp(3)
       WHERE ${units}::int <= ${limit}::int
      ON CONFLICT ("organization_id", "month") DO UPDATE
         SET "used" = "usage_counters"."used" + EXCLUDED."used", "updated_at" = EXCLUDED."updated_at"
       WHERE "usage_counters"."used" + EXCLUDED."used" <= ${limit}::int
      RETURNING "used"`;
    if (rows.length === 1) return { ok: true, used: Number(rows[0]!.used) };
    return { ok: false, used: await this.usedIn(organizationId, month), limit };
  }

  /** Gives back units reserved for work that produced nothing; the counter never goes below 0. */
  async releaseUnits(organizationId: string, month: string, units: number): Promise<number> {
    checkMonth(month);
    checkUnits(units);
    const now = this.clock().toISOString();
    const rows = await this.prisma.$queryRaw<{ used: number }[]>`
      UPDATE "usage_counters"
         SET "used" = GREATEST("used" - ${units}::int, 0), "updated_at" = ${now}::timestamp(3)
       WHERE "organization_id" = ${organizationId} AND "month" = ${month}
      RETURNING "used"`;
    return rows.length === 1 ? Number(rows[0]!.used) : 0;
  }

  /** The month's usage and the limit of the organization's current plan. */
  async getUsage(organizationId: string, month: string): Promise<Usage> {
    checkMonth(month);
    const organization = await this.organizations.requireOrganization(organizationId);
    return {
      month,
      used: await this.usedIn(organizationId, month),
      limit: PLANS[organization.plan].monthlyUnits,
    };
  }

  private async usedIn(organizationId: string, month: string): Promise<number> {
    const row = await this.prisma.usageCounter.findUnique({
      where: { organizationId_month: { organizationId, month } },
      select: { used: true },
    });
    return row?.used ?? 0;
  }
}
