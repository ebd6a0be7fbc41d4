import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Client, type ClientConfig } from 'pg';

/**
 * Applies prisma/migrations the way `prisma migrate deploy` does, for machines where Prisma's
 * native schema engine cannot be installed (shared/KNOWN.md). Both tools keep the same books:
 * the `_prisma_migrations` table with Prisma's own columns and checksums, and the same advisory
 * lock, so either can take over from the other.
 */

/** Prisma Migrate's advisory lock key (prisma-engines, postgres connector). */
const PRISMA_MIGRATE_LOCK = 72707369;

/** The table exactly as Prisma's schema engine creates it. */
const CREATE_MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export class MigrationError extends Error {}

export interface MigrateResult {
  /** Migrations applied by this run, in order. */
  applied: string[];
  /** Migrations found already applied. */
  alreadyApplied: string[];
  /** Whether this run created the database. */
  createdDatabase: boolean;
}

export interface MigrateOptions {
  /** Progress lines (one per applied migration). */
  log?: (line: string) => void;
}

interface MigrationFile {
  name: string;
  script: string;
}

interface AppliedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
}

export function checksumOf(script: string): string {
  return createHash('sha256').update(script, 'utf8').digest('hex');
}

/**
 * Prisma accepts a script whose line endings git converted since it was applied
 * (prisma-engines, checksum.rs); so do we.
 */
function matchesChecksum(script: string, checksum: string): boolean {
  const lf = script.replace(/\r\n/g, '\n');
  return [script, lf, lf.replace(/\n/g, '\r\n')].some((s) => checksumOf(s) === checksum);
}

/** prisma/migrations of the repository, found upwards from this file (source or dist/). */
export function defaultMigrationsDir(): string {
  let dir = __dirname;
  for (;;) {
    const candidate = path.join(dir, 'prisma', 'migrations');
    if (existsSync(path.join(candidate, 'migration_lock.toml'))) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) throw new MigrationError(`prisma/migrations not found above ${__dirname}`);
    dir = parent;
  }
}

export function readMigrations(migrationsDir: string): MigrationFile[] {
  if (!existsSync(migrationsDir)) throw new MigrationError(`no migrations directory at ${migrationsDir}`);
  return readdirSync(migrationsDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(path.join(migrationsDir, e.name, 'migration.sql')))
    .map((e) => e.name)
    .sort()
    .map((name) => ({ name, script: readFileSync(path.join(migrationsDir, name, 'migration.sql'), 'utf8') }));
}

function databaseNameOf(databaseUrl: string): string {
  let name: string;
  try {
    name = decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
  } catch {
    throw new MigrationError('DATABASE_URL is not a valid postgresql:// URL');
  }
  if (!name) throw new MigrationError('DATABASE_URL names no database');
  return name;
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function pgCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/** Same server, maintenance database `postgres`: where CREATE DATABASE can be issued. */
function maintenanceConfig(databaseUrl: string): ClientConfig {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return { connectionString: url.toString() };
}

async function connect(databaseUrl: string): Promise<{ client: Client; createdDatabase: boolean }> {
  const client = new Client({ connectionString: databaseUrl });
  try {
    await client.connect();
    return { client, createdDatabase: false };
  } catch (e) {
    if (pgCode(e) !== '3D000') throw e;
  }
  const admin = new Client(maintenanceConfig(databaseUrl));
  await admin.connect();
  let createdDatabase = true;
  try {
    await admin.query(`CREATE DATABASE ${quoteIdent(databaseNameOf(databaseUrl))}`);
  } catch (e) {
    // Another runner created it in the meantime: 42P04, or 23505 when both raced on the catalog.
    if (pgCode(e) !== '42P04' && pgCode(e) !== '23505') throw e;
    createdDatabase = false;
  } finally {
    await admin.end();
  }
  const created = new Client({ connectionString: databaseUrl });
  await created.connect();
  return { client: created, createdDatabase };
}

/**
 * Applies the pending migrations of `migrationsDir` (default: the repository's prisma/migrations)
 * to the database of `databaseUrl`, creating that database when it does not exist. Each migration
 * runs in its own transaction together with its bookkeeping row, so a failure leaves nothing behind.
 * Refuses to run when an applied migration was edited afterwards, or when Prisma left a failed one.
 */
export async function migrate(
  databaseUrl: string,
  migrationsDir: string = defaultMigrationsDir(),
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const migrations = readMigrations(migrationsDir);
  const { client, createdDatabase } = await connect(databaseUrl);
  // A session lock: held across the per-migration transactions, released by unlock or disconnect.
  let locked = false;
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    locked = true;
    await client.query(CREATE_MIGRATIONS_TABLE);
    const { rows } = await client.query<AppliedRow>(
      `SELECT "migration_name", "checksum", "finished_at" FROM "_prisma_migrations"
        WHERE "rolled_back_at" IS NULL ORDER BY "started_at"`,
    );

    const failed = rows.find((r) => r.finished_at === null);
    if (failed) {
      throw new MigrationError(
        `migration ${failed.migration_name} failed earlier and was not resolved; ` +
          `fix the database, then mark it with \`prisma migrate resolve\` or delete its row from _prisma_migrations`,
      );
    }
    const byName = new Map(migrations.map((m) => [m.name, m]));
    const appliedNames = new Set(rows.map((r) => r.migration_name));
    for (const row of rows) {
      const file = byName.get(row.migration_name);
      if (file && !matchesChecksum(file.script, row.checksum)) {
        throw new MigrationError(
          `migration ${row.migration_name} was modified after it was applied (checksum mismatch); ` +
            `restore its migration.sql and put the change in a new migration`,
        );
      }
    }

    const applied: string[] = [];
    for (const migration of migrations) {
      if (appliedNames.has(migration.name)) continue;
      const startedAt = new Date();
      await client.query('BEGIN');
      try {
        await client.query(migration.script);
        await client.query(
          `INSERT INTO "_prisma_migrations"
             ("id", "checksum", "finished_at", "migration_name", "logs", "rolled_back_at", "started_at", "applied_steps_count")
           VALUES ($1, $2, now(), $3, NULL, NULL, $4, 1)`,
          [randomUUID(), checksumOf(migration.script), migration.name, startedAt],
        );
        await client.query('COMMIT');
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw new MigrationError(
          `migration ${migration.name} failed and was rolled back: ${(e as Error).message}`,
        );
      }
      applied.push(migration.name);
      options.log?.(`applied ${migration.name}`);
    }
    return {
      applied,
      alreadyApplied: migrations.filter((m) => appliedNames.has(m.name)).map((m) => m.name),
      createdDatabase,
    };
  } finally {
    if (locked)
      await client.query('SELECT pg_advisory_unlock($1)', [PRISMA_MIGRATE_LOCK]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }
}
