/**
 * PostgreSQL access of ppfile through Prisma: organizations, API keys, monthly usage, file records
 * and idempotent replies. No Nest here: the apps wrap these stores in their own providers.
 */
import { ApiKeyStore } from './api-keys';
import { FileStore } from './files';
import { IdempotencyStore } from './idempotency';
import { UnitLedger } from './ledger';
import { LifecycleStore } from './lifecycle';
import { JobPayloadStore } from './payloads';
import { OrganizationStore } from './organizations';
import type { PrismaClient } from './prisma';
import { UsageStore } from './usage';

export * from './api-keys';
export * from './errors';
export * from './files';
export * from './idempotency';
export * from './ledger';
export * from './lifecycle';
export * from './payloads';
export * from './migrate';
export * from './organizations';
export * from './plans';
export * from './prisma';
export * from './usage';

export interface Stores {
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  usage: UsageStore;
  files: FileStore;
  idempotency: IdempotencyStore;
  ledger: UnitLedger;
  payloads: JobPayloadStore;
  lifecycle: LifecycleStore;
}

/** Every store over one client (the process's single Prisma client). */
export function createStores(prisma: PrismaClient, clock: () => Date = () => new Date()): Stores {
  const organizations = new OrganizationStore(prisma);
  const files = new FileStore(prisma, clock);
  const ledger = new UnitLedger(prisma, clock);
  const payloads = new JobPayloadStore(prisma);
  return {
    organizations,
    apiKeys: new ApiKeyStore(prisma, clock),
    usage: new UsageStore(prisma, organizations),
    files,
    idempotency: new IdempotencyStore(prisma),
    ledger,
    payloads,
    lifecycle: new LifecycleStore(prisma, files, ledger, payloads),
  };
}
