const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
/** Prisma's "cannot reach / lost the database" codes. */
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const NAMES = new Set(['PrismaClientInitializationError', 'MaxRetriesPerRequestError']);
const MESSAGES = [/Connection is closed/i, /Stream isn't writeable/i, /connect ECONNREFUSED/i, /Connection terminated/i];

/**
 * Whether an error means a dependency (database, Redis, object storage) is down: the request then
 * gets 503 SERVICE_UNAVAILABLE instead of 500 (API.md §6). Looks through `cause` chains.
 */
export function isDependencyDown(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || PRISMA_CODES.has(e.code))) return true;
  if (typeof e.name === 'string' && NAMES.has(e.name)) return true;
  if (typeof e.message === 'string' && MESSAGES.some((m) => m.test(e.message as string))) return true;
  if (Array.isArray(e.errors) && e.errors.some((x) => isDependencyDown(x, depth + 1))) return true;
  return isDependencyDown(e.cause, depth + 1);
}
