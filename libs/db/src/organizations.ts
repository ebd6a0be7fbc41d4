import { NotFoundError } from './errors';
import type { Plan as DbPlan } from './generated/prisma/enums';
import type { PrismaClient } from './generated/prisma/client';
import { newOrganizationId } from '@ppfile/contract';
import { isPlanName, type PlanName } from './plans';

export interface Organization {
  id: string;
  name: string;
  plan: PlanName;
  createdAt: Date;
}

export function toDbPlan(plan: PlanName): DbPlan {
  return plan.toUpperCase() as DbPlan;
}

export function fromDbPlan(plan: DbPlan): PlanName {
  return plan.toLowerCase() as PlanName;
}

export class OrganizationStore {
  constructor(private readonly prisma: PrismaClient) {}

  async createOrganization(input: { name: string; plan: PlanName }): Promise<Organization> {
    const name = input.name.trim();
    if (!name) throw new RangeError('an organization needs a name');
    if (!isPlanName(input.plan)) throw new RangeError(`unknown plan "${String(input.plan)}"`);
    const row = await this.prisma.organization.create({
      data: { id: newOrganizationId(), name, plan: toDbPlan(input.plan), createdAt: new Date() },
    });
    return { ...row, plan: fromDbPlan(row.plan) };
  }

  async getOrganization(id: string): Promise<Organization | null> {
    const row = await this.prisma.organization.findUnique({ where: { id } });
    return row ? { ...row, plan: fromDbPlan(row.plan) } : null;
  }

  /** Every organization, oldest first: operators look up an id they lost (`ppfile admin org list`). */
  async listOrganizations(): Promise<Organization[]> {
    const rows = await this.prisma.organization.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
    return rows.map((row) => ({ ...row, plan: fromDbPlan(row.plan) }));
  }

  async requireOrganization(id: string): Promise<Organization> {
    const organization = await this.getOrganization(id);
    if (!organization) throw new NotFoundError('organization', id);
    return organization;
  }
}
