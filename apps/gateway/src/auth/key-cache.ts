import { createHash } from 'node:crypto';
import type { AuthenticatedKey } from '@ppfile/db';

/**
 * A short-lived in-process memory of authenticated keys, so that a burst of calls with one key
 * costs one database lookup. Only successes are kept, under the key's SHA-256 (never the key);
 * a revoked key therefore stops working within `ttlMs` on every replica (AUTH_CACHE_SECONDS).
 */
export class KeyCache {
  private readonly entries = new Map<string, { principal: AuthenticatedKey; until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    private readonly maxEntries = 10_000,
  ) {}

  async authenticate(
    token: string,
    lookup: (token: string) => Promise<AuthenticatedKey | null>,
  ): Promise<AuthenticatedKey | null> {
    if (this.ttlMs <= 0) return lookup(token);
    const id = createHash('sha256').update(token).digest('hex');
    const hit = this.entries.get(id);
    const now = this.now();
    if (hit && hit.until > now) return hit.principal;
    const principal = await lookup(token);
    if (principal) {
      if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
      this.entries.set(id, { principal, until: now + this.ttlMs });
    } else {
      this.entries.delete(id);
    }
    return principal;
  }
}
