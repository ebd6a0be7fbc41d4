import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/**
 * Throttling of operator sign-in failures (issue "Hostile input and abuse"): once a client address
 * or a user name has failed `limit` times within the window, every attempt from it, even with the
 * right password, answers 429 until the window that began with its first failure has passed. A
 * success does not count.
 *
 * Counting happens in one atomic step per attempt, after the credentials were compared (which is
 * synchronous): concurrent guesses cannot slip past the limit between a check and an increment.
 * The dashboard's sign-in throttle (dashboard/sign-in-throttle.ts) counts with the same stores,
 * under counters of its own (device cookies, address and e-mail).
 */
export interface OperatorThrottleLimits {
  /** How long a window lasts, from the first failure it counts. */
  windowMs: number;
  /** Failures allowed per client address (per /64 network for IPv6) within a window. */
  perAddress: number;
  /** Failures allowed per user name within a window, whatever the address. */
  perUser: number;
}

export const OPERATOR_THROTTLE_LIMITS: OperatorThrottleLimits = {
  windowMs: 5 * 60_000,
  perAddress: 10,
  perUser: 20,
};

export interface ThrottleCounter {
  /** e.g. "ip:203.0.113.7" or "user:<digest of the name>". */
  name: string;
  limit: number;
}

/**
 * Where failures are counted. `attempt` is atomic: if any counter has reached its limit within its
 * window it answers how many milliseconds remain (the longest among them) and counts nothing;
 * otherwise it counts one failure under every counter when `failed`, and answers 0.
 */
export interface FailureStore {
  attempt(
    counters: readonly ThrottleCounter[],
    failed: boolean,
    nowMs: number,
    windowMs: number,
  ): Promise<number>;
}

/**
 * Failures in this process's memory: used when Redis cannot be reached, and by the unit tests.
 * Per replica: behind N gateways an address gets up to N times the limit. Bounded: past
 * `maxEntries` counters, expired ones are dropped first, then the oldest.
 */
export class MemoryFailureStore implements FailureStore {
  private readonly counters = new Map<string, { start: number; count: number }>();

  constructor(private readonly maxEntries = 10_000) {}

  get size(): number {
    return this.counters.size;
  }

  attempt(
    counters: readonly ThrottleCounter[],
    failed: boolean,
    nowMs: number,
    windowMs: number,
  ): Promise<number> {
    const current = counters.map((c) => {
      const entry = this.counters.get(c.name);
      return entry && nowMs - entry.start < windowMs ? entry : { start: nowMs, count: 0 };
    });
    let waitMs = 0;
    counters.forEach((c, i) => {
      if (current[i]!.count >= c.limit) waitMs = Math.max(waitMs, current[i]!.start + windowMs - nowMs);
    });
    if (waitMs > 0 || !failed) return Promise.resolve(waitMs);
    counters.forEach((c, i) => {
      this.counters.delete(c.name); // re-inserted last: the Map's order is the eviction order
      this.makeRoom(nowMs, windowMs);
      this.counters.set(c.name, { start: current[i]!.start, count: current[i]!.count + 1 });
    });
    return Promise.resolve(0);
  }

  private makeRoom(nowMs: number, windowMs: number): void {
    if (this.counters.size < this.maxEntries) return;
    for (const [name, entry] of this.counters)
      if (nowMs - entry.start >= windowMs) this.counters.delete(name);
    for (const name of this.counters.keys()) {
      if (this.counters.size < this.maxEntries) break;
      this.counters.delete(name);
    }
  }
}

/**
 * One hash per counter, {s: window start (ms, the gateway's clock), n: failures}, expiring with its
 * window. The window is judged by the clock passed in, not by Redis' TTL (which only cleans up), so
 * that every replica and the tests' clock agree.
 */
const ATTEMPT_SCRIPT = `
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local failed = ARGV[3] == '1'
local starts, counts = {}, {}
local wait = 0
for i, key in ipairs(KEYS) do
  local v = redis.call('HMGET', key, 's', 'n')
  local s, n = tonumber(v[1]), tonumber(v[2])
  if not s or not n or now - s >= window then s, n = now, 0 end
  starts[i], counts[i] = s, n
  if n >= tonumber(ARGV[3 + i]) then wait = math.max(wait, s + window - now) end
end
if wait > 0 or not failed then return wait end
for i, key in ipairs(KEYS) do
  redis.call('HSET', key, 's', starts[i], 'n', counts[i] + 1)
  redis.call('PEXPIRE', key, math.max(1, starts[i] + window - now))
end
return 0
`;

/** Failures in Redis, shared by every gateway replica; keys `<QUEUE_PREFIX>:opauth:<counter>`. */
export class RedisFailureStore implements FailureStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async attempt(
    counters: readonly ThrottleCounter[],
    failed: boolean,
    nowMs: number,
    windowMs: number,
  ): Promise<number> {
    const keys = counters.map((c) => `${this.prefix}:opauth:${c.name}`);
    const args = [
      String(nowMs),
      String(windowMs),
      failed ? '1' : '0',
      ...counters.map((c) => String(c.limit)),
    ];
    return Number(await this.redis.eval(ATTEMPT_SCRIPT, keys.length, ...keys, ...args));
  }
}

/**
 * Redis first; while it cannot be reached, this process's memory, so that operator pages (and the
 * diagnosis of the outage) stay reachable and guessing stays throttled. `label` names the throttle
 * in the warning ("operator sign-in", "dashboard sign-in").
 */
export class FallbackFailureStore implements FailureStore {
  private lastWarning = -Infinity;

  constructor(
    private readonly primary: FailureStore,
    private readonly fallback: FailureStore,
    private readonly logger: Pick<Logger, 'warn'> = new Logger('operators'),
    private readonly label = 'operator sign-in',
  ) {}

  async attempt(
    counters: readonly ThrottleCounter[],
    failed: boolean,
    nowMs: number,
    windowMs: number,
  ): Promise<number> {
    try {
      return await this.primary.attempt(counters, failed, nowMs, windowMs);
    } catch (e) {
      if (nowMs - this.lastWarning >= 60_000) {
        this.lastWarning = nowMs;
        const code = (e as NodeJS.ErrnoException).code ?? (e as Error).name;
        this.logger.warn(
          `${this.label} throttle: Redis unreachable (${code}); counting in this process meanwhile`,
        );
      }
      return this.fallback.attempt(counters, failed, nowMs, windowMs);
    }
  }
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A store's answer (milliseconds to wait, 0 for none) as a verdict; Retry-After is at least 1 s. */
export function verdictOf(waitMs: number): ThrottleVerdict {
  return waitMs > 0
    ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
    : { allowed: true };
}

export class OperatorThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly now: () => number = Date.now,
    private readonly limits: OperatorThrottleLimits = OPERATOR_THROTTLE_LIMITS,
  ) {}

  /** Throttling in this process only (per replica), with the system clock. */
  static inMemory(limits: OperatorThrottleLimits = OPERATOR_THROTTLE_LIMITS): OperatorThrottle {
    return new OperatorThrottle(new MemoryFailureStore(), Date.now, limits);
  }

  /**
   * Records one sign-in attempt. `failed` is whether the credentials were given and wrong (an
   * attempt without credentials is not a guess: it is only refused when the address is throttled).
   * `user` is the user name given, if any.
   */
  async attempt(address: string, user: string | null, failed: boolean): Promise<ThrottleVerdict> {
    const counters: ThrottleCounter[] = [
      { name: `ip:${addressKey(address)}`, limit: this.limits.perAddress },
    ];
    if (user !== null) counters.push({ name: `user:${nameKey(user)}`, limit: this.limits.perUser });
    return verdictOf(await this.store.attempt(counters, failed, this.now(), this.limits.windowMs));
  }
}

/**
 * The counter of a client address: IPv4 as is (also when IPv4-mapped), IPv6 by its /64 network,
 * which one client usually holds whole and could otherwise rotate through.
 */
export function addressKey(address: string): string {
  const a = address.trim().toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) return mapped[1]!;
  if (isIPv4(a) || !a.includes(':')) return a || 'unknown';
  const groups = expandIPv6(a.split('%', 1)[0]!);
  return groups ? `${groups.slice(0, 4).join(':')}::/64` : a;
}

function expandIPv6(address: string): string[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const parts = (half: string): string[] => {
    if (!half) return [];
    const out: string[] = [];
    for (const p of half.split(':')) {
      if (p.includes('.')) {
        // An embedded IPv4 tail is two groups.
        const b = p.split('.').map(Number);
        out.push(((b[0]! << 8) | b[1]!).toString(16), ((b[2]! << 8) | b[3]!).toString(16));
      } else out.push(p);
    }
    return out;
  };
  const head = parts(halves[0]!);
  const tail = halves.length === 2 ? parts(halves[1]!) : [];
  const missing = 8 - head.length - tail.length;
  if (missing < 0 || (halves.length === 1 && missing !== 0)) return null;
  const groups = [...head, ...Array<string>(missing).fill('0'), ...tail];
  return groups.map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? g.replace(/^0+(?=.)/, '') : g));
}

/**
 * User names (and e-mail addresses) are the caller's text: counted by a digest, so that a key is
 * small and holds no name.
 */
export function nameKey(name: string): string {
  return createHash('sha256').update(name, 'utf8').digest('hex').slice(0, 32);
}
