import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { AuthenticatedKey } from '@ppfile/db';

interface Entry {
  principal: AuthenticatedKey;
  until: number;
}

/**
 * A short-lived in-process memory of authenticated keys, so that a burst of calls with one key
 * costs one database lookup. Only successes are kept, under the key's SHA-256 (never the key);
 * a revoked key therefore stops working within `ttlMs` on every replica (AUTH_CACHE_SECONDS).
 * At most `maxEntries` keys are kept, the least recently used going first (lru-cache).
 *
 * The expiry is checked here against the injected clock rather than by lru-cache's own `ttl`:
 * that one reads `performance.now()` (or a `perf` object) and takes an entry stored at time 0 for
 * one without a TTL, while the gateway's Clock is the one tests move.
 */
export class KeyCache {
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number,
    maxEntries = 10_000,
  ) {
    this.entries = new LRUCache<string, Entry>({ max: maxEntries });
  }

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
    if (principal) this.entries.set(id, { principal, until: now + this.ttlMs });
    else this.entries.delete(id);
    return principal;
  }
}
