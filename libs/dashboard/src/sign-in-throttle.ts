import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import {
  addressKey,
  FallbackFailureStore,
  MemoryFailureStore,
  nameKey,
  RedisFailureStore,
  verdictOf,
  type FailureStore,
  type ThrottleCounter,
  type ThrottleVerdict,
} from '@ppfile/infra';

/**
 * Failures allowed within one window (15 minutes from the first failure a counter holds); past any
 * of them the attempts it counts answer 429, even with the right password, until its window ends.
 *
 * - A browser that signed in to the account before (a valid device cookie, device-cookies.ts) is
 *   counted alone: 5 failures of that browser lock that browser only. Strangers failing from
 *   anywhere cannot lock it out; a stolen device cookie buys 5 guesses per 15 minutes.
 * - Any other client (untrusted) is counted by address and e-mail (5: one client guessing one
 *   account), by e-mail whatever the address (10: slower guessing spread over many addresses — the
 *   one lockout a stranger can cause, and it spares browsers the account already used), and by
 *   address whatever the e-mail (20: an office behind one address, or one client trying many
 *   accounts).
 *
 * Ten guesses per 15 minutes is 960 a day at most against an account, for a password of 12
 * characters at least that is not a common one (passwords.ts).
 */
export interface SignInLimits {
  windowMs: number;
  perDevice: number;
  perAddressAndEmail: number;
  perEmail: number;
  perAddress: number;
}

export const SIGN_IN_LIMITS: Readonly<SignInLimits> = {
  windowMs: 15 * 60_000,
  perDevice: 5,
  perAddressAndEmail: 5,
  perEmail: 10,
  perAddress: 20,
};

/** Who is trying to sign in (or to confirm their password). */
export interface SignInClient {
  /** The client's address (req.ip: behind TRUST_PROXY, the proxy's X-Forwarded-For). */
  address: string;
  /** The normalized e-mail address tried. */
  email: string;
  /** The device of a valid device cookie for `email` (DeviceCookies.deviceOf), else null. */
  device: string | null;
}

/**
 * The one place dashboard sign-in failures are counted (sign-in and the current password of the
 * password form), with libs/infra's throttle store, as the operators' gate is: atomic per attempt,
 * in Redis under `<QUEUE_PREFIX>:dashboard:opauth:` (shared by the replicas), in memory while Redis
 * is unreachable.
 */
export class SignInThrottle {
  constructor(
    private readonly store: FailureStore,
    private readonly now: () => number = Date.now,
    private readonly limits: Readonly<SignInLimits> = SIGN_IN_LIMITS,
  ) {}

  static over(redis: Redis, queuePrefix: string, now: () => number): SignInThrottle {
    const store = new FallbackFailureStore(
      new RedisFailureStore(redis, `${queuePrefix}:dashboard`),
      new MemoryFailureStore(),
      new Logger('dashboard'),
      'dashboard sign-in',
    );
    return new SignInThrottle(store, now);
  }

  /**
   * Checks the client's counters and, when `failed`, counts one failure under each, atomically:
   * refused attempts count nothing and do not extend a window.
   */
  async attempt(client: SignInClient, failed: boolean): Promise<ThrottleVerdict> {
    const waitMs = await this.store.attempt(this.counters(client), failed, this.now(), this.limits.windowMs);
    return verdictOf(waitMs);
  }

  private counters(client: SignInClient): ThrottleCounter[] {
    if (client.device !== null) return [{ name: `device:${client.device}`, limit: this.limits.perDevice }];
    const address = addressKey(client.address);
    return [
      { name: `ipuser:${nameKey(`${address}\n${client.email}`)}`, limit: this.limits.perAddressAndEmail },
      { name: `user:${nameKey(client.email)}`, limit: this.limits.perEmail },
      { name: `ip:${address}`, limit: this.limits.perAddress },
    ];
  }
}
