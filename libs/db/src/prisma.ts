import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from './generated/prisma/client';

export { PrismaClient };
export type { Prisma } from './generated/prisma/client';

/** API.md §13. */
export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/ppfile';

export interface PrismaClientOptions {
  /** Connections in this process's pool; size it for the process (STYLE.md: one client per process). */
  poolMax?: number;
}

/**
 * The one Prisma client of a process. Prisma 7 has no Rust query engine: queries are compiled in
 * WebAssembly and run through node-postgres by the driver adapter, so the pool is pg's.
 */
export function createPrismaClient(databaseUrl: string, options: PrismaClientOptions = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.poolMax ?? 10 });
  return new PrismaClient({ adapter });
}
