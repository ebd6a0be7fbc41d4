import { Inject, Injectable, Logger } from '@nestjs/common';
import { normalizeEmail, SessionStore, UserStore, type DashboardUser } from '@ppfile/db';
import type { ThrottleVerdict } from '@ppfile/infra';
import type { SignedIn } from './dashboard-request';
import { DeviceCookies } from './device-cookies';
import {
  hashPassword,
  needsRehash,
  newPasswordProblem,
  verifyPassword,
  type PasswordProblem,
} from './passwords';
import { SESSION_LIMITS } from './session-cookies';
import { SignInThrottle, type SignInClient } from './sign-in-throttle';

/** Where an attempt comes from: the client's address and the device cookie it sent, if any. */
export interface ClientContext {
  address: string;
  deviceCookie: string | undefined;
}

/** `token`: the new session's; `deviceCookie`: the device cookie's new value (this browser now trusted). */
export type SignInResult =
  | { kind: 'ok'; token: string; deviceCookie: string; user: DashboardUser }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type PasswordChangeResult =
  | { kind: 'ok'; token: string; deviceCookie: string }
  | { kind: 'wrong_current' }
  | { kind: 'problem'; problem: PasswordProblem }
  | { kind: 'throttled'; retryAfterSeconds: number };

export type InvitationResult =
  | { kind: 'ok'; token: string; deviceCookie: string }
  | { kind: 'invalid' }
  | { kind: 'problem'; problem: PasswordProblem };

const logger = new Logger('dashboard');

/**
 * Who may use the dashboard: sign-in (throttled, with device cookies), invitations, password
 * changes and sign-out. Every authentication that succeeds makes the browser a trusted device of the
 * account (device-cookies.ts); failures are counted by SignInThrottle alone.
 * Log lines carry ids and outcomes, never an e-mail address, a password or a token.
 */
@Injectable()
export class DashboardAuth {
  constructor(
    @Inject(UserStore) private readonly users: UserStore,
    @Inject(SessionStore) private readonly sessions: SessionStore,
    @Inject(SignInThrottle) private readonly throttle: SignInThrottle,
    @Inject(DeviceCookies) private readonly devices: DeviceCookies,
  ) {}

  async signIn(email: string, password: string, from: ClientContext): Promise<SignInResult> {
    const client = this.client(normalizeEmail(email).slice(0, 320), from);
    // Already throttled: refused before the (deliberately costly) hash is computed.
    const before = await this.throttle.attempt(client, false);
    if (!before.allowed) return this.throttled(before, 'sign_in', client);
    const user = await this.users.findByEmail(client.email);
    const ok = (await verifyPassword(password, user?.passwordHash ?? null)) && user !== null;
    // Counted atomically with the check: concurrent guesses cannot pass the limit.
    const verdict = await this.throttle.attempt(client, !ok);
    if (!verdict.allowed) return this.throttled(verdict, 'sign_in', client);
    if (!ok || !user) {
      logger.log(
        { event: 'sign_in_failed', user_id: user?.id, trusted_device: client.device !== null },
        'dashboard sign-in failed',
      );
      return { kind: 'wrong' };
    }
    if (needsRehash(user.passwordHash!)) await this.users.setPassword(user.id, await hashPassword(password));
    const token = await this.openSession(user.id);
    await this.users.recordSignIn(user.id);
    logger.log(
      {
        event: 'sign_in',
        user_id: user.id,
        org_id: user.organizationId,
        trusted_device: client.device !== null,
      },
      'dashboard sign-in',
    );
    return { kind: 'ok', token, deviceCookie: this.devices.issue(client.email, from.deviceCookie), user };
  }

  /** The user an invitation link is for (to greet them), or null when the link is not valid. */
  invitation(token: string) {
    return this.users.findByInvitation(token);
  }

  async acceptInvitation(
    token: string,
    password: string,
    confirmation: string,
    deviceCookie: string | undefined,
  ): Promise<InvitationResult> {
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
    return { kind: 'ok', token: session, deviceCookie: this.devices.issue(accepted.email, deviceCookie) };
  }

  /**
   * Checks the current password (a wrong one counts as a failed sign-in of the account), sets the
   * new one, and ends every session of the user — this one included: the caller gets a new token,
   * so a session stolen before the change is worth nothing after it.
   */
  async changePassword(
    session: SignedIn,
    input: { current: string; password: string; confirmation: string } & ClientContext,
  ): Promise<PasswordChangeResult> {
    const client = this.client(session.email, input);
    const before = await this.throttle.attempt(client, false);
    if (!before.allowed) return this.throttled(before, 'password_change', client);
    const user = await this.users.get(session.userId);
    const ok = (await verifyPassword(input.current, user?.passwordHash ?? null)) && user !== null;
    const verdict = await this.throttle.attempt(client, !ok);
    if (!verdict.allowed) return this.throttled(verdict, 'password_change', client);
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
    return { kind: 'ok', token, deviceCookie: this.devices.issue(user.email, input.deviceCookie) };
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

  /** The throttle's view of an attempt: trusted when its device cookie is valid for this e-mail. */
  private client(email: string, from: ClientContext): SignInClient {
    return { address: from.address, email, device: this.devices.deviceOf(from.deviceCookie, email) };
  }

  private throttled(
    verdict: ThrottleVerdict,
    event: string,
    client: SignInClient,
  ): { kind: 'throttled'; retryAfterSeconds: number } {
    const retryAfterSeconds = verdict.allowed ? 1 : verdict.retryAfterSeconds;
    logger.warn(
      { event: `${event}_throttled`, trusted_device: client.device !== null },
      'dashboard sign-in throttled',
    );
    return { kind: 'throttled', retryAfterSeconds };
  }
}
