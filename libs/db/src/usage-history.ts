import type { PrismaClient } from './generated/prisma/client';
import { isMonth } from './plans';

export interface MonthUsage {
  /** YYYY-MM */
  month: string;
  /** Live units (committed plus reserved), as the quota counts them. */
  used: number;
  /** Rows generated with test keys. */
  testRows: number;
}

/** The `count` months ending with `last` (YYYY-MM), oldest first. */
export function monthsEndingWith(last: string, count: number): string[] {
  if (!isMonth(last)) throw new RangeError(`month must be YYYY-MM (got "${String(last)}")`);
  const [year, month] = last.split('-').map(Number) as [number, number];
  const out: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const d = new Date(Date.UTC(year, month - 1 - i, 1));
    out.push(d.toISOString().slice(0, 7));
  }
  return out;
}

/**
 * Monthly usage of an organization over several months, read from the counters the units ledger
 * moves (ledger.ts), for the dashboard's chart: one query, a month without a counter reads 0.
 */
export class UsageHistoryStore {
  constructor(private readonly prisma: PrismaClient) {}

  async months(organizationId: string, lastMonth: string, count = 12): Promise<MonthUsage[]> {
    const months = monthsEndingWith(lastMonth, count);
    const rows = await this.prisma.usageCounter.findMany({
      where: { organizationId, month: { in: months } },
      select: { month: true, used: true, testRows: true },
    });
    const byMonth = new Map(rows.map((r) => [r.month, r]));
    return months.map((month) => ({
      month,
      used: byMonth.get(month)?.used ?? 0,
      testRows: byMonth.get(month)?.testRows ?? 0,
    }));
  }
}
