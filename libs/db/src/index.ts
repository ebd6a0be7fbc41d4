/**
 * PostgreSQL access of ppfile through Prisma: organizations, API keys, monthly usage, file records
 * and idempotent replies. No Nest here: the apps wrap these stores in their own providers.
 */
import { ApiKeyStore } from './api-keys';
import { ColumnMappingStore } from './column-mappings';
import { FileStore } from './files';
import { IdempotencyStore } from './idempotency';
import { UnitLedger } from './ledger';
import { JobPayloadStore } from './payloads';
import { OrganizationStore } from './organizations';
import type { PrismaClient } from './prisma';
import { SessionStore } from './sessions';
import { UsageStore } from './usage';
import { UsageHistoryStore } from './usage-history';
import { UserStore } from './users';

export * from './api-keys';
export * from './column-mappings';
export * from './errors';
export * from './files';
export * from './idempotency';
export * from './ledger';
export * from './payloads';
export * from './migrate';
export * from './organizations';
export * from './plans';
export * from './prisma';
export * from './sessions';
export * from './usage';
export * from './usage-history';
export * from './users';

export interface Stores {
  organizations: OrganizationStore;
  apiKeys: ApiKeyStore;
  usage: UsageStore;
  files: FileStore;
  idempotency: IdempotencyStore;
  ledger: UnitLedger;
  payloads: JobPayloadStore;
  users: UserStore;
  sessions: SessionStore;
  usageHistory: UsageHistoryStore;
  columnMappings: ColumnMappingStore;
}

/** Every store over one client (the process's single Prisma client). */
export function createStores(prisma: PrismaClient, clock: () => Date = () => new Date()): Stores {
  const organizations = new OrganizationStore(prisma);
  return {
    organizations,
    apiKeys: new ApiKeyStore(prisma, clock),
    usage: new UsageStore(prisma, organizations),
    files: new FileStore(prisma),
    idempotency: new IdempotencyStore(prisma),
    ledger: new UnitLedger(prisma, clock),
    payloads: new JobPayloadStore(prisma),
    users: new UserStore(prisma, clock),
    sessions: new SessionStore(prisma, clock),
    usageHistory: new UsageHistoryStore(prisma),
    columnMappings: new ColumnMappingStore(prisma, clock),
  };
}
