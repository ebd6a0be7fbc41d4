import {
  createPrismaClient,
  createStores,
  DEFAULT_DATABASE_URL,
  describeDatabaseError,
  DuplicateUserError,
  isEmail,
  isMonth,
  isPlanName,
  migrate,
  MigrationError,
  monthOf,
  normalizeEmail,
  NotFoundError,
  PLAN_NAMES,
  redactUrl,
  type PrismaClient,
  type Stores,
} from '@ppfile/db';
import { EnvReader } from '@ppfile/config';
import { checkInvariants } from '@ppfile/jobs';
import { ObjectStorage } from '@ppfile/storage';
import { oneOf, parse, single } from '../args';
import { EXIT_INVALID, EXIT_OK, printJson, UsageError, type Output } from '../cli-io';

/**
 * Operators' commands (API.md §12–§13) over DATABASE_URL. main.ts loads this file only when `admin`
 * is asked for, so the offline commands never load Prisma.
 */

const USAGE = `usage:
  ppfile admin org create --name NAME --plan ${PLAN_NAMES.join('|')} [--json]
  ppfile admin key create --org ID --mode live|test [--name LABEL] [--json]
  ppfile admin key revoke KEY_ID [--json]
  ppfile admin user create --org ID --email E [--json]
  ppfile admin usage --org ID [--month YYYY-MM] [--json]
  ppfile admin reconcile --check [--json]
  ppfile admin db migrate [--json]`;

type Values = Record<string, string | boolean | undefined>;

interface Context {
  values: Values;
  positionals: string[];
  output: Output;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
}

function requiredString(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

function noPositionals(positionals: string[]): void {
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
}

async function withStores<T>(databaseUrl: string, work: (stores: Stores) => Promise<T>): Promise<T> {
  const prisma: PrismaClient = createPrismaClient(databaseUrl, { poolMax: 2 });
  try {
    return await work(createStores(prisma));
  } finally {
    await prisma.$disconnect();
  }
}

async function orgCreate({ values, positionals, output, databaseUrl }: Context): Promise<number> {
  noPositionals(positionals);
  const name = requiredString(values, 'name');
  if (!isPlanName(values.plan)) throw new UsageError(`--plan expects ${PLAN_NAMES.join(' | ')}`);
  const plan = values.plan;
  const organization = await withStores(databaseUrl, (s) =>
    s.organizations.createOrganization({ name, plan }),
  );
  if (values.json) printJson(output, { id: organization.id });
  else output.out(`${organization.id}\n`);
  return EXIT_OK;
}

async function keyCreate({ values, positionals, output, databaseUrl }: Context): Promise<number> {
  noPositionals(positionals);
  const organizationId = requiredString(values, 'org');
  const mode = oneOf('mode', values.mode, ['live', 'test'] as const);
  const name = typeof values.name === 'string' ? values.name : undefined;
  const key = await withStores(databaseUrl, (s) => s.apiKeys.createApiKey({ organizationId, mode, name }));
  if (values.json) printJson(output, { id: key.id, key: key.key, mode: key.mode, prefix: key.prefix });
  else {
    // The key alone on stdout, so that `KEY=$(ppfile admin key create …)` works; the rest is for people.
    output.out(`${key.key}\n`);
    output.err(`${key.id} (${key.mode}, ${key.prefix}…): shown once, store it now; only its hash is kept.\n`);
  }
  return EXIT_OK;
}

async function keyRevoke({ values, positionals, output, databaseUrl }: Context): Promise<number> {
  const id = single(positionals, 'KEY_ID');
  const revoked = await withStores(databaseUrl, (s) => s.apiKeys.revokeApiKey(id));
  if (values.json) printJson(output, { id: revoked.id, revoked_at: revoked.revokedAt.toISOString() });
  else output.out(`${revoked.id} revoked at ${revoked.revokedAt.toISOString()}\n`);
  return EXIT_OK;
}

/**
 * `admin user create`: a person of the organization who signs in to the dashboard (API.md §12). No
 * password is chosen for them: the command prints a one-time invitation link (valid 7 days) with
 * which they set it. PUBLIC_BASE_URL gives the link's origin, as for the gateway.
 */
async function userCreate({ values, positionals, output, databaseUrl, env }: Context): Promise<number> {
  noPositionals(positionals);
  const organizationId = requiredString(values, 'org');
  const email = normalizeEmail(requiredString(values, 'email'));
  if (!isEmail(email)) throw new UsageError('--email expects an e-mail address');
  const base = (env.PUBLIC_BASE_URL || 'http://localhost:3000').replace(/\/+$/, '');
  const invitation = await withStores(databaseUrl, (s) =>
    s.users.createWithInvitation({ organizationId, email }),
  );
  const url = `${base}/dashboard/invite/${invitation.token}`;
  if (values.json) {
    printJson(output, {
      id: invitation.user.id,
      organization_id: invitation.user.organizationId,
      email: invitation.user.email,
      invitation_url: url,
      expires_at: invitation.expiresAt.toISOString(),
    });
  } else {
    // The link alone on stdout (scripts capture it); the rest is for the operator.
    output.out(`${url}\n`);
    output.err(
      `${invitation.user.id} (${invitation.user.email}): send this link to the person; it works once, ` +
        `until ${invitation.expiresAt.toISOString()}, to set their password.\n`,
    );
  }
  return EXIT_OK;
}

async function usage({ values, positionals, output, databaseUrl }: Context): Promise<number> {
  noPositionals(positionals);
  const organizationId = requiredString(values, 'org');
  const month = values.month === undefined ? monthOf(new Date()) : values.month;
  if (!isMonth(month)) throw new UsageError('--month expects YYYY-MM');
  const [result, ledger] = await withStores(databaseUrl, (s) =>
    Promise.all([s.usage.getUsage(organizationId, month), s.ledger.month(organizationId, month)]),
  );
  if (values.json) {
    printJson(output, {
      month: result.month,
      used: result.used,
      limit: result.limit,
      committed: ledger.committed,
      reserved: ledger.reserved,
      test_rows: ledger.testRows,
    });
  } else {
    const held = ledger.reserved ? ` (${ledger.reserved} reserved for work in progress)` : '';
    const test = ledger.testRows ? `; ${ledger.testRows} rows generated with test keys` : '';
    output.out(`${result.month}: ${result.used} of ${result.limit} units used${held}${test}\n`);
  }
  return EXIT_OK;
}

/**
 * `admin reconcile --check`: the invariants of accepted work (libs/jobs checkInvariants) over
 * DATABASE_URL and the object store of S3_*; exit 1 listing each violation, 0 when there is none.
 */
async function reconcileCheck({ values, positionals, output, databaseUrl, env }: Context): Promise<number> {
  noPositionals(positionals);
  if (!values.check)
    throw new UsageError(
      'admin reconcile only checks for now: pass --check (the workers repair by themselves)',
    );
  const read = new EnvReader(env);
  const s3 = read.s3();
  const lease = read.int('PROCESSING_LEASE_SECONDS', 600, 1, 7 * 86400);
  try {
    read.done();
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
  const prisma = createPrismaClient(databaseUrl, { poolMax: 2 });
  let violations;
  try {
    violations = await checkInvariants({
      prisma,
      storage: new ObjectStorage(s3),
      now: new Date(),
      processingLeaseSeconds: lease,
    });
  } finally {
    await prisma.$disconnect();
  }
  if (values.json) printJson(output, { ok: violations.length === 0, violations });
  else if (violations.length === 0) output.out('reconcile: every invariant holds\n');
  else for (const v of violations) output.out(`${v.kind} ${v.subject}: ${v.detail}\n`);
  return violations.length === 0 ? EXIT_OK : EXIT_INVALID;
}

async function dbMigrate({ values, positionals, output, databaseUrl }: Context): Promise<number> {
  noPositionals(positionals);
  const result = await migrate(
    databaseUrl,
    undefined,
    values.json ? {} : { log: (line) => output.out(`${line}\n`) },
  );
  if (values.json) {
    printJson(output, {
      applied: result.applied,
      already_applied: result.alreadyApplied,
      created_database: result.createdDatabase,
    });
  } else if (result.applied.length === 0) {
    output.out(
      `${redactUrl(databaseUrl)} is up to date (${result.alreadyApplied.length} migration(s) applied)\n`,
    );
  }
  return EXIT_OK;
}

interface Subcommand {
  options: Parameters<typeof parse>[1];
  run: (context: Context) => Promise<number>;
}

const json = { type: 'boolean' } as const;

const SUBCOMMANDS: Record<string, Subcommand> = {
  'org create': { options: { name: { type: 'string' }, plan: { type: 'string' }, json }, run: orgCreate },
  'key create': {
    options: { org: { type: 'string' }, mode: { type: 'string' }, name: { type: 'string' }, json },
    run: keyCreate,
  },
  'key revoke': { options: { json }, run: keyRevoke },
  'user create': { options: { org: { type: 'string' }, email: { type: 'string' }, json }, run: userCreate },
  usage: { options: { org: { type: 'string' }, month: { type: 'string' }, json }, run: usage },
  reconcile: { options: { check: { type: 'boolean' }, json }, run: reconcileCheck },
  'db migrate': { options: { json }, run: dbMigrate },
};

/** The last meaningful line of a message: Prisma's first lines point into the caller's source. */
function lastLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? 'unknown error';
}

/** Failures of the database and of the operator's input become one line on stderr and exit 2. */
function explain(error: unknown, databaseUrl: string): UsageError {
  if (error instanceof UsageError) return error;
  const described = describeDatabaseError(error, databaseUrl);
  if (described) return new UsageError(described);
  if (
    error instanceof NotFoundError ||
    error instanceof MigrationError ||
    error instanceof RangeError ||
    error instanceof DuplicateUserError
  ) {
    return new UsageError(error.message);
  }
  return new UsageError(
    `unexpected error: ${lastLine(error instanceof Error ? error.message : String(error))}`,
  );
}

/** `ppfile admin …` */
export async function adminCommand(args: string[], output: Output, env: NodeJS.ProcessEnv): Promise<number> {
  const one = args[0] !== undefined && SUBCOMMANDS[args[0]] ? args[0] : undefined;
  const two = args.length >= 2 && SUBCOMMANDS[`${args[0]} ${args[1]}`] ? `${args[0]} ${args[1]}` : undefined;
  const name = two ?? one;
  if (!name) throw new UsageError(USAGE);
  const subcommand = SUBCOMMANDS[name]!;
  const { values, positionals } = parse(args.slice(name.split(' ').length), subcommand.options);
  const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
  try {
    return await subcommand.run({ values, positionals, output, databaseUrl, env });
  } catch (e) {
    throw explain(e, databaseUrl);
  }
}
