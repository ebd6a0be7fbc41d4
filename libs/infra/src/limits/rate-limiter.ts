import { createHash, randomBytes } from 'node:crypto';
import type Redis from 'ioredis';

/** The span a per-minute limit counts over: any 60 seconds, not the clock's minutes. */
const WINDOW_MS = 60_000;

/**
 * A sliding one-minute log per counter in Redis (a sorted set of the admitted requests' times),
 * shared by every gateway replica: a request is admitted when every counter it falls under (its key
 * and its organization, or its client address) holds fewer than its limit over the last 60 s, and
 * then recorded in all of them, in one atomic script — two replicas can never both let the N+1st
 * through. Refused requests are not recorded (a client hammering a limit gets its next request in
 * as soon as the oldest one leaves the window).
 *
 * Issue 19: fixed windows let 59 requests of a 30/min organization through in 1.6 s across a
 * minute boundary; with a log, "per minute" holds for every 60 seconds. A set never holds more
 * members than the limit.
 *
 * Returns per counter: how many the window holds after this request, and when its oldest entry
 * leaves the window (ms; 0 when it is empty).
 */
const SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local member = ARGV[3]
local counts, oldest = {}, {}
local allowed = true
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
  counts[i] = redis.call('ZCARD', key)
  if counts[i] >= tonumber(ARGV[3 + i]) then allowed = false end
end
for i, key in ipairs(KEYS) do
  if allowed then
    redis.call('ZADD', key, now, member)
    redis.call('PEXPIRE', key, window)
    counts[i] = counts[i] + 1
  end
  local first = redis.call('ZRANGE', key, 0, 0, 'WITHSCORES')
  oldest[i] = first[2] and tonumber(first[2]) or 0
end
return { allowed and 1 or 0, counts, oldest }
`;

/** The script's SHA-1: requests send it (EVALSHA), not the script's 900 bytes (issue 35). */
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

export interface RateLimitCounter {
  /**
   * Counter name, e.g. "key:<id>" or "org:<id>" or "ip:<address>". The counters of one check go from
   * the narrowest to the broadest: the last one scopes the others (counterKeys).
   */
  name: string;
  limit: number;
}

export interface RateLimitResult {
  allowed: boolean;
  /** The tightest limit (API.md §6: the tighter of key and organization). */
  limit: number;
  remaining: number;
  /** Seconds until the tightest counter has room again (its oldest request leaves the window). */
  reset: number;
}

/**
 * The Redis keys of one check's counters, in one hash slot (a Redis Cluster runs a script only on the
 * keys of one slot): the last counter, the broadest (an organization, which every key of it shares),
 * is the hash tag of them all — `<prefix>:{org:<id>}` and `<prefix>:{org:<id>}:key:<id>`.
 */
export function counterKeys(prefix: string, counters: readonly RateLimitCounter[]): string[] {
  const scope = `${prefix}:{${counters[counters.length - 1]?.name ?? ''}}`;
  return counters.map((c, i) => (i === counters.length - 1 ? scope : `${scope}:${c.name}`));
}

export class RateLimiter {
  /**
   * A request's entry in the log must be unique: its time, this limiter's random tag (one per
   * process: replicas differ) and a sequence number. Drawing random bytes per request cost 1.7 %
   * of the gateway's CPU under bench:http (issue 35).
   */
  private readonly tag = randomBytes(6).toString('base64url');
  private sequence = 0;

  constructor(
    private readonly redis: Redis,
    private readonly now: () => number = Date.now,
    private readonly prefix = 'ppfile:rl',
  ) {}

  async hit(counters: readonly RateLimitCounter[]): Promise<RateLimitResult> {
    const nowMs = this.now();
    const keys = counterKeys(this.prefix, counters);
    // Unique within the millisecond: two requests at the same time are two entries.
    this.sequence = (this.sequence + 1) % Number.MAX_SAFE_INTEGER;
    const member = `${nowMs}:${this.tag}:${this.sequence.toString(36)}`;
    const args = [
      keys.length,
      ...keys,
      String(nowMs),
      String(WINDOW_MS),
      member,
      ...counters.map((c) => String(c.limit)),
    ] as const;
    const [allowed, counts, oldest] = (await this.run(args)) as [number, number[], number[]];
    let tightest: { limit: number; remaining: number; reset: number } | null = null;
    counters.forEach((c, i) => {
      const remaining = Math.max(0, c.limit - counts[i]!);
      const reset = oldest[i]! > 0 ? Math.max(1, Math.ceil((oldest[i]! + WINDOW_MS - nowMs) / 1000)) : 1;
      if (!tightest || remaining < tightest.remaining) tightest = { limit: c.limit, remaining, reset };
    });
    const t = tightest as { limit: number; remaining: number; reset: number } | null;
    return {
      allowed: allowed === 1,
      limit: t?.limit ?? 0,
      remaining: t?.remaining ?? 0,
      reset: t?.reset ?? 1,
    };
  }

  /** One round trip: the script by its hash; sent whole only when Redis does not know it yet (NOSCRIPT). */
  private async run(args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await this.redis.evalsha(SCRIPT_SHA, ...(args as [number, ...string[]]));
    } catch (e) {
      if (!String((e as Error)?.message).startsWith('NOSCRIPT')) throw e;
      return this.redis.eval(SCRIPT, ...(args as [number, ...string[]]));
    }
  }
}
