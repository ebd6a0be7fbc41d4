import type { PrismaClient } from './generated/prisma/client';
import { fromDbPlan } from './organizations';
import type { PlanName } from './plans';
import { isSecretToken, newSecretToken, tokenHash } from './users';

/**
 * Signed-in browsers of the dashboard. The cookie carries a random 256-bit token; the database
 * keeps only its SHA-256 (the row's id), so a copy of the table signs nobody in. A session ends at
 * `expiresAt` whatever its use, or earlier when unused for the idle timeout the caller gives.
 */

export interface SessionLimits {
  /** Absolute lifetime from sign-in. */
  lifetimeMs: number;
  /** A session unused this long is over. */
  idleMs: number;
}

export interface ActiveSession {
  /** SHA-256 hex of the token (the row's id): what logs and deletions use, never the token. */
  id: string;
  userId: string;
  email: string;
  organization: { id: string; name: string; plan: PlanName };
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** lastSeenAt is moved at most this often: a page load is not a write. */
export const SESSION_TOUCH_RESOLUTION_MS = 60_000;

export class SessionStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** A new session of `userId`; the token goes into the cookie and is not kept. */
  async create(
    userId: string,
    limits: SessionLimits,
  ): Promise<{ token: string; id: string; expiresAt: Date }> {
    const token = newSecretToken();
    const id = tokenHash(token);
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + limits.lifetimeMs);
    await this.prisma.session.create({ data: { id, userId, createdAt: now, lastSeenAt: now, expiresAt } });
    return { token, id, expiresAt };
  }

  /**
   * The live session of a cookie's token, or null (unknown, expired, idle too long). A live one is
   * marked seen (at most once a minute).
   */
  async resume(token: string, limits: SessionLimits): Promise<ActiveSession | null> {
    if (!isSecretToken(token)) return null;
    const now = this.clock();
    const row = await this.prisma.session.findUnique({
      where: { id: tokenHash(token) },
      select: {
        id: true,
        userId: true,
        createdAt: true,
        lastSeenAt: true,
        expiresAt: true,
        user: { select: { email: true, organization: { select: { id: true, name: true, plan: true } } } },
      },
    });
    if (!row || row.expiresAt <= now || row.lastSeenAt.getTime() <= now.getTime() - limits.idleMs)
      return null;
    let lastSeenAt = row.lastSeenAt;
    if (now.getTime() - lastSeenAt.getTime() >= SESSION_TOUCH_RESOLUTION_MS) {
      // Conditional: two requests of one browser write the minute once.
      await this.prisma.session.updateMany({
        where: { id: row.id, lastSeenAt: row.lastSeenAt },
        data: { lastSeenAt: now },
      });
      lastSeenAt = now;
    }
    const { user, ...session } = row;
    return {
      ...session,
      lastSeenAt,
      email: user.email,
      organization: { ...user.organization, plan: fromDbPlan(user.organization.plan) },
    };
  }

  /** Signs one browser out. */
  async delete(id: string): Promise<void> {
    await this.prisma.session.deleteMany({ where: { id } });
  }

  /** Signs every browser of a user out (a password change), but `exceptId` when given. */
  async deleteForUser(userId: string, exceptId?: string): Promise<number> {
    const { count } = await this.prisma.session.deleteMany({
      where: { userId, ...(exceptId ? { id: { not: exceptId } } : {}) },
    });
    return count;
  }

  /** Removes the user's sessions that ended (expired or idle): run at each sign-in, so rows do not pile up. */
  async purgeEnded(userId: string, limits: SessionLimits): Promise<number> {
    const now = this.clock();
    const { count } = await this.prisma.session.deleteMany({
      where: {
        userId,
        OR: [{ expiresAt: { lte: now } }, { lastSeenAt: { lte: new Date(now.getTime() - limits.idleMs) } }],
      },
    });
    return count;
  }

  /** How many sessions of the user are stored (live or not yet purged). */
  async countForUser(userId: string): Promise<number> {
    return this.prisma.session.count({ where: { userId } });
  }
}
