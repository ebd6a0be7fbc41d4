import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { databaseErrorKind, NotFoundError } from './errors';
import type { KeyMode as DbKeyMode } from './generated/prisma/enums';
import type { PrismaClient } from './generated/prisma/client';
import { newApiKeyId } from '@ppfile/contract';
import { fromDbPlan } from './organizations';
import type { PlanName } from './plans';

/** `mode` as the API writes it (API.md §1). */
import type { KeyMode } from '@ppfile/contract';
export type { KeyMode };

export const KEY_PREFIXES: Record<KeyMode, string> = { live: 'pp_live_', test: 'pp_test_' };
/** Random base62 characters after the prefix: 40 × log2(62) ≈ 238 bits. */
export const KEY_RANDOM_LENGTH = 40;
/** The part of a key shown in lists and the dashboard (API.md §1). */
export const DISPLAY_PREFIX_LENGTH = 12;
/** API.md §1: a prefix and at least 32 base62 characters. */
export const KEY_FORMAT = /^pp_(live|test)_[A-Za-z0-9]{32,}$/;
/** Longer tokens are not ours; refusing them early bounds the work an anonymous caller can cause. */
const MAX_KEY_LENGTH = 256;
/** last_used_at is a hint for people, not an audit log: one write a minute per key is enough. */
export const LAST_USED_RESOLUTION_MS = 60_000;

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface CreatedApiKey {
  id: string;
  /** The whole key: shown once, never stored. */
  key: string;
  mode: KeyMode;
  prefix: string;
}

export interface ApiKeyInfo {
  id: string;
  organizationId: string;
  mode: KeyMode;
  name: string | null;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  /** A person's dashboard key (dashboardKeyOf): not an API key anyone holds; null for an API key. */
  userId: string | null;
}

/** The display prefix of the dashboard keys: outside KEY_FORMAT, so no token can ever match one. */
export const DASHBOARD_KEY_PREFIX = 'pp_dashboard';

/**
 * Whether a key is a person's dashboard key (dashboardKeyOf), which no one holds. Told by its prefix,
 * not by `userId`: removing the person sets `userId` to null (the files keep their key), and the key
 * must not then show up among the organization's API keys.
 */
export function isDashboardKey(key: { prefix: string }): boolean {
  return key.prefix === DASHBOARD_KEY_PREFIX;
}

export interface AuthenticatedKey {
  keyId: string;
  mode: KeyMode;
  organization: { id: string; name: string; plan: PlanName };
}

/** Uniform base62 characters: bytes ≥ 248 (4 × 62) are drawn again, so no character is favoured. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length - out.length + 8)) {
      if (byte < 248) out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const toDbMode = (mode: KeyMode): DbKeyMode => (mode === 'live' ? 'LIVE' : 'TEST');
const fromDbMode = (mode: DbKeyMode): KeyMode => (mode === 'LIVE' ? 'live' : 'test');

export class ApiKeyStore {
  /** Keys whose last_used_at this process wrote recently, so bursts do not each issue an UPDATE. */
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async createApiKey(input: {
    organizationId: string;
    mode: KeyMode;
    name?: string | null;
  }): Promise<CreatedApiKey> {
    if (input.mode !== 'live' && input.mode !== 'test')
      throw new RangeError(`unknown key mode "${String(input.mode)}"`);
    const key = KEY_PREFIXES[input.mode] + randomBase62(KEY_RANDOM_LENGTH);
    const id = newApiKeyId();
    const prefix = key.slice(0, DISPLAY_PREFIX_LENGTH);
    try {
      await this.prisma.apiKey.create({
        data: {
          id,
          organizationId: input.organizationId,
          mode: toDbMode(input.mode),
          name: input.name?.trim() || null,
          prefix,
          keyHash: hashKey(key),
          createdAt: this.clock(),
        },
      });
    } catch (e) {
      if (databaseErrorKind(e) === 'foreign_key') {
        throw new NotFoundError('organization', input.organizationId);
      }
      throw e;
    }
    return { id, key, mode: input.mode, prefix };
  }

  /**
   * The live key under which the Build page records a person's files (files.api_key_id, and the
   * Idempotency-Keys of their Generate): made on first use, one per person. Every file needs a key,
   * and a file made in the dashboard was made by no API key the organization holds: borrowing one
   * of those would put the file under a key nobody used. This key has no secret (its hash is of
   * random bytes thrown away, its prefix outside KEY_FORMAT), so it authenticates nothing; the
   * dashboard lists it apart from the API keys and does not revoke it.
   */
  async dashboardKeyOf(user: { userId: string; organizationId: string }): Promise<string> {
    const found = await this.prisma.apiKey.findUnique({
      where: { userId: user.userId },
      select: { id: true },
    });
    if (found) return found.id;
    const id = newApiKeyId();
    try {
      await this.prisma.apiKey.create({
        data: {
          id,
          organizationId: user.organizationId,
          userId: user.userId,
          mode: 'LIVE',
          name: null,
          prefix: DASHBOARD_KEY_PREFIX,
          keyHash: hashKey(randomBytes(32).toString('hex')),
          createdAt: this.clock(),
        },
      });
      return id;
    } catch (e) {
      // The person's other tab made it first.
      if (databaseErrorKind(e) !== 'unique') throw e;
      const made = await this.prisma.apiKey.findUnique({
        where: { userId: user.userId },
        select: { id: true },
      });
      if (!made) throw e;
      return made.id;
    }
  }

  /** Revokes a key; revoking it again changes nothing and answers the first revocation time. */
  async revokeApiKey(id: string): Promise<{ id: string; revokedAt: Date }> {
    const now = this.clock();
    await this.prisma.apiKey.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: now } });
    const row = await this.prisma.apiKey.findUnique({ where: { id }, select: { revokedAt: true } });
    if (!row) throw new NotFoundError('API key', id);
    this.touched.delete(id);
    return { id, revokedAt: row.revokedAt ?? now };
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyInfo[]> {
    const rows = await this.prisma.apiKey.findMany({
      where: { organizationId },
      orderBy: { createdAt: 'asc' },
      omit: { keyHash: true },
    });
    return rows.map((r) => ({ ...r, mode: fromDbMode(r.mode) }));
  }

  /**
   * The key behind an `Authorization: Bearer` token, or null for a malformed, unknown or revoked
   * one (all answered 401 INVALID_API_KEY, API.md §6). A malformed token costs no query.
   */
  async authenticate(token: string): Promise<AuthenticatedKey | null> {
    if (typeof token !== 'string' || token.length > MAX_KEY_LENGTH || !KEY_FORMAT.test(token)) return null;
    const hash = hashKey(token);
    const row = await this.prisma.apiKey.findUnique({
      where: { keyHash: hash },
      select: {
        id: true,
        mode: true,
        keyHash: true,
        revokedAt: true,
        lastUsedAt: true,
        organization: { select: { id: true, name: true, plan: true } },
      },
    });
    // The lookup already matched the hash; comparing again in constant time keeps the decision
    // itself free of early exits should the lookup ever change (e.g. to a prefix index).
    if (!row || !timingSafeEqual(Buffer.from(row.keyHash, 'hex'), Buffer.from(hash, 'hex'))) return null;
    if (row.revokedAt !== null) return null;
    await this.touch(row.id, row.lastUsedAt);
    return {
      keyId: row.id,
      mode: fromDbMode(row.mode),
      organization: { ...row.organization, plan: fromDbPlan(row.organization.plan) },
    };
  }

  private async touch(keyId: string, lastUsedAt: Date | null): Promise<void> {
    const now = this.clock();
    const since = now.getTime() - LAST_USED_RESOLUTION_MS;
    if (lastUsedAt && lastUsedAt.getTime() > since) return;
    if ((this.touched.get(keyId) ?? -Infinity) > since) return;
    this.touched.set(keyId, now.getTime());
    if (this.touched.size > 10_000) this.forgetOldTouches(since);
    try {
      // The condition keeps several processes from writing the same minute twice.
      await this.prisma.apiKey.updateMany({
        where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lte: new Date(since) } }] },
        data: { lastUsedAt: now },
      });
    } catch {
      // A hint only: failing to record it must not fail the request it accompanies.
      this.touched.delete(keyId);
    }
  }

  private forgetOldTouches(since: number): void {
    for (const [id, at] of this.touched) if (at <= since) this.touched.delete(id);
  }
}
