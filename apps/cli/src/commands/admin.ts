import {
  createPrismaClient,
  createStores,
  databaseErrorKind,
  DEFAULT_DATABASE_URL,
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
  type CreatedInvitation,
  type PrismaClient,
  type Stores,
} from '@ppfile/db';
import {
  ReconcileEnvironment,
  s3ConfigOf,
  validateEnvironment,
  withoutTrailingSlashes,
} from '@ppfile/config';
import { Redis } from 'ioredis';
import { checkInvariants } from '@ppfile/jobs';
// Apart from the index: bullmq stays out of every process that loads @ppfile/jobs (rules threads too).
import { drainLegacyQueue } from '@ppfile/jobs/legacy-queue';
import type { Lang } from '@ppfile/rules';
import { ObjectStorage } from '@ppfile/storage';
import { EXIT_INVALID, EXIT_OK, printJson, UsageError, usageError, type Output } from '../cli-io';
import type { Invocation, Values } from '../invocation';
import { oneOf, requiredString } from '../option-values';
import { say } from '../words';

/**
 * Operators' commands (API.md §12–§13) over DATABASE_URL. The command tree loads this file only
 * when an admin command runs, so the offline commands never load Prisma.
 */

interface Context {
  values: Values;
  positionals: string[];
  output: Output;
  databaseUrl: string;
  env: NodeJS.ProcessEnv;
  lang: Lang;
}

async function withStores<T>(databaseUrl: string, work: (stores: Stores) => Promise<T>): Promise<T> {
  const prisma: PrismaClient = createPrismaClient(databaseUrl, { poolMax: 2 });
  try {
    return await work(createStores(prisma));
  } finally {
    await prisma.$disconnect();
  }
}

/** Columns padded to their widest cell; the last one is not padded (names may be long). */
function printTable(output: Output, header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  for (const row of [header, ...rows]) {
    output.out(
      `${row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')}\n`,
    );
  }
}

const iso = (date: Date | null): string | null => (date ? date.toISOString() : null);

async function orgCreate({ values, output, databaseUrl }: Context): Promise<number> {
  const name = requiredString(values, 'name');
  if (!isPlanName(values.plan)) {
    throw usageError('expects_one_of', { option: 'plan', values: PLAN_NAMES.join(' | ') });
  }
  const plan = values.plan;
  const organization = await withStores(databaseUrl, (s) =>
    s.organizations.createOrganization({ name, plan }),
  );
  if (values.json) printJson(output, { id: organization.id });
  else output.out(`${organization.id}\n`);
  return EXIT_OK;
}

async function orgList({ values, output, databaseUrl, lang }: Context): Promise<number> {
  const organizations = await withStores(databaseUrl, (s) => s.organizations.listOrganizations());
  if (values.json) {
    printJson(output, {
      organizations: organizations.map((o) => ({
        id: o.id,
        name: o.name,
        plan: o.plan,
        created_at: o.createdAt.toISOString(),
      })),
    });
  } else if (organizations.length === 0) output.err(`${say(lang, 'no_organization')}\n`);
  else {
    printTable(
      output,
      [say(lang, 'col_id'), say(lang, 'col_plan'), say(lang, 'col_created'), say(lang, 'col_name')],
      organizations.map((o) => [o.id, o.plan, o.createdAt.toISOString(), o.name]),
    );
  }
  return EXIT_OK;
}

async function keyCreate({ values, output, databaseUrl, lang }: Context): Promise<number> {
  const organizationId = requiredString(values, 'org');
  const mode = oneOf('mode', values.mode, ['live', 'test'] as const);
  const name = typeof values.name === 'string' ? values.name : undefined;
  const key = await withStores(databaseUrl, (s) => s.apiKeys.createApiKey({ organizationId, mode, name }));
  if (values.json) printJson(output, { id: key.id, key: key.key, mode: key.mode, prefix: key.prefix });
  else {
    // The key alone on stdout, so that `KEY=$(ppfile admin key create …)` works; the rest is for people.
    output.out(`${key.key}\n`);
    output.err(`${say(lang, 'key_created', { id: key.id, mode: key.mode, prefix: key.prefix })}\n`);
  }
  return EXIT_OK;
}

/** Display prefixes only: the key is shown once at creation and its hash never leaves the database. */
async function keyList({ values, output, databaseUrl, lang }: Context): Promise<number> {
  const organizationId = requiredString(values, 'org');
  const keys = await withStores(databaseUrl, async (s) => {
    await s.organizations.requireOrganization(organizationId);
    return s.apiKeys.listApiKeys(organizationId);
  });
  if (values.json) {
    printJson(output, {
      keys: keys.map((k) => ({
        id: k.id,
        name: k.name,
        mode: k.mode,
        prefix: k.prefix,
        created_at: k.createdAt.toISOString(),
        last_used_at: iso(k.lastUsedAt),
        revoked_at: iso(k.revokedAt),
      })),
    });
  } else if (keys.length === 0) output.err(`${say(lang, 'no_key', { org: organizationId })}\n`);
  else {
    printTable(
      output,
      (
        [
          'col_id',
          'col_mode',
          'col_prefix',
          'col_created',
          'col_last_used',
          'col_revoked',
          'col_name',
        ] as const
      ).map((c) => say(lang, c)),
      keys.map((k) => [
        k.id,
        k.mode,
        `${k.prefix}…`,
        k.createdAt.toISOString(),
        iso(k.lastUsedAt) ?? '-',
        iso(k.revokedAt) ?? '-',
        k.name ?? '-',
      ]),
    );
  }
  return EXIT_OK;
}

async function keyRevoke({ values, positionals, output, databaseUrl, lang }: Context): Promise<number> {
  const id = positionals[0]!;
  const revoked = await withStores(databaseUrl, (s) => s.apiKeys.revokeApiKey(id));
  const at = revoked.revokedAt.toISOString();
  if (values.json) printJson(output, { id: revoked.id, revoked_at: at });
  else output.out(`${say(lang, 'key_revoked', { id: revoked.id, at })}\n`);
  return EXIT_OK;
}

/**
 * `admin user create`: a person of the organization who signs in to the dashboard (API.md §12). No
 * password is chosen for them: the command prints a one-time invitation link (valid 7 days) with
 * which they set it. PUBLIC_BASE_URL gives the link's origin, as for the gateway.
 */
async function userCreate({ values, output, databaseUrl, env, lang }: Context): Promise<number> {
  const organizationId = requiredString(values, 'org');
  const email = normalizeEmail(requiredString(values, 'email'));
  if (!isEmail(email)) throw usageError('expects_email');
  const invitation = await withStores(databaseUrl, (s) =>
    s.users.createWithInvitation({ organizationId, email }),
  );
  printInvitation(invitation, { output, env, lang, json: values.json === true });
  return EXIT_OK;
}

/** A new link for an existing person: printed as `user create` prints the first one. */
async function userReinvite({ values, output, databaseUrl, env, lang }: Context): Promise<number> {
  const email = normalizeEmail(requiredString(values, 'email'));
  if (!isEmail(email)) throw usageError('expects_email');
  const invitation = await withStores(databaseUrl, (s) => s.users.reinvite(email));
  printInvitation(invitation, { output, env, lang, json: values.json === true });
  return EXIT_OK;
}

async function userRemove({ values, output, databaseUrl, lang }: Context): Promise<number> {
  const email = normalizeEmail(requiredString(values, 'email'));
  if (!isEmail(email)) throw usageError('expects_email');
  const user = await withStores(databaseUrl, (s) => s.users.remove(email));
  if (values.json)
    printJson(output, {
      id: user.id,
      organization_id: user.organizationId,
      email: user.email,
      removed: true,
    });
  else output.out(`${say(lang, 'user_removed', { id: user.id, email: user.email })}\n`);
  return EXIT_OK;
}

function printInvitation(
  invitation: CreatedInvitation,
  how: { output: Output; env: NodeJS.ProcessEnv; lang: Lang; json: boolean },
): void {
  const { output, env, lang } = how;
  const base = withoutTrailingSlashes(env.PUBLIC_BASE_URL || 'http://localhost:3000');
  const url = `${base}/dashboard/invite/${invitation.token}`;
  const until = invitation.expiresAt.toISOString();
  if (how.json) {
    printJson(output, {
      id: invitation.user.id,
      organization_id: invitation.user.organizationId,
      email: invitation.user.email,
      invitation_url: url,
      expires_at: until,
    });
  } else {
    // The link alone on stdout (scripts capture it); the rest is for the operator.
    output.out(`${url}\n`);
    output.err(
      `${say(lang, 'user_invited', { id: invitation.user.id, email: invitation.user.email, until })}\n`,
    );
  }
}

async function usage({ values, output, databaseUrl, lang }: Context): Promise<number> {
  const organizationId = requiredString(values, 'org');
  const month = values.month === undefined ? monthOf(new Date()) : values.month;
  if (!isMonth(month)) throw usageError('expects_month');
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
    output.out(
      `${say(lang, 'usage_month', { ...result, reserved: ledger.reserved, testRows: ledger.testRows })}\n`,
    );
  }
  return EXIT_OK;
}

/**
 * `admin reconcile --check`: the invariants of accepted work (libs/jobs checkInvariants) over
 * DATABASE_URL and the object store of S3_*; exit 1 listing each violation, 0 when there is none.
 */
async function reconcileCheck({ values, output, databaseUrl, env, lang }: Context): Promise<number> {
  if (!values.check) throw usageError('reconcile_check_only');
  let settings: ReconcileEnvironment;
  try {
    settings = validateEnvironment(ReconcileEnvironment, env);
  } catch (e) {
    throw usageError('failed', { detail: (e as Error).message });
  }
  const s3 = s3ConfigOf(settings);
  const lease = settings.PROCESSING_LEASE_SECONDS;
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
  else if (violations.length === 0) output.out(`${say(lang, 'reconcile_ok')}\n`);
  else for (const v of violations) output.out(`${v.kind} ${v.subject}: ${v.detail}\n`);
  return violations.length === 0 ? EXIT_OK : EXIT_INVALID;
}

/**
 * `admin queue drain-legacy`: empties the one queue of earlier versions (libs/jobs
 * drainLegacyQueue) on REDIS_URL under QUEUE_PREFIX, the gateway's and workers' defaults when unset.
 * Once, after the upgrade: no process of this version registers that queue.
 */
async function drainLegacy({ values, output, env, lang }: Context): Promise<number> {
  const url = env.REDIS_URL || 'redis://127.0.0.1:6379';
  const redis = new Redis(url, {
    // An unreachable Redis ends the command (one line, exit 2) instead of retrying for ever.
    connectTimeout: 2000,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt: number) => (attempt > 3 ? null : 200 * attempt),
  });
  redis.on('error', () => undefined);
  let drained;
  try {
    drained = await drainLegacyQueue(redis, env.QUEUE_PREFIX || 'bull');
  } catch (e) {
    if (redis.status === 'ready') throw e;
    throw usageError('redis_unreachable', { url: redactUrl(url) });
  } finally {
    redis.disconnect();
  }
  if (values.json) printJson(output, drained);
  else output.out(`${say(lang, 'legacy_drained', drained)}\n`);
  return EXIT_OK;
}

async function dbMigrate({ values, output, databaseUrl, lang }: Context): Promise<number> {
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
      `${say(lang, 'db_up_to_date', { url: redactUrl(databaseUrl), n: result.alreadyApplied.length })}\n`,
    );
  }
  return EXIT_OK;
}

/** The last meaningful line of a message: Prisma's first lines point into the caller's source. */
function lastLine(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? 'unknown error';
}

const DATABASE_FAILURES = {
  unreachable: 'db_unreachable',
  missing_database: 'db_missing',
  not_migrated: 'db_not_migrated',
  access_denied: 'db_access_denied',
} as const;

/** Failures of the database and of the operator's input become one line on stderr and exit 2. */
function explain(error: unknown, databaseUrl: string): UsageError {
  if (error instanceof UsageError) return error;
  const kind = databaseErrorKind(error);
  if (kind && kind in DATABASE_FAILURES) {
    return usageError(DATABASE_FAILURES[kind as keyof typeof DATABASE_FAILURES], {
      url: redactUrl(databaseUrl),
    });
  }
  if (error instanceof NotFoundError && error.entity === 'organization') {
    return usageError('unknown_organization', { id: error.id });
  }
  if (error instanceof NotFoundError && error.entity === 'API key')
    return usageError('unknown_key', { id: error.id });
  if (error instanceof NotFoundError && error.entity === 'user')
    return usageError('unknown_user', { email: error.id });
  if (error instanceof DuplicateUserError) return usageError('duplicate_user');
  if (error instanceof NotFoundError || error instanceof MigrationError || error instanceof RangeError) {
    return usageError('failed', { detail: error.message });
  }
  return usageError('unexpected_error', {
    detail: lastLine(error instanceof Error ? error.message : String(error)),
  });
}

/** One admin command as the command tree runs it: DATABASE_URL, the language, one-line failures. */
function adminCommand(run: (context: Context) => Promise<number>) {
  return async ({ values, positionals, output, env, lang }: Invocation): Promise<number> => {
    const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
    try {
      return await run({ values, positionals, output, databaseUrl, env, lang });
    } catch (e) {
      throw explain(e, databaseUrl);
    }
  };
}

export const admin = {
  orgCreate: adminCommand(orgCreate),
  orgList: adminCommand(orgList),
  keyCreate: adminCommand(keyCreate),
  keyList: adminCommand(keyList),
  keyRevoke: adminCommand(keyRevoke),
  userCreate: adminCommand(userCreate),
  userReinvite: adminCommand(userReinvite),
  userRemove: adminCommand(userRemove),
  usage: adminCommand(usage),
  reconcileCheck: adminCommand(reconcileCheck),
  drainLegacy: adminCommand(drainLegacy),
  dbMigrate: adminCommand(dbMigrate),
};
