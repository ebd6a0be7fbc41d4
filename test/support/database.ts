import { createHash, randomBytes } from 'node:crypto';
import { Client } from 'pg';
// By path, not '@ppfile/db': jest's globalSetup (support/global-setup.ts) loads this file without the
// module mapper.
import { defaultMigrationsDir, migrate, readMigrations } from '../../libs/db/src/migrate';

/** The test server (trust auth, shared/KNOWN.md); PPFILE_TEST_PG_URL points at another one. */
export const SERVER_URL = process.env.PPFILE_TEST_PG_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

/** The URL of database `name` on the test server. */
export function databaseUrl(name: string): string {
  const url = new URL(SERVER_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

export function randomDatabaseName(): string {
  return `ppfile_test_${randomBytes(6).toString('hex')}`;
}

/** Drops a test database, closing whatever connections a failed test left open on it. */
export async function dropDatabase(name: string): Promise<void> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name.replace(/"/g, '""')}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

/**
 * The migrated template of the test databases: `ppfile_template_<digest>`, named after the digest of
 * prisma/migrations, so that a change of the migrations makes another one (and a run of another
 * branch against the same server uses its own).
 */
export function templateDatabaseName(): string {
  const digest = createHash('sha256');
  for (const m of readMigrations(defaultMigrationsDir())) digest.update(`${m.name}\0${m.script}\0`);
  return `ppfile_template_${digest.digest('hex').slice(0, 16)}`;
}

async function withAdmin<T>(fn: (admin: Client) => Promise<T>): Promise<T> {
  const admin = new Client({ connectionString: SERVER_URL });
  await admin.connect();
  try {
    return await fn(admin);
  } finally {
    await admin.end();
  }
}

const pgCode = (e: unknown) => (e as { code?: string } | null)?.code;

/**
 * Creates the template when it is missing: migrated under a name of its own by the project's runner,
 * then renamed, so that a concurrent run never copies a half-migrated template. Idempotent; run once
 * by the e2e globalSetup, and again by createTestDatabase if the template went away meanwhile.
 */
export async function ensureTemplateDatabase(): Promise<string> {
  const template = templateDatabaseName();
  const exists = await withAdmin(
    async (admin) => (await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount,
  );
  if (exists) return template;
  const draft = `${template}_${randomBytes(4).toString('hex')}`;
  await migrate(databaseUrl(draft));
  await withAdmin(async (admin) => {
    try {
      await admin.query(`ALTER DATABASE "${draft}" RENAME TO "${template}"`);
    } catch (e) {
      // Another run made it first (42P04): ours is not needed.
      await admin.query(`DROP DATABASE IF EXISTS "${draft}" WITH (FORCE)`);
      if (pgCode(e) !== '42P04') throw e;
    }
  });
  return template;
}

/**
 * A fresh database `ppfile_test_<hex>`, migrated: a copy of the migrated template (CREATE DATABASE …
 * TEMPLATE, a few milliseconds instead of a run of every migration); `drop()` removes it.
 * `migrate: false`: an empty database.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = randomDatabaseName();
  const url = databaseUrl(name);
  if (options.migrate === false) {
    await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}"`));
  } else {
    await copyTemplate(name);
  }
  return { name, url, drop: () => dropDatabase(name) };
}

async function copyTemplate(name: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const template = await ensureTemplateDatabase();
      await withAdmin((admin) => admin.query(`CREATE DATABASE "${name}" TEMPLATE "${template}"`));
      return;
    } catch (e) {
      // 55006: a session is still on the template (its creator's, closing); 3D000: it went away.
      if ((pgCode(e) !== '55006' && pgCode(e) !== '3D000') || attempt >= 20) throw e;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
}
