import type Redis from 'ioredis';

/**
 * Fixed one-minute windows in Redis, shared by every gateway replica. One Lua script increments
 * all the counters a request falls under (its key and its organization, or its client address)
 * atomically, so that two replicas can never both let the N+1st request through.
 */
const SCRIPT = `
local out = {}
for i, key in ipairs(KEYS) do
  local n = redis.call('INCR', key)
  if n == 1 then redis.call('EXPIRE', key, tonumber(ARGV[1])) end
  out[i] = n
end
return out
`;

export interface RateLimitCounter {
  /** Counter name, e.g. "key:<id>" or "org:<id>" or "ip:<address>". */
  name: string;
  limit: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** The tightest limit (API.md §6: the tighter of key and organization). */
  limit: number;
  remaining: number;
  /** Seconds until the window resets. */
  reset: number;
}

export class RateLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
    private readonly prefix = 'ppfile:rl',
  ) {}

  async hit(counters: readonly RateLimitCounter[]): Promise<RateLimitResult> {
    const nowMs = this.now();
    const window = Math.floor(nowMs / 60_000);
    const reset = Math.max(1, 60 - Math.floor((nowMs % 60_000) / 1000));
    const keys = counters.map((c) => `${this.prefix}:${c.name}:${window}`);
    const counts = (await this.redis.eval(SCRIPT, keys.length, ...keys, '61')) as number[];
    let allowed = true;
    let tightest: { limit: number; remaining: number } | null = null;
    counters.forEach((c, i) => {
      const remaining = Math.max(0, c.limit - counts[i]!);
      if (counts[i]! > c.limit) allowed = false;
      if (!tightest || remaining < tightest.remaining) tightest = { limit: c.limit, remaining };
    });
    const t = tightest as { limit: number; remaining: number } | null;
    return { allowed, limit: t?.limit ?? 0, remaining: t?.remaining ?? 0, reset };
  }
}
