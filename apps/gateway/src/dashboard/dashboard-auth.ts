import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { normalizeEmail, SessionStore, UserStore, type DashboardUser } from '@ppfile/db';
import {
  FallbackFailureStore,
  MemoryFailureStore,
  OperatorThrottle,
  RedisFailureStore,
  type OperatorThrottleLimits,
  type ThrottleVerdict,
} from '../operators/operator-throttle';
import type { SignedIn } from './dashboard-request';
import {
  hashPassword,
  needsRehash,
  newPasswordProblem,
  verifyPassword,
  type PasswordProblem,
} from './passwords';
import { SESSION_LIMITS } from './session-cookies';

/**
 * Sign-in failures allowed per client address and per e-mail address within 15 minutes; past
 * them every attempt answers 429 until the window that began with the first failure has passed,
 * even with the right password (the operator pages' throttle, operator-throttle.ts, with its own
 * limits and keys). An office behind one address gets 20 tries; one account 10, from anywhere.
 */
export const SIGN_IN_LIMITS: OperatorThrottleLimits = { windowMs: 15 * 60_000, perAddress: 20, perUser: 10 };

/** The throttle of dashboard sign-ins (AppModule's Redis, keys `<QUEUE_PREFIX>:dashboard:opauth:…`). */
export class SignInThrottle extends OperatorThrottle {
  static over(redis: Redis, queuePrefix: string, now: () => number): SignInThrottle {
    const logger = new Logger('dashboard');
    const store = new FallbackFailureStore(
      new RedisFailureStore(redis, `${queuePrefix}:dashboard`),
      new MemoryFailureStore(),
      {
        warn: (message: string) => logger.warn(message.replace('operator sign-in', 'dashboard sign-in')),
      },
    );
    return new SignInThrottle(store, now, SIGN_IN_LIMITS);
  }
}

export type SignInResult =
  | { kind: 'ok'; token: string; user: DashboardUser }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type PasswordChangeResult =
  | { kind: 'ok'; token: string }
  | { kind: 'wrong_current' }
  | { kind: 'problem'; problem: PasswordProblem }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type InvitationResult =
  { kind: 'ok'; token: string } | { kind: 'invalid' } | { kind: 'problem'; problem: PasswordProblem };

const logger = new Logger('dashboard');

/**
 * Who may use the dashboard: sign-in (throttled), invitations, password changes and sign-out.
 * Log lines carry ids and outcomes, never an e-mail address, a password or a token.
 */
@Injectable()
export class DashboardAuth {
  constructor(
    @Inject(UserStore) private readonly users: UserStore,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
  ) {}

  async signIn(email: string, password: string, address: string): Promise<SignInResult> {
    const name = normalizeEmail(email).slice(0, 320);
    // Already throttled: refused before the (deliberately costly) hash is computed.
    const before = await this.throttle.attempt(address, name, false);
    if (!before.allowed) return this.throttled(before, 'sign_in');
    const user = await this.users.findByEmail(name);
    const ok = (await verifyPassword(password, user?.passwordHash ?? null)) && user !== null;
    // Counted atomically with the check: concurrent guesses cannot pass the limit.
    const verdict = await this.throttle.attempt(address, name, !ok);
    if (!verdict.allowed) return this.throttled(verdict, 'sign_in');
    if (!ok || !user) {
      logger.log({ event: 'sign_in_failed', user_id: user?.id }, 'dashboard sign-in failed');
      return { kind: 'wrong' };
    }
    if (needsRehash(user.passwordHash!)) await this.users.setPassword(user.id, await hashPassword(password));
    const token = await this.openSession(user.id);
    await this.users.recordSignIn(user.id);
    logger.log({ event: 'sign_in', user_id: user.id, org_id: user.organizationId }, 'dashboard sign-in');
    return { kind: 'ok', token, user };
  }

  /** The user an invitation link is for (to greet them), or null when the link is not valid. */
  invitation(token: string) {
    return this.users.findByInvitation(token);
  }

  async acceptInvitation(token: string, password: string, confirmation: string): Promise<InvitationResult> {
    const user = await this.users.findByInvitation(token);
    if (!user) return { kind: 'invalid' };
    const problem = newPasswordProblem(password, confirmation, user.email);
    if (problem) return { kind: 'problem', problem };
    const accepted = await this.users.acceptInvitation(token, await hashPassword(password));
    if (!accepted) return { kind: 'invalid' };
    const session = await this.openSession(accepted.id);
    await this.users.recordSignIn(accepted.id);
    logger.log(
      { event: 'invitation_accepted', user_id: accepted.id, org_id: accepted.organizationId },
      'dashboard invitation accepted',
    );
    return { kind: 'ok', token: session };
  }

  /**
   * Checks the current password (a wrong one counts as a failed sign-in of the account), sets the
   * new one, and ends every session of the user — this one included: the caller gets a new token,
   * so a session stolen before the change is worth nothing after it.
   */
  async changePassword(
    session: SignedIn,
    input: { current: string; password: string; confirmation: string; address: string },
  ): Promise<PasswordChangeResult> {
    const name = session.email;
    const before = await this.throttle.attempt(input.address, name, false);
    if (!before.allowed) return this.throttled(before, 'password_change');
    const user = await this.users.get(session.userId);
    const ok = (await verifyPassword(input.current, user?.passwordHash ?? null)) && user !== null;
    const verdict = await this.throttle.attempt(input.address, name, !ok);
    if (!verdict.allowed) return this.throttled(verdict, 'password_change');
    if (!ok || !user) return { kind: 'wrong_current' };
    const problem = newPasswordProblem(input.password, input.confirmation, user.email);
    if (problem) return { kind: 'problem', problem };
    await this.users.setPassword(user.id, await hashPassword(input.password));
    const ended = await this.sessions.deleteForUser(user.id);
    const token = await this.openSession(user.id);
    logger.log(
      { event: 'password_changed', user_id: user.id, sessions_ended: ended },
      'dashboard password changed',
    );
    return { kind: 'ok', token };
  }

  async signOut(session: SignedIn): Promise<void> {
    await this.sessions.delete(session.id);
  }

  async signOutEverywhere(session: SignedIn): Promise<void> {
    const ended = await this.sessions.deleteForUser(session.userId);
    logger.log(
      { event: 'signed_out_everywhere', user_id: session.userId, sessions_ended: ended },
      'dashboard sessions ended',
    );
  }

  private async openSession(userId: string): Promise<string> {
    await this.sessions.purgeEnded(userId, SESSION_LIMITS);
    return (await this.sessions.create(userId, SESSION_LIMITS)).token;
  }

  private throttled(
    verdict: ThrottleVerdict,
    event: string,
  ): { kind: 'throttled'; retryAfterSeconds: number } {
    const retryAfterSeconds = verdict.allowed ? 1 : verdict.retryAfterSeconds;
    logger.warn({ event: `${event}_throttled` }, 'dashboard sign-in throttled');
    return { kind: 'throttled', retryAfterSeconds };
  }
}
