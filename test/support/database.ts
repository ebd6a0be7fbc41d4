import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { migrate } from '@ppfile/db';

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
 * A fresh database `ppfile_test_<hex>`, migrated with the project's runner (which creates it);
 * `drop()` removes it.
 */
export async function createTestDatabase(options: { migrate?: boolean } = {}): Promise<TestDatabase> {
  const name = randomDatabaseName();
  const url = databaseUrl(name);
  if (options.migrate === false) {
    const admin = new Client({ connectionString: SERVER_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end();
    }
  } else {
    await migrate(url);
  }
  return { name, url, drop: () => dropDatabase(name) };
}
