import type { PrismaClient } from './generated/prisma/client';
import type { OrganizationStore } from './organizations';
import { isMonth, PLANS } from './plans';

export interface Usage {
  month: string;
  used: number;
  limit: number;
}

function checkMonth(month: string): void {
  if (!isMonth(month)) throw new RangeError(`month must be YYYY-MM (got "${String(month)}")`);
}

/**
 * Monthly units per organization (SERVICE.md §8, API.md §10), as read: the counter is moved only by
 * the units ledger (ledger.ts), in the statement that reserves, commits or releases.
 */
export class UsageStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly organizations: OrganizationStore,
  ) {}

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
