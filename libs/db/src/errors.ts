/** An id that names no row (unknown organization, unknown key): callers answer 404 or exit 2. */
export class NotFoundError extends Error {
  constructor(
    readonly entity: string,
    readonly id: string,
  ) {
    super(`unknown ${entity} "${id}"`);
  }
}

export type DatabaseErrorKind =
  'unreachable' | 'missing_database' | 'not_migrated' | 'access_denied' | 'foreign_key' | 'unique';

/**
 * The same failure carries different codes depending on who reports it: node-postgres (SQLSTATE,
 * socket codes), Prisma's driver adapter (`kind`, `originalCode`) or Prisma Client (`P…`).
 */
const KINDS: Record<string, DatabaseErrorKind> = {
  ECONNREFUSED: 'unreachable',
  ENOTFOUND: 'unreachable',
  EHOSTUNREACH: 'unreachable',
  ETIMEDOUT: 'unreachable',
  ECONNRESET: 'unreachable',
  '57P03': 'unreachable',
  P1001: 'unreachable',
  P1002: 'unreachable',
  DatabaseNotReachable: 'unreachable',
  '3D000': 'missing_database',
  P1003: 'missing_database',
  DatabaseDoesNotExist: 'missing_database',
  '42P01': 'not_migrated',
  '42703': 'not_migrated',
  '42704': 'not_migrated',
  P2021: 'not_migrated',
  P2022: 'not_migrated',
  TableDoesNotExist: 'not_migrated',
  ColumnNotFound: 'not_migrated',
  '28P01': 'access_denied',
  '28000': 'access_denied',
  P1000: 'access_denied',
  P1010: 'access_denied',
  DatabaseAccessDenied: 'access_denied',
  AuthenticationFailed: 'access_denied',
  '23503': 'foreign_key',
  P2003: 'foreign_key',
  ForeignKeyConstraintViolation: 'foreign_key',
  '23505': 'unique',
  P2002: 'unique',
  UniqueConstraintViolation: 'unique',
};

/** What kind of known database failure an error is, however deeply it was wrapped. */
export function databaseErrorKind(error: unknown): DatabaseErrorKind | undefined {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  while (queue.length > 0) {
    const e = queue.shift();
    if (!e || typeof e !== 'object' || seen.has(e)) continue;
    seen.add(e);
    const fields = e as Record<string, unknown>;
    for (const name of ['originalCode', 'kind', 'code']) {
      const value = fields[name];
      if (typeof value === 'string' && Object.prototype.hasOwnProperty.call(KINDS, value))
        return KINDS[value];
    }
    const meta = fields.meta as Record<string, unknown> | undefined;
    queue.push(fields.cause, meta, meta?.driverAdapterError);
    if (Array.isArray(fields.errors)) queue.push(...(fields.errors as unknown[]));
  }
  return undefined;
}

/**
 * One line an operator can act on for an environmental database failure (CLI, boot logs);
 * undefined for anything else.
 */
export function describeDatabaseError(error: unknown, databaseUrl?: string): string | undefined {
  const where = databaseUrl ? ` at ${redactUrl(databaseUrl)}` : '';
  switch (databaseErrorKind(error)) {
    case 'unreachable':
      return `cannot reach the database${where} (is PostgreSQL running? check DATABASE_URL)`;
    case 'missing_database':
      return `the database${where} does not exist (run \`npm run db:migrate\`)`;
    case 'not_migrated':
      return `the database${where} is not migrated (run \`npm run db:migrate\`)`;
    case 'access_denied':
      return `the database${where} refused the credentials of DATABASE_URL`;
    default:
      return undefined;
  }
}

/** The URL without its password, for messages. */
export function redactUrl(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    if (url.password) url.password = '***';
    return url.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
