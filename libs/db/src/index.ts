/**
 * PostgreSQL access of ppfile through Prisma: organizations, API keys, monthly usage, file records
 * and idempotent replies. No Nest here: the apps wrap these stores in their own providers.
 */
import { ApiKeyStore } from './api-keys';
import { FileStore } from './files';
import { IdempotencyStore } from './idempotency';
import { OrganizationStore } from './organizations';
import type { PrismaClient } from './prisma';
import { UsageStore } from './usage';

export * from './api-keys';
export * from './errors';
export * from './files';
export * from './idempotency';
export * from './ids';
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
}

/** Every store over one client (the process's single Prisma client). */
export function createStores(prisma: PrismaClient, clock: () => Date = () => new Date()): Stores {
  return {
    organizations: new OrganizationStore(prisma),
    apiKeys: new ApiKeyStore(prisma, clock),
    usage: new UsageStore(prisma, clock),
    files: new FileStore(prisma, clock),
    idempotency: new IdempotencyStore(prisma),
  };
}
