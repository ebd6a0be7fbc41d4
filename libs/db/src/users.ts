import { createHash, randomBytes } from 'node:crypto';
import { databaseErrorKind, NotFoundError } from './errors';
import type { PrismaClient } from './generated/prisma/client';
import { fromDbPlan } from './organizations';
import type { PlanName } from './plans';

/**
 * The people of an organization who sign in to the dashboard (API.md §12). An operator creates a
 * user with a one-time invitation (`ppfile admin user create`); the person sets a password through
 * the link. Passwords are hashed by the gateway (scrypt): this store keeps the hash it is given and
 * never sees a password. Invitation tokens, like API keys, are kept as SHA-256 only.
 */

export interface DashboardUser {
  id: string;
  organizationId: string;
  email: string;
  /** null until the invitation is accepted. */
  passwordHash: string | null;
  createdAt: Date;
  passwordChangedAt: Date | null;
  lastSignInAt: Date | null;
}

export interface UserWithOrganization extends DashboardUser {
  organization: { id: string; name: string; plan: PlanName };
}

export interface CreatedInvitation {
  user: DashboardUser;
  /** The token of the invitation link: shown once, only its hash is kept. */
  token: string;
  expiresAt: Date;
}

/** A user with this e-mail address exists already (in any organization). */
export class DuplicateUserError extends Error {
  constructor() {
    super('a user with this e-mail address already exists');
  }
}

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600_000;
/** A practical bound (RFC 5321 paths are at most 256 octets); the dashboard refuses longer input early. */
export const MAX_EMAIL_LENGTH = 254;
/** A space or a control character: never in an address. */
const BLANK_OR_CONTROL = /[\s\p{Cc}]/u;

/** One "@", something on each side, a dot inside the domain, no spaces or control characters. */
function looksLikeEmail(value: string): boolean {
  const at = value.indexOf('@');
  if (at <= 0 || value.indexOf('@', at + 1) >= 0 || BLANK_OR_CONTROL.test(value)) return false;
  const dot = value.indexOf('.', at + 2);
  return dot > 0 && dot < value.length - 1;
}

/** The form in which e-mail addresses are stored and compared: trimmed, lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function isEmail(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_EMAIL_LENGTH && looksLikeEmail(value);
}

export const newUserId = (): string => `usr_${randomBytes(12).toString('hex')}`;
export const USER_ID = /^usr_[0-9a-f]{24}$/;

/** 256 random bits, URL-safe: what links and cookies carry. */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** SHA-256 hex of a token: what the database keeps of invitations and sessions. */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** Whether `value` has the shape of newSecretToken's output (anything else costs no query). */
export function isSecretToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

const USER_FIELDS = {
  id: true,
  organizationId: true,
  email: true,
  passwordHash: true,
  createdAt: true,
  passwordChangedAt: true,
  lastSignInAt: true,
} as const;

export class UserStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** A user without a password, and the one-time token of the link that lets them set it. */
  async createWithInvitation(input: {
    organizationId: string;
    email: string;
    ttlMs?: number;
  }): Promise<CreatedInvitation> {
    const email = normalizeEmail(input.email);
    if (!isEmail(email)) throw new RangeError('not an e-mail address');
    const token = newSecretToken();
    const now = this.clock();
    const expiresAt = new Date(now.getTime() + (input.ttlMs ?? INVITATION_TTL_MS));
    try {
      const user = await this.prisma.user.create({
        data: {
          id: newUserId(),
          organizationId: input.organizationId,
          email,
          invitationHash: tokenHash(token),
          invitationExpiresAt: expiresAt,
          createdAt: now,
        },
        select: USER_FIELDS,
      });
      return { user, token, expiresAt };
    } catch (e) {
      const kind = databaseErrorKind(e);
      if (kind === 'foreign_key') throw new NotFoundError('organization', input.organizationId);
      if (kind === 'unique') throw new DuplicateUserError();
      throw e;
    }
  }

  /** The user an unused, unexpired invitation token belongs to; null otherwise. */
  async findByInvitation(token: string): Promise<UserWithOrganization | null> {
    if (!isSecretToken(token)) return null;
    const row = await this.prisma.user.findUnique({
      where: { invitationHash: tokenHash(token) },
      select: {
        ...USER_FIELDS,
        invitationExpiresAt: true,
        organization: { select: { id: true, name: true, plan: true } },
      },
    });
    if (!row || !row.invitationExpiresAt || row.invitationExpiresAt <= this.clock()) return null;
    const { organization } = row;
    return {
      id: row.id,
      organizationId: row.organizationId,
      email: row.email,
      passwordHash: row.passwordHash,
      createdAt: row.createdAt,
      passwordChangedAt: row.passwordChangedAt,
      lastSignInAt: row.lastSignInAt,
      organization: { ...organization, plan: fromDbPlan(organization.plan) },
    };
  }

  /**
   * Uses an invitation: sets the password hash and forgets the token, in one conditional statement
   * (a link used twice, or concurrently, sets a password once). The user, or null when the token is
   * unknown, used or expired.
   */
  async acceptInvitation(token: string, passwordHash: string): Promise<DashboardUser | null> {
    if (!isSecretToken(token)) return null;
    const now = this.clock();
    const hash = tokenHash(token);
    const user = await this.prisma.user.findUnique({ where: { invitationHash: hash }, select: { id: true } });
    if (!user) return null;
    const { count } = await this.prisma.user.updateMany({
      where: { id: user.id, invitationHash: hash, invitationExpiresAt: { gt: now } },
      data: { passwordHash, invitationHash: null, invitationExpiresAt: null, passwordChangedAt: now },
    });
    return count === 1 ? this.get(user.id) : null;
  }

  async get(id: string): Promise<DashboardUser | null> {
    return this.prisma.user.findUnique({ where: { id }, select: USER_FIELDS });
  }

  /** The user who signs in with this address (compared in its normalized form). */
  async findByEmail(email: string): Promise<DashboardUser | null> {
    const normalized = normalizeEmail(email);
    if (!isEmail(normalized)) return null;
    return this.prisma.user.findUnique({ where: { email: normalized }, select: USER_FIELDS });
  }

  async setPassword(id: string, passwordHash: string): Promise<void> {
    await this.prisma.user.update({ where: { id }, data: { passwordHash, passwordChangedAt: this.clock() } });
  }

  async recordSignIn(id: string): Promise<void> {
    await this.prisma.user.update({ where: { id }, data: { lastSignInAt: this.clock() } });
  }

  /**
   * A new one-time invitation for an existing user (a forgotten password, an expired link): the
   * password and every session are dropped and the earlier link stops working, in one transaction.
   * The user is found by address; NotFoundError when there is none.
   */
  async reinvite(email: string, ttlMs: number = INVITATION_TTL_MS): Promise<CreatedInvitation> {
    const normalized = normalizeEmail(email);
    const token = newSecretToken();
    const expiresAt = new Date(this.clock().getTime() + ttlMs);
    const user = await this.prisma.$transaction(async (tx) => {
      const found = await tx.user.findUnique({ where: { email: normalized }, select: { id: true } });
      if (!found) throw new NotFoundError('user', normalized);
      await tx.session.deleteMany({ where: { userId: found.id } });
      return tx.user.update({
        where: { id: found.id },
        data: { passwordHash: null, invitationHash: tokenHash(token), invitationExpiresAt: expiresAt },
        select: USER_FIELDS,
      });
    });
    return { user, token, expiresAt };
  }

  /**
   * Removes a user (someone who left the organization): their sessions end at once, in the same
   * transaction. The removed user; NotFoundError when the address is unknown.
   */
  async remove(email: string): Promise<DashboardUser> {
    const normalized = normalizeEmail(email);
    return this.prisma.$transaction(async (tx) => {
      const found = await tx.user.findUnique({ where: { email: normalized }, select: USER_FIELDS });
      if (!found) throw new NotFoundError('user', normalized);
      await tx.session.deleteMany({ where: { userId: found.id } });
      await tx.user.delete({ where: { id: found.id } });
      return found;
    });
  }

  /** The organization's users, oldest first. */
  async listForOrganization(organizationId: string): Promise<DashboardUser[]> {
    return this.prisma.user.findMany({
      where: { organizationId },
      orderBy: { createdAt: 'asc' },
      select: USER_FIELDS,
    });
  }
}
