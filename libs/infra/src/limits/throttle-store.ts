import { createHash } from 'node:crypto';
import { isIPv4 } from 'node:net';
import type { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';

/*
 * The store of sign-in failures that the gateway's operator gate (apps/gateway operators/
 * operator-throttle.ts) and the dashboard's sign-in (libs/dashboard sign-in-throttle.ts) both count
 * with, each under counters and limits of its own: windows from the first failure a counter holds,
 * one atomic step per attempt, in Redis (shared by the replicas) and in this process's memory while
 * Redis cannot be reached. Also the keys of a client address and of a name.
 */

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
 * Entries of this process's memory that expire, at most `maxEntries`: past it, expired ones are
 * dropped first, then the oldest written (a Map keeps the order of insertion).
 */
export class ExpiringEntries<V> {
  private readonly entries = new Map<string, { value: V; expires: number }>();

  constructor(private readonly maxEntries: number) {}

  get size(): number {
    return this.entries.size;
  }

  get(name: string, nowMs: number): V | undefined {
    const entry = this.entries.get(name);
    return entry && nowMs < entry.expires ? entry.value : undefined;
  }

  set(name: string, value: V, expires: number, nowMs: number): void {
    this.entries.delete(name); // re-inserted last: the Map's order is the eviction order
    if (this.entries.size >= this.maxEntries) {
      for (const [key, entry] of this.entries) if (nowMs >= entry.expires) this.entries.delete(key);
      for (const key of this.entries.keys()) {
        if (this.entries.size < this.maxEntries) break;
        this.entries.delete(key);
      }
    }
    this.entries.set(name, { value, expires });
  }
}

/** A counter's window: when it began (ms) and the failures it holds. */
export interface ThrottleWindow {
  start: number;
  count: number;
}

/**
 * Failures in this process's memory: used when Redis cannot be reached, and by the unit tests.
 * Per replica: behind N gateways an address gets up to N times the limit. Bounded: past
 * `maxEntries` counters, expired ones are dropped first, then the oldest.
 */
export class MemoryFailureStore implements FailureStore {
  private readonly windows: ExpiringEntries<ThrottleWindow>;

  constructor(maxEntries = 10_000) {
    this.windows = new ExpiringEntries(maxEntries);
  }

  get size(): number {
    return this.windows.size;
  }

  attempt(
    counters: readonly ThrottleCounter[],
    failed: boolean,
    nowMs: number,
    windowMs: number,
  ): Promise<number> {
    const current = counters.map((c) => this.windows.get(c.name, nowMs) ?? { start: nowMs, count: 0 });
    let waitMs = 0;
    counters.forEach((c, i) => {
      if (current[i]!.count >= c.limit) waitMs = Math.max(waitMs, current[i]!.start + windowMs - nowMs);
    });
    if (waitMs > 0 || !failed) return Promise.resolve(waitMs);
    counters.forEach((c, i) => {
      const { start, count } = current[i]!;
      this.windows.set(c.name, { start, count: count + 1 }, start + windowMs, nowMs);
    });
    return Promise.resolve(0);
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

/**
 * The Redis key of a sign-in counter: `<prefix>:{opauth}:<counter>`. A throttle's counters (an
 * address, a name, both) are not nested, so they share one hash tag: a Redis Cluster runs a script
 * only on the keys of one slot (the failures are few).
 */
export function throttleKey(prefix: string, counter: string): string {
  return `${prefix}:{opauth}:${counter}`;
}

/** Failures in Redis, shared by every gateway replica; keys throttleKey's. */
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
    const keys = counters.map((c) => throttleKey(this.prefix, c.name));
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
 * Redis first; while it cannot be reached, this process's memory, so that the pages behind a
 * throttle (and the diagnosis of the outage) stay reachable and guessing stays throttled. `label`
 * names the throttle in the warning ("operator sign-in", "dashboard sign-in").
 */
export abstract class WithFallback<S> {
  private lastWarning = -Infinity;

  constructor(
    protected readonly primary: S,
    protected readonly fallback: S,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly label: string,
  ) {}

  protected async either<T>(nowMs: number, op: (store: S) => Promise<T>): Promise<T> {
    try {
      return await op(this.primary);
    } catch (e) {
      if (nowMs - this.lastWarning >= 60_000) {
        this.lastWarning = nowMs;
        const code = (e as NodeJS.ErrnoException).code ?? (e as Error).name;
        this.logger.warn(
          `${this.label} throttle: Redis unreachable (${code}); counting in this process meanwhile`,
        );
      }
      return op(this.fallback);
    }
  }
}

export class FallbackFailureStore extends WithFallback<FailureStore> implements FailureStore {
  attempt: FailureStore['attempt'] = (counters, failed, nowMs, windowMs) =>
    this.either(nowMs, (store) => store.attempt(counters, failed, nowMs, windowMs));
}

export type ThrottleVerdict = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/** A store's answer (milliseconds to wait, 0 for none) as a verdict; Retry-After is at least 1 s. */
export function verdictOf(waitMs: number): ThrottleVerdict {
  return waitMs > 0
    ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
    : { allowed: true };
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
