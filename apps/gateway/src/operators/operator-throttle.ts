import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import {
  addressKey,
  ExpiringEntries,
  nameKey,
  throttleKey,
  WithFallback,
  type ThrottleWindow,
} from '@ppfile/infra';

/**
 * Throttling of operator sign-in (issue "Hostile input and abuse"; issue 32: it answered 429 to the
 * right password, and to Prometheus scraping /metrics, once someone had mistyped from its address or
 * under its user name). Guessing stays bounded while the right credentials keep working:
 *
 * - **Failures are counted** per client address (per /64 for IPv6) and per user name, in windows of
 *   5 minutes from the first failure a counter holds. A success resets nothing (a guesser sharing an
 *   address with Prometheus would otherwise get a fresh count every scrape).
 * - **Past `perAddress` (10) failures from an address, or `perUser` (20) for a user name**, wrong
 *   credentials answer 429 with Retry-After instead of 401 (no more challenge), and still count. The
 *   right credentials are still checked (a SHA-256 and a constant-time compare: the check costs
 *   nothing worth refusing) and let through: a mistyping colleague cannot lock the operators out.
 * - **Every answer to a checked guess tells right from wrong**, so the checks are bounded too: past
 *   `verifiedPerAddress` (30) failures in its window an address gets 429 without any check, right
 *   password included, until the window ends. Someone there is guessing, not mistyping.
 * - **A user name past its limit is checked only from trusted addresses**: one from which the right
 *   credentials came within `trustedForMs` (7 days, renewed by each success: Prometheus renews it
 *   every scrape). Any other address gets 429 without a check, so that guesses spread over many
 *   addresses stay at 20 per window for that name, and strangers failing from anywhere do not stop
 *   Prometheus or an operator's usual address. A new address during such an attack waits for the
 *   window's end (at most 5 minutes after the attack stops).
 * - A request without credentials is never counted; it gets the 401 challenge (so that a browser
 *   asks for the password), or 429 from an address past `verifiedPerAddress`.
 *
 * So an address tests at most 30 passwords per 5 minutes, and a user name at most 20 per 5 minutes
 * from untrusted addresses, against a password meant to be long and generated (the worker's /metrics
 * relies on that alone: docs/architecture.md).
 * Each attempt is one atomic step over its counters, after the credentials were compared (which is
 * synchronous): concurrent guesses cannot slip past a limit between a check and an increment.
 * Its store stands on libs/infra's throttle store (limits/throttle-store.ts: the bounded memory, the
 * fallback to it while Redis is unreachable, the keys of an address and a name), as the dashboard's
 * sign-in throttle does (libs/dashboard sign-in-throttle.ts) under counters of its own.
 */
export interface OperatorThrottleLimits {
  /** How long a window lasts, from the first failure it counts. */
  windowMs: number;
  /** Failures per client address (per /64 network for IPv6) within a window, before wrong credentials answer 429. */
  perAddress: number;
  /** Failures per client address within a window past which nothing from it is checked (429). */
  verifiedPerAddress: number;
  /** Failures per user name within a window, whatever the address, before it is checked from trusted addresses only. */
  perUser: number;
  /** How long an address stays trusted after the right credentials came from it. */
  trustedForMs: number;
}

export const OPERATOR_THROTTLE_LIMITS: OperatorThrottleLimits = {
  windowMs: 5 * 60_000,
  perAddress: 10,
  verifiedPerAddress: 30,
  perUser: 20,
  trustedForMs: 7 * 24 * 3_600_000,
};

/** What an operator request carried: no credentials, the right ones, or wrong ones (or a malformed header). */
export type OperatorCredentials = 'none' | 'right' | 'wrong';

/** The counters of one attempt: the address's, the user name's (when one was given), the address's trust. */
export interface OperatorKeys {
  address: string;
  user: string | null;
  trust: string;
}

/**
 * What a store decided, atomically, for one attempt (the rules of the doc comment above):
 * `pass` (right, the address now trusted), `challenge` (no credentials), `wrong` (counted; `waitMs`
 * > 0 once a counter had passed its limit: 429), `refused` (not checked, nothing counted: 429).
 */
export type OperatorDecision =
  | { kind: 'pass' }
  | { kind: 'challenge' }
  | { kind: 'wrong'; waitMs: number }
  | { kind: 'refused'; waitMs: number };

export interface OperatorStore {
  signIn(
    keys: OperatorKeys,
    credentials: OperatorCredentials,
    nowMs: number,
    limits: OperatorThrottleLimits,
  ): Promise<OperatorDecision>;
}

/** Operator sign-in counted in this process's memory (Redis unreachable, unit tests); bounded like libs/infra's MemoryFailureStore. */
export class MemoryOperatorStore implements OperatorStore {
  private readonly windows: ExpiringEntries<ThrottleWindow>;
  private readonly trusted: ExpiringEntries<true>;

  constructor(maxEntries = 10_000) {
    this.windows = new ExpiringEntries(maxEntries);
    this.trusted = new ExpiringEntries(maxEntries);
  }

  signIn(
    keys: OperatorKeys,
    credentials: OperatorCredentials,
    nowMs: number,
    limits: OperatorThrottleLimits,
  ): Promise<OperatorDecision> {
    return Promise.resolve(this.decide(keys, credentials, nowMs, limits));
  }

  private decide(
    keys: OperatorKeys,
    credentials: OperatorCredentials,
    now: number,
    limits: OperatorThrottleLimits,
  ): OperatorDecision {
    const { windowMs } = limits;
    const address = this.windows.get(keys.address, now) ?? { start: now, count: 0 };
    if (address.count >= limits.verifiedPerAddress)
      return { kind: 'refused', waitMs: address.start + windowMs - now };
    if (credentials === 'none') return { kind: 'challenge' };
    const user = keys.user === null ? null : (this.windows.get(keys.user, now) ?? { start: now, count: 0 });
    const trusted = this.trusted.get(keys.trust, now) === true;
    if (user && user.count >= limits.perUser && !trusted)
      return { kind: 'refused', waitMs: user.start + windowMs - now };
    if (credentials === 'right') {
      this.trusted.set(keys.trust, true, now + limits.trustedForMs, now);
      return { kind: 'pass' };
    }
    let waitMs = 0;
    if (address.count >= limits.perAddress) waitMs = address.start + windowMs - now;
    if (user && user.count >= limits.perUser) waitMs = Math.max(waitMs, user.start + windowMs - now);
    this.windows.set(keys.address, { ...address, count: address.count + 1 }, address.start + windowMs, now);
    if (user && keys.user !== null)
      this.windows.set(keys.user, { ...user, count: user.count + 1 }, user.start + windowMs, now);
    return { kind: 'wrong', waitMs };
  }
}

/**
 * MemoryOperatorStore's rules in one script (atomic): KEYS address, trust[, user]; counters are
 * hashes {s: window start, n: failures} as libs/infra's RedisFailureStore's, the trust mark the time
 * of the last success. Windows and trust are judged by the clock passed in; Redis' expiries only
 * clean up.
 * Answers {0 pass | 1 challenge | 2 wrong | 3 refused, wait ms}.
 */
const SIGN_IN_SCRIPT = `
local now, window = tonumber(ARGV[1]), tonumber(ARGV[2])
local credentials = ARGV[3]
local perAddress, verified = tonumber(ARGV[4]), tonumber(ARGV[5])
local perUser, trustedFor = tonumber(ARGV[6]), tonumber(ARGV[7])
local function counter(key)
  local v = redis.call('HMGET', key, 's', 'n')
  local s, n = tonumber(v[1]), tonumber(v[2])
  if not s or not n or now - s >= window then return now, 0 end
  return s, n
end
local function count(key, s, n)
  redis.call('HSET', key, 's', s, 'n', n + 1)
  redis.call('PEXPIRE', key, math.max(1, s + window - now))
end
local as, an = counter(KEYS[1])
if an >= verified then return {3, as + window - now} end
if credentials == 'none' then return {1, 0} end
local user = #KEYS == 3
local us, un = now, 0
if user then us, un = counter(KEYS[3]) end
local t = tonumber(redis.call('GET', KEYS[2]))
local trusted = t ~= nil and now - t < trustedFor
if user and un >= perUser and not trusted then return {3, us + window - now} end
if credentials == 'right' then
  redis.call('SET', KEYS[2], now, 'PX', trustedFor)
  return {0, 0}
end
local wait = 0
if an >= perAddress then wait = as + window - now end
if user and un >= perUser then wait = math.max(wait, us + window - now) end
count(KEYS[1], as, an)
if user then count(KEYS[3], us, un) end
return {2, wait}
`;

const DECISIONS = ['pass', 'challenge', 'wrong', 'refused'] as const;

/** Operator sign-in counted in Redis, shared by every gateway replica; keys `<QUEUE_PREFIX>:{opauth}:<counter>` (throttleKey). */
export class RedisOperatorStore implements OperatorStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async signIn(
    keys: OperatorKeys,
    credentials: OperatorCredentials,
    nowMs: number,
    limits: OperatorThrottleLimits,
  ): Promise<OperatorDecision> {
    const names = [keys.address, keys.trust, ...(keys.user === null ? [] : [keys.user])].map((name) =>
      throttleKey(this.prefix, name),
    );
    const [code, waitMs] = (await this.redis.eval(
      SIGN_IN_SCRIPT,
      names.length,
      ...names,
      String(nowMs),
      String(limits.windowMs),
      credentials,
      String(limits.perAddress),
      String(limits.verifiedPerAddress),
      String(limits.perUser),
      String(limits.trustedForMs),
    )) as [number, number];
    const kind = DECISIONS[code]!;
    if (kind === 'wrong' || kind === 'refused') return { kind, waitMs: Number(waitMs) };
    return { kind };
  }
}

/** Redis first, this process's memory while Redis cannot be reached (as libs/infra's FallbackFailureStore). */
export class FallbackOperatorStore extends WithFallback<OperatorStore> implements OperatorStore {
  constructor(
    primary: OperatorStore,
    fallback: OperatorStore,
    logger: Pick<Logger, 'warn'> = new Logger('operators'),
  ) {
    super(primary, fallback, logger, 'operator sign-in');
  }

  signIn: OperatorStore['signIn'] = (keys, credentials, nowMs, limits) =>
    this.either(nowMs, (store) => store.signIn(keys, credentials, nowMs, limits));
}

/**
 * What the operators' gate answers: let through, 401 with the Basic challenge, or 429 with
 * Retry-After (at least 1 s).
 */
export type OperatorVerdict =
  { outcome: 'pass' } | { outcome: 'challenge' } | { outcome: 'throttled'; retryAfterSeconds: number };

export class OperatorThrottle {
  constructor(
    private readonly store: OperatorStore,
    private readonly now: () => number = Date.now,
    private readonly limits: OperatorThrottleLimits = OPERATOR_THROTTLE_LIMITS,
  ) {}

  /** Throttling in this process only (per replica), with the system clock. */
  static inMemory(limits: OperatorThrottleLimits = OPERATOR_THROTTLE_LIMITS): OperatorThrottle {
    return new OperatorThrottle(new MemoryOperatorStore(), Date.now, limits);
  }

  /**
   * Decides and records one request to an operator page. `user` is the user name given, if any;
   * `credentials` whether they were given and right (compared before, in constant time).
   */
  async attempt(
    address: string,
    user: string | null,
    credentials: OperatorCredentials,
  ): Promise<OperatorVerdict> {
    const ip = addressKey(address);
    const keys: OperatorKeys = {
      address: `ip:${ip}`,
      user: user === null ? null : `user:${nameKey(user)}`,
      trust: `trusted:${ip}`,
    };
    const decision = await this.store.signIn(keys, credentials, this.now(), this.limits);
    if (decision.kind === 'pass') return { outcome: 'pass' };
    if (decision.kind === 'challenge') return { outcome: 'challenge' };
    // Wrong before any limit: the challenge again. Wrong past a limit, or refused unchecked: 429.
    if (decision.kind === 'wrong' && decision.waitMs <= 0) return { outcome: 'challenge' };
    return { outcome: 'throttled', retryAfterSeconds: Math.max(1, Math.ceil(decision.waitMs / 1000)) };
  }
}
