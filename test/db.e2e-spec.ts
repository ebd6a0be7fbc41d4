/**
 * libs/db against the real PostgreSQL of the machine (no mocks): the migration runner and its
 * Prisma-compatible books, the migrated database compared with schema.prisma through Prisma's own
 * DMMF, API keys, exact quota reservations under concurrency, file records, idempotency records,
 * and the operators' CLI (`node bin/ppfile.js admin …`) as a user runs it. Every test works in a
 * fresh database `ppfile_test_<hex>` that it drops afterwards.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { getDMMF } from '@prisma/get-dmmf';
import { FILE_ID } from '@ppfile/contract';
import { Client } from 'pg';
import {
  ApiKeyStore,
  checksumOf,
  createPrismaClient,
  createStores,
  defaultMigrationsDir,
  hashKey,
  IDEMPOTENCY_TTL_MS,
  LAST_USED_RESOLUTION_MS,
  migrate,
  MigrationError,
  monthOf,
  NotFoundError,
  PLAN_NAMES,
  type PrismaClient,
  type ReservationResult,
  type Stores,
} from '@ppfile/db';
import {
  createTestDatabase,
  databaseUrl,
  dropDatabase,
  randomDatabaseName,
  type TestDatabase,
} from './support/database';
import { runCli } from './support/cli';
import { assertBuilt } from './support/worker';

jest.setTimeout(60_000);

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'ppfile.js');
const SCHEMA_FILE = path.join(ROOT, 'prisma', 'schema.prisma');
const MIGRATIONS_DIR = path.join(ROOT, 'prisma', 'migrations');
const GENERATED_CLASS = path.join(ROOT, 'libs', 'db', 'src', 'generated', 'prisma', 'internal', 'class.ts');
const BUILT_ADMIN = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'commands', 'admin.js');

async function query<T extends object>(url: string, sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql, params)).rows;
  } finally {
    await client.end();
  }
}

/** A database the test owns, with a client and the stores over it; all released by `close()`. */
async function openDatabase(options: { clock?: () => Date; poolMax?: number } = {}) {
  const db = await createTestDatabase();
  const prisma = createPrismaClient(db.url, { poolMax: options.poolMax ?? 5 });
  const stores = createStores(prisma, options.clock);
  return {
    db,
    prisma,
    stores,
    async close() {
      await prisma.$disconnect();
      await db.drop();
    },
  };
}

async function withDatabase(
  work: (ctx: { db: TestDatabase; prisma: PrismaClient; stores: Stores }) => Promise<void>,
  options: { clock?: () => Date; poolMax?: number } = {},
): Promise<void> {
  const ctx = await openDatabase(options);
  try {
    await work(ctx);
  } finally {
    await ctx.close();
  }
}

function tempMigrationsCopy(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'ppfile-migrations-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  return dir;
}

const tempDirs: string[] = [];
afterAll(() => {
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
});

// ---- migrations -----------------------------------------------------------------------------------------------------

describe('migration runner', () => {
  it('finds the repository migrations, in Prisma layout with a postgresql lock file', () => {
    expect(defaultMigrationsDir()).toBe(MIGRATIONS_DIR);
    expect(readFileSync(path.join(MIGRATIONS_DIR, 'migration_lock.toml'), 'utf8')).toMatch(
      /^provider = "postgresql"$/m,
    );
    const names = readdirSync(MIGRATIONS_DIR).filter((n) =>
      statSync(path.join(MIGRATIONS_DIR, n)).isDirectory(),
    );
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) {
      expect(name).toMatch(/^\d{14}_[a-z0-9_]+$/);
      expect(existsSync(path.join(MIGRATIONS_DIR, name, 'migration.sql'))).toBe(true);
    }
  });

  it('creates the database, applies every migration once, and re-applies as a no-op', async () => {
    const name = randomDatabaseName();
    const url = databaseUrl(name);
    try {
      const first = await migrate(url);
      expect(first.createdDatabase).toBe(true);
      expect(first.applied).toEqual(
        readdirSync(MIGRATIONS_DIR)
          .filter((n) => /^\d{14}_/.test(n))
          .sort(),
      );
      expect(first.alreadyApplied).toEqual([]);

      const second = await migrate(url);
      expect(second).toEqual({ applied: [], alreadyApplied: first.applied, createdDatabase: false });

      const rows = await query<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
        applied_steps_count: number;
        logs: string | null;
      }>(url, 'SELECT * FROM "_prisma_migrations" ORDER BY "migration_name"');
      expect(rows.map((r) => r.migration_name)).toEqual(first.applied);
      for (const row of rows) {
        const script = readFileSync(path.join(MIGRATIONS_DIR, row.migration_name, 'migration.sql'), 'utf8');
        expect(row.checksum).toBe(createHash('sha256').update(script).digest('hex'));
        expect(row.finished_at).toBeInstanceOf(Date);
        expect(row.rolled_back_at).toBeNull();
        expect(row.logs).toBeNull();
        expect(row.applied_steps_count).toBe(1);
      }
    } finally {
      await dropDatabase(name);
    }
  });

  it('keeps its books in the very table Prisma Migrate creates', async () => {
    const db = await createTestDatabase();
    try {
      const columns = await query<Record<string, unknown>>(
        db.url,
        `SELECT column_name, data_type, character_maximum_length AS length, is_nullable, column_default
           FROM information_schema.columns WHERE table_name = '_prisma_migrations' ORDER BY ordinal_position`,
      );
      expect(columns).toEqual([
        {
          column_name: 'id',
          data_type: 'character varying',
          length: 36,
          is_nullable: 'NO',
          column_default: null,
        },
        {
          column_name: 'checksum',
          data_type: 'character varying',
          length: 64,
          is_nullable: 'NO',
          column_default: null,
        },
        {
          column_name: 'finished_at',
          data_type: 'timestamp with time zone',
          length: null,
          is_nullable: 'YES',
          column_default: null,
        },
        {
          column_name: 'migration_name',
          data_type: 'character varying',
          length: 255,
          is_nullable: 'NO',
          column_default: null,
        },
        { column_name: 'logs', data_type: 'text', length: null, is_nullable: 'YES', column_default: null },
        {
          column_name: 'rolled_back_at',
          data_type: 'timestamp with time zone',
          length: null,
          is_nullable: 'YES',
          column_default: null,
        },
        {
          column_name: 'started_at',
          data_type: 'timestamp with time zone',
          length: null,
          is_nullable: 'NO',
          column_default: 'now()',
        },
        {
          column_name: 'applied_steps_count',
          data_type: 'integer',
          length: null,
          is_nullable: 'NO',
          column_default: '0',
        },
      ]);
    } finally {
      await db.drop();
    }
  });

  it('refuses to run when an applied migration was edited afterwards, and accepts git line-ending changes', async () => {
    const dir = tempMigrationsCopy();
    tempDirs.push(dir);
    const db = await createTestDatabase({ migrate: false });
    try {
      await migrate(db.url, dir);
      const [first] = readdirSync(dir)
        .filter((n) => /^\d{14}_/.test(n))
        .sort();
      const file = path.join(dir, first!, 'migration.sql');
      const original = readFileSync(file, 'utf8');

      // A checkout with core.autocrlf: same migration for Prisma (prisma-engines checksum.rs).
      writeFileSync(file, original.replace(/\n/g, '\r\n'));
      await expect(migrate(db.url, dir)).resolves.toMatchObject({ applied: [] });

      writeFileSync(file, `${original}\nCREATE INDEX "sneaky" ON "files"("filename");\n`);
      await expect(migrate(db.url, dir)).rejects.toThrow(MigrationError);
      await expect(migrate(db.url, dir)).rejects.toThrow(
        new RegExp(`migration ${first} was modified after it was applied \\(checksum mismatch\\)`),
      );
      const sneaky = await query(db.url, `SELECT 1 FROM pg_class WHERE relname = 'sneaky'`);
      expect(sneaky).toHaveLength(0);
    } finally {
      await db.drop();
    }
  });

  it('rolls a failing migration back entirely and records nothing, so that a fixed one applies', async () => {
    const dir = tempMigrationsCopy();
    tempDirs.push(dir);
    mkdirSync(path.join(dir, '29991231000000_broken'));
    const broken = path.join(dir, '29991231000000_broken', 'migration.sql');
    writeFileSync(broken, 'CREATE TABLE "half_done" ("id" TEXT);\nSELECT * FROM "no_such_table";\n');
    const db = await createTestDatabase({ migrate: false });
    try {
      await expect(migrate(db.url, dir)).rejects.toThrow(
        /migration 29991231000000_broken failed and was rolled back/,
      );
      expect(await query(db.url, `SELECT 1 FROM pg_class WHERE relname = 'half_done'`)).toHaveLength(0);
      const names = await query<{ migration_name: string }>(
        db.url,
        'SELECT migration_name FROM "_prisma_migrations"',
      );
      expect(names.map((r) => r.migration_name)).not.toContain('29991231000000_broken');

      writeFileSync(broken, 'CREATE TABLE "half_done" ("id" TEXT);\n');
      await expect(migrate(db.url, dir)).resolves.toMatchObject({ applied: ['29991231000000_broken'] });
    } finally {
      await db.drop();
    }
  });

  it('stops at a migration Prisma recorded as failed, as `prisma migrate deploy` does (P3009)', async () => {
    const db = await createTestDatabase();
    try {
      await query(
        db.url,
        `INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at)
         VALUES ('00000000-0000-0000-0000-000000000000', $1, '29991231000000_half', now())`,
        [checksumOf('x')],
      );
      await expect(migrate(db.url)).rejects.toThrow(
        /migration 29991231000000_half failed earlier and was not resolved/,
      );
    } finally {
      await db.drop();
    }
  });

  it('is safe when several runners migrate the same fresh database at once', async () => {
    const name = randomDatabaseName();
    const url = databaseUrl(name);
    try {
      const results = await Promise.all([migrate(url), migrate(url), migrate(url), migrate(url)]);
      const all = results[0].applied.length + results[0].alreadyApplied.length;
      // Exactly one runner applied each migration; the others waited for the lock and found them applied.
      expect(results.filter((r) => r.applied.length === all)).toHaveLength(1);
      expect(results.filter((r) => r.applied.length === 0 && r.alreadyApplied.length === all)).toHaveLength(
        3,
      );
      expect(results.filter((r) => r.createdDatabase)).toHaveLength(1);
      const rows = await query<{ n: string }>(url, 'SELECT count(*) AS n FROM "_prisma_migrations"');
      expect(Number(rows[0]!.n)).toBe(all);
    } finally {
      await dropDatabase(name);
    }
  });
});

// ---- the migrated database is schema.prisma -------------------------------------------------------------------------

interface DmmfField {
  name: string;
  dbName?: string | null;
  kind: string;
  isList: boolean;
  isRequired: boolean;
  type: string;
  nativeType?: unknown;
  hasDefaultValue: boolean;
  default?: unknown;
  relationFromFields?: string[];
  relationToFields?: string[];
  relationOnDelete?: string;
  relationOnUpdate?: string;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}
interface DmmfIndex {
  model: string;
  type: 'id' | 'unique' | 'normal' | 'fulltext';
  dbName?: string | null;
  fields: { name: string }[];
}
interface DmmfDatamodel {
  models: DmmfModel[];
  enums: { name: string; dbName?: string | null; values: { name: string; dbName: string | null }[] }[];
  indexes: DmmfIndex[];
}

/** What the schema decides, in the terms PostgreSQL describes itself with. */
interface SchemaShape {
  tables: Record<string, Record<string, { type: string; nullable: boolean; default: string | null }>>;
  enums: Record<string, string[]>;
  /** name → table, columns, kind */
  indexes: Record<string, string>;
  foreignKeys: Record<string, string>;
}

function dmmfOf(schemaText: string): DmmfDatamodel {
  const result = getDMMF({ datamodel: schemaText }) as { datamodel?: unknown; type?: string; error?: Error };
  if (!result.datamodel) throw new Error(`getDMMF failed: ${result.error?.message ?? result.type}`);
  return result.datamodel as DmmfDatamodel;
}

const SCALAR_TYPES: Record<string, string> = {
  String: 'text',
  Int: 'integer',
  BigInt: 'bigint',
  Boolean: 'boolean',
  DateTime: 'timestamp(3)',
  Json: 'jsonb',
  Float: 'double precision',
  Decimal: 'numeric(65,30)',
  Bytes: 'bytea',
};

/** Prisma's default constraint and index names (prisma-engines, default names). */
const prismaName = (table: string, columns: string[], suffix: string): string =>
  `${table}_${columns.join('_')}_${suffix}`;

const ON_ACTION: Record<string, string> = {
  Cascade: 'c',
  Restrict: 'r',
  NoAction: 'a',
  SetNull: 'n',
  SetDefault: 'd',
};

function shapeFromDmmf(datamodel: DmmfDatamodel): SchemaShape {
  const enumDbName = new Map(datamodel.enums.map((e) => [e.name, e.dbName ?? e.name]));
  const tableOf = new Map(datamodel.models.map((m) => [m.name, m.dbName ?? m.name]));
  const columnOf = (model: string, field: string): string => {
    const f = datamodel.models.find((m) => m.name === model)!.fields.find((x) => x.name === field)!;
    return f.dbName ?? f.name;
  };
  const shape: SchemaShape = { tables: {}, enums: {}, indexes: {}, foreignKeys: {} };
  for (const e of datamodel.enums) shape.enums[e.dbName ?? e.name] = e.values.map((v) => v.dbName ?? v.name);

  for (const model of datamodel.models) {
    const table = tableOf.get(model.name)!;
    const columns: SchemaShape['tables'][string] = {};
    for (const field of model.fields) {
      if (field.kind === 'object') {
        if (field.relationFromFields && field.relationFromFields.length > 0) {
          const from = field.relationFromFields.map((f) => columnOf(model.name, f));
          const to = field.relationToFields!.map((f) => columnOf(field.type, f));
          const optional = field.relationFromFields.some(
            (f) => !model.fields.find((x) => x.name === f)!.isRequired,
          );
          const onDelete = ON_ACTION[field.relationOnDelete ?? (optional ? 'SetNull' : 'Restrict')];
          const onUpdate = ON_ACTION[field.relationOnUpdate ?? 'Cascade'];
          shape.foreignKeys[prismaName(table, from, 'fkey')] =
            `${table}(${from.join(',')}) → ${tableOf.get(field.type)}(${to.join(',')}) delete ${onDelete} update ${onUpdate}`;
        }
        continue;
      }
      if (field.isList)
        throw new Error(`${model.name}.${field.name}: list columns are not described by this test yet`);
      if (field.nativeType)
        throw new Error(`${model.name}.${field.name}: native types are not described by this test yet`);
      const type = field.kind === 'enum' ? `enum ${enumDbName.get(field.type)}` : SCALAR_TYPES[field.type];
      if (!type)
        throw new Error(`${model.name}.${field.name}: type ${field.type} is not described by this test yet`);
      columns[field.dbName ?? field.name] = {
        type,
        nullable: !field.isRequired,
        default: defaultOf(field, enumDbName),
      };
    }
    shape.tables[table] = columns;
  }

  for (const index of datamodel.indexes) {
    const table = tableOf.get(index.model)!;
    const columns = index.fields.map((f) => columnOf(index.model, f.name));
    const [suffix, kind] =
      index.type === 'id'
        ? ['pkey', 'primary key']
        : index.type === 'unique'
          ? ['key', 'unique']
          : ['idx', 'index'];
    const name = index.dbName ?? (index.type === 'id' ? `${table}_pkey` : prismaName(table, columns, suffix));
    shape.indexes[name] = `${kind} on ${table}(${columns.join(',')})`;
  }
  return shape;
}

function defaultOf(field: DmmfField, enumDbName: Map<string, string>): string | null {
  if (!field.hasDefaultValue) return null;
  const value = field.default;
  if (value && typeof value === 'object' && 'name' in value) {
    const fn = (value as { name: string }).name;
    if (fn === 'now') return 'CURRENT_TIMESTAMP';
    if (fn === 'uuid' || fn === 'cuid' || fn === 'nanoid' || fn === 'ulid') return null; // filled in by Prisma Client
    throw new Error(`${field.name}: default ${fn}() is not described by this test yet`);
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value === 'string') {
    return field.kind === 'enum'
      ? `'${value}'::${enumDbName.get(field.type)}`
      : `'${value.replace(/'/g, "''")}'::text`;
  }
  throw new Error(`${field.name}: default ${JSON.stringify(value)} is not described by this test yet`);
}

async function shapeFromDatabase(url: string): Promise<SchemaShape> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const shape: SchemaShape = { tables: {}, enums: {}, indexes: {}, foreignKeys: {} };
    const tables = await client.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    for (const { table_name } of tables.rows) shape.tables[table_name] = {};
    const columns = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      udt_name: string;
      datetime_precision: number | null;
      character_maximum_length: number | null;
      numeric_precision: number | null;
      numeric_scale: number | null;
      is_nullable: 'YES' | 'NO';
      column_default: string | null;
    }>(
      `SELECT * FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    for (const c of columns.rows) {
      let type = c.data_type;
      if (type === 'USER-DEFINED') type = `enum ${c.udt_name}`;
      else if (type === 'timestamp without time zone') type = `timestamp(${c.datetime_precision})`;
      else if (type === 'numeric') type = `numeric(${c.numeric_precision},${c.numeric_scale})`;
      else if (type === 'character varying') type = `varchar(${c.character_maximum_length})`;
      shape.tables[c.table_name]![c.column_name] = {
        type,
        nullable: c.is_nullable === 'YES',
        default: c.column_default,
      };
    }
    const enums = await client.query<{ name: string; labels: string[] }>(
      `SELECT t.typname AS name, array_agg(e.enumlabel::text ORDER BY e.enumsortorder) AS labels
         FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid JOIN pg_namespace n ON n.oid = t.typnamespace
        WHERE n.nspname = 'public' GROUP BY t.typname`,
    );
    for (const e of enums.rows) shape.enums[e.name] = e.labels;
    const indexes = await client.query<{
      table: string;
      name: string;
      primary: boolean;
      unique: boolean;
      columns: string[];
    }>(
      `SELECT t.relname AS table, i.relname AS name, ix.indisprimary AS primary, ix.indisunique AS unique,
              array_agg(a.attname::text ORDER BY k.ord) AS columns
         FROM pg_index ix
         JOIN pg_class i ON i.oid = ix.indexrelid
         JOIN pg_class t ON t.oid = ix.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace
        CROSS JOIN LATERAL unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE n.nspname = 'public' AND t.relname <> '_prisma_migrations'
        GROUP BY t.relname, i.relname, ix.indisprimary, ix.indisunique`,
    );
    for (const ix of indexes.rows) {
      const kind = ix.primary ? 'primary key' : ix.unique ? 'unique' : 'index';
      shape.indexes[ix.name] = `${kind} on ${ix.table}(${ix.columns.join(',')})`;
    }
    const constraints = await client.query<{ name: string; type: string }>(
      `SELECT c.conname AS name, c.contype AS type FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE n.nspname = 'public' AND c.contype IN ('p', 'u', 'c', 'x')
          AND c.conrelid <> '"_prisma_migrations"'::regclass`,
    );
    // Prisma makes primary keys constraints, @unique plain unique indexes, and nothing else.
    for (const c of constraints.rows) {
      if (c.type !== 'p') shape.indexes[`constraint ${c.name}`] = `unexpected constraint of type ${c.type}`;
      else if (!shape.indexes[c.name]?.startsWith('primary key'))
        shape.indexes[c.name] = 'primary key without its index';
    }
    const fks = await client.query<{
      name: string;
      table: string;
      columns: string[];
      ref_table: string;
      ref_columns: string[];
      on_delete: string;
      on_update: string;
    }>(
      `SELECT c.conname AS name, src.relname AS table, dst.relname AS ref_table,
              c.confdeltype AS on_delete, c.confupdtype AS on_update,
              (SELECT array_agg(a.attname::text ORDER BY k.ord)
                 FROM unnest(c.conkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum) AS columns,
              (SELECT array_agg(a.attname::text ORDER BY k.ord)
                 FROM unnest(c.confkey) WITH ORDINALITY AS k(attnum, ord)
                 JOIN pg_attribute a ON a.attrelid = c.confrelid AND a.attnum = k.attnum) AS ref_columns
         FROM pg_constraint c
         JOIN pg_class src ON src.oid = c.conrelid
         JOIN pg_class dst ON dst.oid = c.confrelid
         JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'f' AND n.nspname = 'public'`,
    );
    for (const fk of fks.rows) {
      shape.foreignKeys[fk.name] =
        `${fk.table}(${fk.columns.join(',')}) → ${fk.ref_table}(${fk.ref_columns.join(',')}) delete ${fk.on_delete} update ${fk.on_update}`;
    }
    return shape;
  } finally {
    await client.end();
  }
}

describe('the migrated database matches schema.prisma', () => {
  let db: TestDatabase;
  let actual: SchemaShape;
  const schemaText = readFileSync(SCHEMA_FILE, 'utf8');

  beforeAll(async () => {
    db = await createTestDatabase();
    actual = await shapeFromDatabase(db.url);
  });
  afterAll(() => db?.drop());

  it('tables, columns, types, nullability, defaults, enums, keys, indexes and foreign keys', () => {
    const expected = shapeFromDmmf(dmmfOf(schemaText));
    expect(actual.tables).toEqual(expected.tables);
    expect(actual.enums).toEqual(expected.enums);
    expect(actual.indexes).toEqual(expected.indexes);
    expect(actual.foreignKeys).toEqual(expected.foreignKeys);
  });

  it('has the models, keys and index the service relies on', () => {
    expect(Object.keys(actual.tables).sort()).toEqual([
      'api_keys',
      'column_mappings',
      'files',
      'idempotency_records',
      'job_payloads',
      'organizations',
      'sessions',
      'unit_reservations',
      'usage_counters',
      'users',
    ]);
    expect(actual.indexes).toMatchObject({
      api_keys_key_hash_key: 'unique on api_keys(key_hash)',
      usage_counters_pkey: 'primary key on usage_counters(organization_id,month)',
      idempotency_records_pkey: 'primary key on idempotency_records(api_key_id,key)',
      files_status_expires_at_idx: 'index on files(status,expires_at)',
      idempotency_records_expires_at_idx: 'index on idempotency_records(expires_at)',
      files_status_progress_at_idx: 'index on files(status,progress_at)',
      unit_reservations_file_id_key: 'unique on unit_reservations(file_id)',
      users_email_key: 'unique on users(email)',
      users_invitation_hash_key: 'unique on users(invitation_hash)',
      files_organization_id_created_at_idx: 'index on files(organization_id,created_at)',
      api_keys_user_id_key: 'unique on api_keys(user_id)',
      column_mappings_pkey: 'primary key on column_mappings(organization_id,type,declarant)',
    });
  });

  it('would notice a column added to schema.prisma without a migration, or a changed one', () => {
    const added = schemaText.replace(/(model Organization \{\n)/, '$1  country String?\n');
    expect(added).not.toBe(schemaText);
    expect(shapeFromDmmf(dmmfOf(added)).tables).not.toEqual(actual.tables);
    const loosened = schemaText.replace(/^( +name +String)$/m, '$1?');
    expect(loosened).not.toBe(schemaText);
    expect(shapeFromDmmf(dmmfOf(loosened)).tables).not.toEqual(actual.tables);
    const indexed = schemaText.replace('@@map("organizations")', '@@index([name])\n  @@map("organizations")');
    expect(indexed).not.toBe(schemaText);
    expect(shapeFromDmmf(dmmfOf(indexed)).indexes).not.toEqual(actual.indexes);
  });

  it('the generated client was generated from this schema.prisma (else: npm run db:generate)', () => {
    const source = readFileSync(GENERATED_CLASS, 'utf8');
    const match = /"inlineSchema": ("(?:[^"\\]|\\.)*")/.exec(source);
    expect(match).not.toBeNull();
    const inline = JSON.parse(match![1]!) as string;
    expect(shapeFromDmmf(dmmfOf(inline))).toEqual(shapeFromDmmf(dmmfOf(schemaText)));
  });
});

// ---- API keys -------------------------------------------------------------------------------------------------------

describe('API keys', () => {
  it('are created in the format of API.md §1 and stored only as a hash and a 12-character prefix', async () => {
    await withDatabase(async ({ db, stores }) => {
      const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'starter' });
      expect(org.id).toMatch(/^org_[0-9a-f]{24}$/);
      const live = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'prod' });
      const test = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'test' });
      expect(live.id).toMatch(/^key_[0-9a-f]{24}$/);
      expect(live.key).toMatch(/^pp_live_[A-Za-z0-9]{40}$/);
      expect(test.key).toMatch(/^pp_test_[A-Za-z0-9]{40}$/);
      expect(live.prefix).toBe(live.key.slice(0, 12));
      expect(test).toMatchObject({ mode: 'test', prefix: test.key.slice(0, 12) });

      const rows = await query<{
        id: string;
        key_hash: string;
        prefix: string;
        name: string | null;
        mode: string;
      }>(db.url, 'SELECT id, key_hash, prefix, name, mode::text FROM api_keys ORDER BY created_at, id');
      const liveRow = rows.find((r) => r.id === live.id)!;
      expect(liveRow).toEqual({
        id: live.id,
        key_hash: hashKey(live.key),
        prefix: live.prefix,
        name: 'prod',
        mode: 'LIVE',
      });
      expect(liveRow.key_hash).toMatch(/^[0-9a-f]{64}$/);

      // Neither key nor its secret part is anywhere in the database.
      const tables = await query<{ table_name: string }>(
        db.url,
        `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
      );
      for (const { table_name } of tables) {
        const dump = (await query<{ row: string }>(db.url, `SELECT t::text AS row FROM "${table_name}" t`))
          .map((r) => r.row)
          .join('\n');
        for (const key of [live.key, test.key]) {
          expect(dump).not.toContain(key);
          expect(dump).not.toContain(key.slice(12, 28));
        }
      }
    });
  });

  it('authenticate: the right key passes; unknown, revoked and malformed ones do not', async () => {
    await withDatabase(async ({ stores }) => {
      const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'pro' });
      const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'test' });
      await expect(stores.apiKeys.authenticate(key.key)).resolves.toEqual({
        keyId: key.id,
        mode: 'test',
        organization: { id: org.id, name: 'Acme', plan: 'pro' },
      });
      const last = key.key.at(-1) === 'a' ? 'b' : 'a';
      await expect(stores.apiKeys.authenticate(key.key.slice(0, -1) + last)).resolves.toBeNull();
      await expect(stores.apiKeys.authenticate(key.key.replace('pp_test_', 'pp_live_'))).resolves.toBeNull();

      const revoked = await stores.apiKeys.revokeApiKey(key.id);
      expect(revoked.revokedAt).toBeInstanceOf(Date);
      await expect(stores.apiKeys.authenticate(key.key)).resolves.toBeNull();
      // Revoking twice changes nothing; an unknown key is an error.
      await expect(stores.apiKeys.revokeApiKey(key.id)).resolves.toEqual(revoked);
      await expect(stores.apiKeys.revokeApiKey('key_000000000000000000000000')).rejects.toThrow(
        NotFoundError,
      );
      await expect(
        stores.apiKeys.createApiKey({ organizationId: 'org_000000000000000000000000', mode: 'live' }),
      ).rejects.toThrow(NotFoundError);
    });
  });

  it('malformed tokens are refused without a query', async () => {
    // A client whose database cannot be reached: any query would throw.
    const unreachable = createPrismaClient('postgresql://postgres@127.0.0.1:1/none', { poolMax: 1 });
    const keys = new ApiKeyStore(unreachable);
    try {
      for (const token of [
        '',
        'pp_live_',
        `pp_live_${'a'.repeat(31)}`,
        `pp_prod_${'a'.repeat(40)}`,
        `pp_test_${'a'.repeat(39)}é`,
        `Bearer pp_test_${'a'.repeat(40)}`,
        `pp_test_${'a'.repeat(5000)}`,
      ]) {
        await expect(keys.authenticate(token)).resolves.toBeNull();
      }
      await expect(keys.authenticate(`pp_test_${'a'.repeat(40)}`)).rejects.toThrow();
    } finally {
      await unreachable.$disconnect();
    }
  });

  it('last_used_at is written at most once a minute per key', async () => {
    let now = new Date('2026-11-22T10:00:00.000Z');
    await withDatabase(
      async ({ db, prisma, stores }) => {
        const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'free' });
        const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
        const lastUsed = async () =>
          (
            await query<{ at: string | null }>(
              db.url,
              `SELECT last_used_at::text AS at FROM api_keys WHERE id = $1`,
              [key.id],
            )
          )[0]!.at;
        expect(await lastUsed()).toBeNull();

        await stores.apiKeys.authenticate(key.key);
        expect(await lastUsed()).toBe('2026-11-22 10:00:00');
        now = new Date(now.getTime() + 30_000);
        await stores.apiKeys.authenticate(key.key);
        // Another process (its own store) within the minute does not write either.
        await new ApiKeyStore(prisma, () => now).authenticate(key.key);
        expect(await lastUsed()).toBe('2026-11-22 10:00:00');
        now = new Date(now.getTime() + LAST_USED_RESOLUTION_MS);
        await stores.apiKeys.authenticate(key.key);
        expect(await lastUsed()).toBe('2026-11-22 10:01:30');
      },
      { clock: () => now },
    );
  });

  it('lists an organization’s keys without their hashes', async () => {
    await withDatabase(async ({ stores }) => {
      const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'free' });
      const a = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live', name: 'a' });
      const b = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'test' });
      const list = await stores.apiKeys.listApiKeys(org.id);
      expect(list.map((k) => k.id).sort()).toEqual([a.id, b.id].sort());
      for (const k of list) expect(k).not.toHaveProperty('keyHash');
      expect(list.find((k) => k.id === a.id)).toMatchObject({
        mode: 'live',
        name: 'a',
        prefix: a.prefix,
        revokedAt: null,
      });
    });
  });
});

// ---- usage ----------------------------------------------------------------------------------------------------------

describe('usage', () => {
  /** A reservation through the units ledger, the only path that moves the counter. */
  const reserve = (stores: Stores, organizationId: string, month: string, units: number, limit: number) =>
    stores.ledger.reserve({ organizationId, month, units, limit });
  const held = (r: ReservationResult) => (r.ok ? { ok: true, used: r.used } : r);

  it('20 concurrent reservations of 7 units against a limit of 100: exactly 14 pass, used = 98', async () => {
    await withDatabase(
      async ({ db, stores }) => {
        const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'free' });
        // Fresh month: the counter row does not exist yet, so the first reservations also race to create it.
        const results = (
          await Promise.all(Array.from({ length: 20 }, () => reserve(stores, org.id, '2026-11', 7, 100)))
        ).map(held);
        const passed = results.filter((r) => r.ok);
        expect(passed).toHaveLength(14);
        expect(passed.map((r) => r.used).sort((x, y) => x - y)).toEqual(
          Array.from({ length: 14 }, (_, i) => 7 * (i + 1)),
        );
        for (const r of results.filter((x) => !x.ok)) expect(r).toEqual({ ok: false, used: 98, limit: 100 });
        const rows = await query<{ used: number }>(db.url, 'SELECT used FROM usage_counters');
        expect(rows).toEqual([{ used: 98 }]);
        await expect(stores.usage.getUsage(org.id, '2026-11')).resolves.toEqual({
          month: '2026-11',
          used: 98,
          limit: 100,
        });
      },
      { poolMax: 25 },
    );
  });

  it('never passes the limit, whatever the mix of sizes', async () => {
    await withDatabase(
      async ({ stores }) => {
        const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'free' });
        const sizes = Array.from({ length: 40 }, (_, i) => 1 + ((i * 7) % 13));
        const results = await Promise.all(sizes.map((n) => reserve(stores, org.id, '2026-11', n, 100)));
        const total = sizes.filter((_, i) => results[i]!.ok).reduce((a, b) => a + b, 0);
        const { used } = await stores.usage.getUsage(org.id, '2026-11');
        expect(used).toBe(total);
        expect(used).toBeLessThanOrEqual(100);
        for (const r of results) expect(r.used).toBeLessThanOrEqual(100);
      },
      { poolMax: 25 },
    );
  });

  it('all or nothing; a release gives its units back once; months are separate', async () => {
    await withDatabase(async ({ db, stores }) => {
      const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'starter' });
      expect(held(await reserve(stores, org.id, '2026-11', 101, 100))).toEqual({
        ok: false,
        used: 0,
        limit: 100,
      });
      const seventy = await reserve(stores, org.id, '2026-11', 70, 100);
      const thirty = await reserve(stores, org.id, '2026-11', 30, 100);
      expect([held(seventy), held(thirty)]).toEqual([
        { ok: true, used: 70 },
        { ok: true, used: 100 },
      ]);
      expect(held(await reserve(stores, org.id, '2026-11', 1, 100))).toEqual({
        ok: false,
        used: 100,
        limit: 100,
      });
      const thirtyId = (thirty as { reservationId: string }).reservationId;
      await expect(stores.ledger.release({ reservationId: thirtyId })).resolves.toBe(true);
      await expect(stores.usage.getUsage(org.id, '2026-11')).resolves.toMatchObject({ used: 70 });
      await expect(stores.ledger.release({ reservationId: thirtyId })).resolves.toBe(false);
      expect(held(await reserve(stores, org.id, '2026-11', 30, 100))).toEqual({ ok: true, used: 100 });
      await expect(stores.ledger.release({ reservationId: 'rsv_000000000000000000000000' })).resolves.toBe(
        false,
      );

      // The last millisecond of November and the first of December (UTC) count in different months.
      const nov = monthOf(new Date('2026-11-30T23:59:59.999Z'));
      const dec = monthOf(new Date('2026-12-01T00:00:00.000Z'));
      const org2 = await stores.organizations.createOrganization({ name: 'Acme 2', plan: 'starter' });
      await reserve(stores, org2.id, nov, 10, 2000);
      await reserve(stores, org2.id, dec, 3, 2000);
      await expect(stores.usage.getUsage(org2.id, '2026-11')).resolves.toEqual({
        month: '2026-11',
        used: 10,
        limit: 2000,
      });
      await expect(stores.usage.getUsage(org2.id, '2026-12')).resolves.toEqual({
        month: '2026-12',
        used: 3,
        limit: 2000,
      });
      await expect(stores.usage.getUsage(org2.id, '2027-01')).resolves.toEqual({
        month: '2027-01',
        used: 0,
        limit: 2000,
      });
      const months = await query<{ month: string }>(
        db.url,
        `SELECT month FROM usage_counters WHERE organization_id = '${org2.id}' ORDER BY month`,
      );
      // A refused reservation creates no counter.
      expect(months.map((m) => m.month)).toEqual(['2026-11', '2026-12']);

      await expect(stores.usage.getUsage('org_000000000000000000000000', '2026-11')).rejects.toThrow(
        NotFoundError,
      );
      await expect(reserve(stores, org.id, '2026-13', 1, 100)).rejects.toThrow(RangeError);
      await expect(reserve(stores, org.id, '2026-11', -1, 100)).rejects.toThrow(RangeError);
    });
  });
});

describe('units ledger', () => {
  it('each reservation is committed or released once: a release run twice gives units back once', async () => {
    await withDatabase(async ({ stores }) => {
      const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'pro' });
      const month = '2026-11';
      const r1 = await stores.ledger.reserve({ organizationId: org.id, month, units: 2500, limit: 10_000 });
      const r2 = await stores.ledger.reserve({ organizationId: org.id, month, units: 5000, limit: 10_000 });
      expect([r1.ok, r2.ok]).toEqual([true, true]);
      const id1 = (r1 as { reservationId: string }).reservationId;
      const id2 = (r2 as { reservationId: string }).reservationId;
      await expect(stores.ledger.month(org.id, month)).resolves.toEqual({
        month,
        used: 7500,
        committed: 0,
        reserved: 7500,
        testRows: 0,
      });
      // The worker and the gateway both release the 422'd generation: once only.
      const releases = await Promise.all([
        stores.ledger.release({ reservationId: id1 }),
        stores.ledger.release({ reservationId: id1 }),
      ]);
      expect(releases.filter(Boolean)).toHaveLength(1);
      await expect(stores.ledger.release({ reservationId: id1 })).resolves.toBe(false);
      await expect(stores.ledger.commit({ reservationId: id1 })).resolves.toBeNull();
      // Kept in part (rows analysed < lines reserved): the rest goes back.
      await expect(stores.ledger.commit({ reservationId: id2 }, 4000)).resolves.toEqual({
        mode: 'live',
        units: 4000,
      });
      await expect(stores.ledger.release({ reservationId: id2 })).resolves.toBe(false);
      await expect(stores.ledger.month(org.id, month)).resolves.toEqual({
        month,
        used: 4000,
        committed: 4000,
        reserved: 0,
        testRows: 0,
      });
      const refused = await stores.ledger.reserve({
        organizationId: org.id,
        month,
        units: 6001,
        limit: 10_000,
      });
      expect(refused).toEqual({ ok: false, used: 4000, limit: 10_000 });
      await expect(stores.ledger.month(org.id, month)).resolves.toMatchObject({ used: 4000, reserved: 0 });
    });
  });
});

// ---- files ----------------------------------------------------------------------------------------------------------

describe('file records', () => {
  // Their moves are libs/jobs FileLifecycle's (test/lifecycle.e2e-spec.ts); the store reads them.
  it('are read in the vocabulary of the contract, and listed for the sweep oldest first', async () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    await withDatabase(
      async ({ prisma, stores }) => {
        const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'pro' });
        const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
        const row = (id: string, status: 'AVAILABLE' | 'PROCESSING', expiresAt: Date | null) =>
          prisma.fileRecord.create({
            data: {
              id,
              organizationId: org.id,
              apiKeyId: key.id,
              mode: 'LIVE',
              status,
              type: 'adf',
              declarant: 'employer',
              specVersion: '2026-02',
              filename: 'ppfile_adf_20261122_1a2b3c4d.csv',
              rows: 3,
              declarations: 1,
              stored: true,
              units: 3,
              expiresAt,
              lang: 'fr',
            },
          });
        const a = 'file_' + 'a'.repeat(32);
        const b = 'file_' + 'b'.repeat(32);
        await row(a, 'AVAILABLE', new Date('2026-11-23T10:00:00.000Z'));
        await row(b, 'AVAILABLE', new Date('2026-11-23T09:00:00.000Z'));
        await row('file_' + 'c'.repeat(32), 'PROCESSING', null);
        expect(a).toMatch(FILE_ID);
        await expect(stores.files.getFileRecord(a)).resolves.toMatchObject({
          status: 'available',
          mode: 'live',
          type: 'adf',
          declarant: 'employer',
          lang: 'fr',
          error: null,
        });
        await expect(stores.files.getFileRecord('file_' + '0'.repeat(32))).resolves.toBeNull();
        const later = new Date('2026-11-23T12:00:00.000Z');
        expect((await stores.files.listExpired(later, 10)).map((f) => f.id)).toEqual([b, a]);
        await expect(stores.files.listExpired(later, 1)).resolves.toHaveLength(1);
        await expect(
          stores.files.listExpired(new Date('2026-11-23T09:30:00.000Z'), 10),
        ).resolves.toHaveLength(1);
        await expect(stores.files.countByStatus()).resolves.toEqual({ available: 2, processing: 1 });

        // A row outside the vocabulary is refused where it is read, not carried as a string.
        await prisma.fileRecord.update({ where: { id: b }, data: { declarant: 'someone' } });
        await expect(stores.files.getFileRecord(b)).rejects.toThrow(/unknown type or declarant/);
      },
      { clock: () => now },
    );
  });
});

// ---- idempotency ----------------------------------------------------------------------------------------------------

describe('idempotency records', () => {
  async function withKey(work: (stores: Stores, keyId: string) => Promise<void>): Promise<void> {
    await withDatabase(
      async ({ stores }) => {
        const org = await stores.organizations.createOrganization({ name: 'Acme', plan: 'pro' });
        const key = await stores.apiKeys.createApiKey({ organizationId: org.id, mode: 'live' });
        await work(stores, key.id);
      },
      { poolMax: 25 },
    );
  }
  const t0 = new Date('2026-11-22T10:00:00.000Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);

  it('new, in progress, mismatch, completed, abandoned', async () => {
    await withKey(async ({ idempotency }, keyId) => {
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h1', t0)).resolves.toEqual({ state: 'new' });
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h1', at(1000))).resolves.toEqual({
        state: 'in_progress',
      });
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h2', at(1000))).resolves.toEqual({
        state: 'mismatch',
      });

      const reply = { file_id: 'file_' + '1'.repeat(32), status: 'available', rows: 3 };
      await expect(idempotency.completeIdempotent(keyId, 'k1', 201, reply, reply.file_id)).resolves.toBe(
        true,
      );
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h1', at(2000))).resolves.toEqual({
        state: 'completed',
        status: 201,
        body: reply,
        fileId: reply.file_id,
      });
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h2', at(2000))).resolves.toEqual({
        state: 'mismatch',
      });
      // A completed record stays: abandon only drops unfinished claims.
      await idempotency.abandonIdempotent(keyId, 'k1');
      await expect(idempotency.beginIdempotent(keyId, 'k1', 'h1', at(3000))).resolves.toMatchObject({
        state: 'completed',
      });

      await expect(idempotency.beginIdempotent(keyId, 'k2', 'h1', t0)).resolves.toEqual({ state: 'new' });
      await idempotency.abandonIdempotent(keyId, 'k2');
      await expect(idempotency.beginIdempotent(keyId, 'k2', 'h9', at(10))).resolves.toEqual({ state: 'new' });
      await expect(idempotency.completeIdempotent(keyId, 'k3', 200, {})).resolves.toBe(false);
    });
  });

  it('a claim carries a lease: a dead request frees its key after it; one that accepted a file is answered from it', async () => {
    await withKey(async ({ idempotency }, keyId) => {
      const lease = 60_000;
      await expect(idempotency.beginIdempotent(keyId, 'dead', 'h1', t0, lease)).resolves.toEqual({
        state: 'new',
      });
      await expect(idempotency.beginIdempotent(keyId, 'dead', 'h1', at(lease - 1), lease)).resolves.toEqual({
        state: 'in_progress',
      });
      // The request crashed before accepting anything: after its lease the key is free again.
      await expect(idempotency.beginIdempotent(keyId, 'dead', 'h1', at(lease), lease)).resolves.toEqual({
        state: 'new',
      });

      await expect(idempotency.beginIdempotent(keyId, 'accepted', 'h1', t0, lease)).resolves.toEqual({
        state: 'new',
      });
      const fileId = 'file_' + '2'.repeat(32);
      await idempotency.attachFile(keyId, 'accepted', fileId);
      await expect(idempotency.beginIdempotent(keyId, 'accepted', 'h1', at(1000), lease)).resolves.toEqual({
        state: 'in_progress',
      });
      await expect(
        idempotency.beginIdempotent(keyId, 'accepted', 'h1', at(lease + 1), lease),
      ).resolves.toEqual({ state: 'accepted', fileId });
      await expect(
        idempotency.beginIdempotent(keyId, 'accepted', 'h2', at(lease + 1), lease),
      ).resolves.toEqual({ state: 'mismatch' });

      // The reconciler's purge removes dead claims only (the retaken 'dead' one holds a fresh lease).
      await expect(idempotency.beginIdempotent(keyId, 'dead2', 'h1', t0, lease)).resolves.toEqual({
        state: 'new',
      });
      await expect(idempotency.purgeStaleClaims(at(lease))).resolves.toBe(1);
      await expect(
        idempotency.beginIdempotent(keyId, 'accepted', 'h1', at(lease + 2), lease),
      ).resolves.toEqual({ state: 'accepted', fileId });
    });
  });

  it('a record older than 24 hours counts as absent and is replaced', async () => {
    await withKey(async ({ idempotency }, keyId) => {
      await idempotency.beginIdempotent(keyId, 'k', 'h1', t0);
      await idempotency.completeIdempotent(keyId, 'k', 200, { n: 1 });
      await expect(
        idempotency.beginIdempotent(keyId, 'k', 'h2', at(IDEMPOTENCY_TTL_MS - 1)),
      ).resolves.toEqual({
        state: 'mismatch',
      });
      await expect(idempotency.beginIdempotent(keyId, 'k', 'h2', at(IDEMPOTENCY_TTL_MS))).resolves.toEqual({
        state: 'new',
      });
      await expect(
        idempotency.beginIdempotent(keyId, 'k', 'h2', at(IDEMPOTENCY_TTL_MS + 1)),
      ).resolves.toEqual({
        state: 'in_progress',
      });
      await expect(idempotency.purgeExpired(at(2 * IDEMPOTENCY_TTL_MS - 1))).resolves.toBe(0);
      await expect(idempotency.purgeExpired(at(2 * IDEMPOTENCY_TTL_MS))).resolves.toBe(1);
    });
  });

  it('10 concurrent begins with the same key: exactly one is new', async () => {
    await withKey(async ({ idempotency }, keyId) => {
      const results = await Promise.all(
        Array.from({ length: 10 }, () => idempotency.beginIdempotent(keyId, 'same', 'h', t0)),
      );
      expect(results.filter((r) => r.state === 'new')).toHaveLength(1);
      expect(results.filter((r) => r.state === 'in_progress')).toHaveLength(9);

      // Same when they race to take over an expired record.
      const later = at(IDEMPOTENCY_TTL_MS + 5);
      const again = await Promise.all(
        Array.from({ length: 10 }, () => idempotency.beginIdempotent(keyId, 'same', 'h', later)),
      );
      expect(again.filter((r) => r.state === 'new')).toHaveLength(1);
      expect(again.filter((r) => r.state === 'in_progress')).toHaveLength(9);
    });
  });
});

// ---- the operators' CLI ---------------------------------------------------------------------------------------------

interface Run {
  status: number | null;
  out: string;
  err: string;
}

/** `node bin/ppfile.js …` with DATABASE_URL: in process (support/cli.ts), as the built CLI runs it. */
function cli(args: string[], url: string): Run {
  const r = runCli(args, { env: { ...process.env, DATABASE_URL: url } });
  return { status: r.status, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
}

function cliAsync(args: string[], url: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, out, err }));
  });
}

function expectOneLineError(r: Run, pattern: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.out).toBe('');
  expect(r.err).toMatch(pattern);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).not.toMatch(/\n\s+at /);
}

describe('admin CLI (`node bin/ppfile.js admin …` as an operator runs it)', () => {
  beforeAll(() => {
    assertBuilt('cli', BUILT_ADMIN);
  }, 180_000);

  it('db migrate creates and migrates a fresh database, twice concurrently, then reports it up to date', async () => {
    const name = randomDatabaseName();
    const url = databaseUrl(name);
    try {
      const [a, b] = await Promise.all([
        cliAsync(['admin', 'db', 'migrate'], url),
        cliAsync(['admin', 'db', 'migrate'], url),
      ]);
      expect([a.status, b.status]).toEqual([0, 0]);
      const applied = [a, b].filter((r) => /^applied \d{14}_init$/m.test(r.out));
      expect(applied).toHaveLength(1);
      const plain = cli(['admin', 'db', 'migrate'], url);
      expect(plain.status).toBe(0);
      expect(plain.out).toMatch(/is up to date \(6 migration\(s\) applied\)/);
      const json = cli(['admin', 'db', 'migrate', '--json'], url);
      expect(json.status).toBe(0);
      expect(JSON.parse(json.out)).toEqual({
        applied: [],
        already_applied: [
          '20261122120000_init',
          '20261123120000_durable_work',
          '20261123130000_test_rows',
          '20261124120000_dashboard',
          '20261127120000_payloads_in_object_store',
          '20261128120000_build_page',
        ],
        created_database: false,
      });
    } finally {
      await dropDatabase(name);
    }
  });

  it('db migrate --json on a fresh database', async () => {
    const name = randomDatabaseName();
    try {
      const r = cli(['admin', 'db', 'migrate', '--json'], databaseUrl(name));
      expect(r.status).toBe(0);
      expect(JSON.parse(r.out)).toEqual({
        applied: [
          '20261122120000_init',
          '20261123120000_durable_work',
          '20261123130000_test_rows',
          '20261124120000_dashboard',
          '20261127120000_payloads_in_object_store',
          '20261128120000_build_page',
        ],
        already_applied: [],
        created_database: true,
      });
    } finally {
      await dropDatabase(name);
    }
  });

  it('org create, key create, key revoke and usage, with and without --json', async () => {
    const db = await createTestDatabase();
    try {
      const org = cli(['admin', 'org', 'create', '--name', 'Acme Formation', '--plan', 'starter'], db.url);
      expect(org.status).toBe(0);
      expect(org.out).toMatch(/^org_[0-9a-f]{24}\n$/);
      const orgId = org.out.trim();
      const orgJson = cli(
        ['admin', 'org', 'create', '--name', 'Other', '--plan', 'business', '--json'],
        db.url,
      );
      expect(orgJson.status).toBe(0);
      expect(JSON.parse(orgJson.out)).toEqual({ id: expect.stringMatching(/^org_[0-9a-f]{24}$/) });
      expect(
        await query(db.url, 'SELECT name, plan::text FROM organizations WHERE id = $1', [orgId]),
      ).toEqual([{ name: 'Acme Formation', plan: 'STARTER' }]);

      const key = cli(['admin', 'key', 'create', '--org', orgId, '--mode', 'test', '--name', 'ci'], db.url);
      expect(key.status).toBe(0);
      expect(key.out).toMatch(/^pp_test_[A-Za-z0-9]{40}\n$/);
      expect(key.err).toMatch(/^key_[0-9a-f]{24} \(test, pp_test_[A-Za-z0-9]{4}…\): shown once/);
      const keyJson = cli(['admin', 'key', 'create', '--org', orgId, '--mode', 'live', '--json'], db.url);
      expect(keyJson.status).toBe(0);
      const created = JSON.parse(keyJson.out) as { id: string; key: string; mode: string; prefix: string };
      expect(created).toEqual({
        id: expect.stringMatching(/^key_[0-9a-f]{24}$/),
        key: expect.stringMatching(/^pp_live_[A-Za-z0-9]{40}$/),
        mode: 'live',
        prefix: created.key.slice(0, 12),
      });

      // The keys the CLI printed authenticate through the library.
      const prisma = createPrismaClient(db.url, { poolMax: 2 });
      try {
        const keys = new ApiKeyStore(prisma);
        await expect(keys.authenticate(key.out.trim())).resolves.toMatchObject({
          mode: 'test',
          organization: { id: orgId },
        });
        await expect(keys.authenticate(created.key)).resolves.toMatchObject({
          keyId: created.id,
          mode: 'live',
        });

        const revoke = cli(['admin', 'key', 'revoke', created.id], db.url);
        expect(revoke.status).toBe(0);
        expect(revoke.out).toMatch(
          new RegExp(`^${created.id} revoked at \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z\\n$`),
        );
        await expect(keys.authenticate(created.key)).resolves.toBeNull();
        const revokeJson = cli(['admin', 'key', 'revoke', created.id, '--json'], db.url);
        expect(revokeJson.status).toBe(0);
        expect(JSON.parse(revokeJson.out)).toEqual({
          id: created.id,
          revoked_at: revoke.out.trim().split(' ').pop(),
        });

        const stores = createStores(prisma);
        const current = await stores.ledger.reserve({
          organizationId: orgId,
          month: monthOf(new Date()),
          units: 42,
          limit: 2000,
        });
        await stores.ledger.commit({ reservationId: (current as { reservationId: string }).reservationId });
        const january = await stores.ledger.reserve({
          organizationId: orgId,
          month: '2026-01',
          units: 7,
          limit: 2000,
        });
        await stores.ledger.commit({ reservationId: (january as { reservationId: string }).reservationId });
      } finally {
        await prisma.$disconnect();
      }

      const usage = cli(['admin', 'usage', '--org', orgId], db.url);
      expect(usage.status).toBe(0);
      expect(usage.out).toBe(`${monthOf(new Date())}: 42 of 2000 units used\n`);
      const usageJson = cli(['admin', 'usage', '--org', orgId, '--month', '2026-01', '--json'], db.url);
      expect(usageJson.status).toBe(0);
      // The counter and what the ledger says it is made of.
      expect(JSON.parse(usageJson.out)).toEqual({
        month: '2026-01',
        used: 7,
        limit: 2000,
        committed: 7,
        reserved: 0,
        test_rows: 0,
      });
      const usagePlain = cli(['admin', 'usage', '--org', orgId, '--month', '2025-12'], db.url);
      expect(usagePlain.out).toBe('2025-12: 0 of 2000 units used\n');
    } finally {
      await db.drop();
    }
  });

  it('mistakes and database failures: one line on stderr, exit 2, no stack trace', async () => {
    const db = await createTestDatabase();
    try {
      const unknownOrg = 'org_000000000000000000000000';
      expectOneLineError(
        cli(['admin', 'key', 'create', '--org', unknownOrg, '--mode', 'live'], db.url),
        /unknown organization/,
      );
      expectOneLineError(
        cli(['admin', 'usage', '--org', unknownOrg, '--json'], db.url),
        /unknown organization/,
      );
      expectOneLineError(
        cli(['admin', 'key', 'revoke', 'key_000000000000000000000000'], db.url),
        /unknown API key/,
      );
      expectOneLineError(
        cli(['admin', 'org', 'create', '--name', 'X', '--plan', 'gold'], db.url),
        /--plan expects/,
      );
      expectOneLineError(cli(['admin', 'org', 'create', '--plan', 'free'], db.url), /--name is required/);
      expectOneLineError(
        cli(['admin', 'key', 'create', '--org', unknownOrg, '--mode', 'prod'], db.url),
        /--mode expects/,
      );
      expectOneLineError(
        cli(['admin', 'usage', '--org', unknownOrg, '--month', '2026-13'], db.url),
        /--month expects YYYY-MM/,
      );
      expectOneLineError(
        cli(['admin', 'org', 'create', '--name', 'X', '--plan', 'free', '--bogus'], db.url),
        /bogus/,
      );

      const nothing = cli(['admin'], db.url);
      expect(nothing.status).toBe(2);
      expect(nothing.err).toContain('ppfile admin org create --name NAME --plan free|starter|pro|business');
      expect(nothing.err).toContain('ppfile admin key list --org ID');

      expectOneLineError(
        cli(['admin', 'usage', '--org', unknownOrg], 'postgresql://postgres@127.0.0.1:1/ppfile'),
        /cannot reach the database at postgresql:\/\/postgres@127\.0\.0\.1:1\/ppfile/,
      );
      expectOneLineError(
        cli(['admin', 'db', 'migrate'], 'postgresql://postgres@127.0.0.1:1/ppfile'),
        /cannot reach the database/,
      );
      expectOneLineError(
        cli(['admin', 'org', 'create', '--name', 'X', '--plan', 'free'], databaseUrl(randomDatabaseName())),
        /does not exist \(run `npm run db:migrate`\)/,
      );
      const bare = await createTestDatabase({ migrate: false });
      try {
        expectOneLineError(
          cli(['admin', 'usage', '--org', unknownOrg], bare.url),
          /is not migrated \(run `npm run db:migrate`\)/,
        );
      } finally {
        await bare.drop();
      }
    } finally {
      await db.drop();
    }
  });

  it('org list and key list --org: ids, names, plans, display prefixes, dates; never a key nor its hash', async () => {
    const db = await createTestDatabase();
    try {
      const empty = cli(['admin', 'org', 'list'], db.url);
      expect(empty).toEqual({ status: 0, out: '', err: 'no organization\n' });
      expect(JSON.parse(cli(['admin', 'org', 'list', '--json'], db.url).out)).toEqual({ organizations: [] });

      const acme = cli(
        ['admin', 'org', 'create', '--name', 'Acme Formation', '--plan', 'starter'],
        db.url,
      ).out.trim();
      const other = cli(
        ['admin', 'org', 'create', '--name', 'Transports Exemple SAS', '--plan', 'pro'],
        db.url,
      ).out.trim();
      const orgs = cli(['admin', 'org', 'list', '--json'], db.url);
      expect(orgs.status).toBe(0);
      const listed = (JSON.parse(orgs.out) as { organizations: { created_at: string }[] }).organizations;
      expect(listed).toEqual([
        {
          id: acme,
          name: 'Acme Formation',
          plan: 'starter',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
        {
          id: other,
          name: 'Transports Exemple SAS',
          plan: 'pro',
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        },
      ]);
      const text = cli(['admin', 'org', 'list'], db.url);
      expect(text.status).toBe(0);
      expect(text.err).toBe('');
      const created = listed.map((o) => o.created_at);
      expect(text.out).toBe(
        'ID                            PLAN     CREATED                   NAME\n' +
          `${acme}  starter  ${created[0]}  Acme Formation\n` +
          `${other}  pro      ${created[1]}  Transports Exemple SAS\n`,
      );

      expect(cli(['admin', 'key', 'list', '--org', acme], db.url)).toEqual({
        status: 0,
        out: '',
        err: `no API key for ${acme}\n`,
      });
      const live = JSON.parse(
        cli(
          [
            'admin',
            'key',
            'create',
            '--org',
            acme,
            '--mode',
            'live',
            '--name',
            'logiciel de gestion',
            '--json',
          ],
          db.url,
        ).out,
      ) as { id: string; key: string; prefix: string };
      const test = JSON.parse(
        cli(['admin', 'key', 'create', '--org', acme, '--mode', 'test', '--json'], db.url).out,
      ) as {
        id: string;
        key: string;
        prefix: string;
      };
      cli(['admin', 'key', 'create', '--org', other, '--mode', 'live'], db.url);
      expect(cli(['admin', 'key', 'revoke', test.id], db.url).status).toBe(0);
      // The gateway's authentication writes last_used_at; the list shows it.
      const prisma = createPrismaClient(db.url, { poolMax: 1 });
      try {
        await expect(new ApiKeyStore(prisma).authenticate(live.key)).resolves.toMatchObject({
          keyId: live.id,
        });
      } finally {
        await prisma.$disconnect();
      }

      const keys = cli(['admin', 'key', 'list', '--org', acme, '--json'], db.url);
      expect(keys.status).toBe(0);
      const body = JSON.parse(keys.out) as { keys: Record<string, string | null>[] };
      expect(body).toEqual({
        keys: [
          {
            id: live.id,
            name: 'logiciel de gestion',
            mode: 'live',
            prefix: live.prefix,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            last_used_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            revoked_at: null,
          },
          {
            id: test.id,
            name: null,
            mode: 'test',
            prefix: test.prefix,
            created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
            last_used_at: null,
            revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
          },
        ],
      });
      const table = cli(['admin', 'key', 'list', '--org', acme], db.url);
      expect(table.status).toBe(0);
      const [k1, k2] = body.keys;
      expect(table.out).toBe(
        'ID                            MODE  PREFIX         CREATED                   LAST USED                 REVOKED                   NAME\n' +
          `${live.id}  live  ${live.prefix}…  ${k1!.created_at}  ${k1!.last_used_at}  -                         logiciel de gestion\n` +
          `${test.id}  test  ${test.prefix}…  ${k2!.created_at}  -                         ${k2!.revoked_at}  -\n`,
      );
      // Prefixes only: neither key, nor its secret part, nor its hash in any output.
      for (const output of [keys.out, table.out, keys.err, table.err]) {
        for (const key of [live.key, test.key]) {
          expect(output).not.toContain(key.slice(12));
          expect(output).not.toContain(hashKey(key));
        }
      }
      expect(cli(['admin', 'key', 'list', '--org', other, '--json'], db.url).out).not.toContain(live.id);

      expectOneLineError(
        cli(['admin', 'key', 'list', '--org', 'org_000000000000000000000000'], db.url),
        /^ppfile admin key list: unknown organization "org_000000000000000000000000"\n$/,
      );
      expectOneLineError(
        cli(['admin', 'key', 'list'], db.url),
        /^ppfile admin key list: --org is required\n$/,
      );
    } finally {
      await db.drop();
    }
  });

  it('--lang fr: the operators’ lines and refusals in French too', async () => {
    const db = await createTestDatabase();
    try {
      const org = cli(['admin', 'org', 'create', '--name', 'Acme', '--plan', 'free'], db.url).out.trim();
      const key = cli(['admin', 'key', 'create', '--org', org, '--mode', 'test', '--lang', 'fr'], db.url);
      expect(key.status).toBe(0);
      expect(key.err).toMatch(
        /^key_[0-9a-f]{24} \(test, pp_test_\w{4}…\) : affichée une seule fois, conservez-la maintenant ; seule son empreinte est gardée\.\n$/,
      );
      expect(cli(['admin', 'org', 'list', '--lang', 'fr'], db.url).out.split('\n')[0]).toMatch(
        /^ID +OFFRE +CRÉÉE +NOM$/,
      );
      expect(cli(['admin', 'usage', '--org', org, '--month', '2025-12', '--lang', 'fr'], db.url).out).toBe(
        '2025-12 : 0 unités utilisées sur 100\n',
      );
      expectOneLineError(
        cli(['admin', 'key', 'list', '--org', 'org_000000000000000000000000', '--lang', 'fr'], db.url),
        /^ppfile admin key list : organisation inconnue « org_000000000000000000000000 »\n$/,
      );
      expectOneLineError(
        cli(['admin', 'org', 'list', '--lang', 'fr'], 'postgresql://postgres@127.0.0.1:1/ppfile'),
        /^ppfile admin org list : impossible de joindre la base de données postgresql:\/\/postgres@127\.0\.0\.1:1\/ppfile /,
      );
    } finally {
      await db.drop();
    }
  });

  it('--help of every admin command exits 0 without touching the database; the plans it lists are libs/db’s', () => {
    const unreachable = 'postgresql://postgres@127.0.0.1:1/ppfile';
    for (const command of [
      ['admin'],
      ['admin', 'org'],
      ['admin', 'org', 'create'],
      ['admin', 'org', 'list'],
      ['admin', 'key'],
      ['admin', 'key', 'create'],
      ['admin', 'key', 'list'],
      ['admin', 'key', 'revoke'],
      ['admin', 'user', 'create'],
      ['admin', 'usage'],
      ['admin', 'reconcile'],
      ['admin', 'db', 'migrate'],
    ]) {
      const r = cli([...command, '--help'], unreachable);
      expect({ command, status: r.status, err: r.err }).toEqual({ command, status: 0, err: '' });
      expect(r.out).toContain(`ppfile ${command.join(' ')}`);
    }
    expect(cli(['admin', 'org', 'create', '--help'], unreachable).out).toContain(
      `--plan ${PLAN_NAMES.join('|')}`,
    );
  });

  it('the offline commands do not load Prisma', () => {
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `require(${JSON.stringify(path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js'))});
         const loaded = Object.keys(require.cache).filter((f) => /@prisma|[\\\\/]libs[\\\\/]db[\\\\/]/.test(f));
         process.stdout.write(JSON.stringify(loaded));`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(probe.status).toBe(0);
    expect(JSON.parse(probe.stdout)).toEqual([]);
  });
});
