import { Controller, Get, Inject, Param, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { DashboardAuth, type ClientContext } from './dashboard-auth';
import { DashboardExceptionFilter, redirect, sendPage } from './dashboard-errors';
import { InvitationForm, readPageForm, SignInForm } from './forms';
import type { DashboardRequest } from './dashboard-request';
import { checkPreSessionCsrf, FormSession, SignedInGuard } from './signed-in';
import type { SignedIn } from './dashboard-request';
import { DEVICE_LIFETIME_MS } from './device-cookies';
import {
  clearCookie,
  CSRF_COOKIE,
  DEVICE_COOKIE,
  LANG_COOKIE,
  newCsrfCookieValue,
  readCookie,
  safeNext,
  serializeCookie,
  SESSION_COOKIE,
  SESSION_LIMITS,
} from './session-cookies';
import { invalidInvitationPage, invitationPage, signInPage, type SignInView } from './views/auth-pages';
import { viewContext } from './views/layout';

/**
 * Sets the session cookie of a new session (Secure over HTTPS) and the browser's device cookie,
 * and forgets the pre-session token.
 */
export function startSession(
  req: DashboardRequest,
  res: Response,
  started: { token: string; deviceCookie: string },
): void {
  res.append(
    'Set-Cookie',
    serializeCookie(SESSION_COOKIE, started.token, {
      secure: req.secure,
      maxAgeSeconds: SESSION_LIMITS.lifetimeMs / 1000,
    }),
  );
  res.append(
    'Set-Cookie',
    serializeCookie(DEVICE_COOKIE, started.deviceCookie, {
      secure: req.secure,
      maxAgeSeconds: DEVICE_LIFETIME_MS / 1000,
    }),
  );
  res.append('Set-Cookie', clearCookie(CSRF_COOKIE, req.secure));
}

/** What the throttle needs of a request: its client address and its device cookie. */
export function clientOf(req: DashboardRequest): ClientContext {
  return {
    address: req.ip ?? req.socket.remoteAddress ?? 'unknown',
    deviceCookie: readCookie(req.dashboard.cookies, DEVICE_COOKIE, req.secure),
  };
}

/**
 * Sign-in, sign-out, invitations and the language switch. Sign-in and invitation forms come before
 * any session: their CSRF token is a double-submit cookie (session-cookies.ts).
 */
@ApiExcludeController()
@Controller('dashboard')
@UseFilters(DashboardExceptionFilter)
export class DashboardAuthController {
  constructor(@Inject(DashboardAuth) private readonly auth: DashboardAuth) {}

  @Get('sign-in')
  signInForm(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Query() query: Record<string, unknown>,
  ): void {
    if (req.dashboard.session) return redirect(res, safeNext(query.next));
    const ctx = viewContext(req);
    const notice: SignInView['notice'] =
      query.signed_out === '1'
        ? { kind: 'ok', text: ctx.t.signIn.signedOut }
        : query.expired === '1'
          ? { kind: 'info', text: ctx.t.signIn.expired }
          : undefined;
    sendPage(
      res,
      200,
      signInPage(ctx, { csrf: this.preSessionCsrf(req, res), next: safeNext(query.next), notice }),
    );
  }

  @Post('sign-in')
  async signIn(@Req() req: DashboardRequest, @Res() res: Response): Promise<void> {
    checkPreSessionCsrf(req);
    const ctx = viewContext(req);
    const { form } = readPageForm(SignInForm, req.body, ctx.t, ctx.lang);
    const { email } = form;
    const next = safeNext(form.next);
    const result = await this.auth.signIn(email, form.password, clientOf(req));
    if (result.kind === 'ok') {
      startSession(req, res, result);
      return redirect(res, next);
    }
    const csrf = this.preSessionCsrf(req, res);
    if (result.kind === 'throttled') {
      res.setHeader('Retry-After', String(result.retryAfterSeconds));
      res.locals.errorCode = 'RATE_LIMIT_EXCEEDED';
      const minutes = Math.max(1, Math.ceil(result.retryAfterSeconds / 60));
      return sendPage(
        res,
        429,
        signInPage(ctx, {
          csrf,
          next,
          email,
          notice: { kind: 'error', text: ctx.t.signIn.throttled(minutes) },
        }),
      );
    }
    res.locals.errorCode = 'SIGN_IN_FAILED';
    sendPage(
      res,
      401,
      signInPage(ctx, { csrf, next, email, notice: { kind: 'error', text: ctx.t.signIn.wrong } }),
    );
  }

  @Post('sign-out')
  @UseGuards(SignedInGuard)
  async signOut(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
  ): Promise<void> {
    await this.auth.signOut(session);
    res.append('Set-Cookie', clearCookie(SESSION_COOKIE, req.secure));
    redirect(res, '/dashboard/sign-in?signed_out=1');
  }

  @Get('invite/:token')
  async invitationForm(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Param('token') token: string,
  ): Promise<void> {
    const ctx = viewContext(req);
    const user = await this.auth.invitation(token);
    if (!user) {
      res.locals.errorCode = 'NOT_FOUND';
      return sendPage(res, 404, invalidInvitationPage(ctx));
    }
    const csrf = this.preSessionCsrf(req, res);
    sendPage(
      res,
      200,
      invitationPage(ctx, { token, csrf, email: user.email, organization: user.organization.name }),
    );
  }

  @Post('invite/:token')
  async acceptInvitation(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Param('token') token: string,
  ): Promise<void> {
    checkPreSessionCsrf(req);
    const ctx = viewContext(req);
    const { form } = readPageForm(InvitationForm, req.body, ctx.t, ctx.lang);
    const result = await this.auth.acceptInvitation(
      token,
      form.password,
      form.confirmation,
      clientOf(req).deviceCookie,
    );
    if (result.kind === 'ok') {
      startSession(req, res, result);
      return redirect(res, '/dashboard?welcome=1');
    }
    if (result.kind === 'invalid') {
      res.locals.errorCode = 'NOT_FOUND';
      return sendPage(res, 404, invalidInvitationPage(ctx));
    }
    const user = await this.auth.invitation(token);
    if (!user) return sendPage(res, 404, invalidInvitationPage(ctx));
    const csrf = this.preSessionCsrf(req, res);
    res.locals.errorCode = 'INVALID_REQUEST';
    sendPage(
      res,
      400,
      invitationPage(ctx, {
        token,
        csrf,
        email: user.email,
        organization: user.organization.name,
        problem: result.problem,
      }),
    );
  }

  /** The language switch: remembered for a year, then back to the page it was clicked on. */
  @Get('lang/:lang')
  switchLang(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Param('lang') lang: string,
    @Query('next') next: unknown,
  ): void {
    if (lang === 'en' || lang === 'fr') {
      res.append(
        'Set-Cookie',
        serializeCookie(LANG_COOKIE, lang, { secure: req.secure, maxAgeSeconds: 365 * 86400 }),
      );
    }
    redirect(res, safeNext(next));
  }

  /** The pre-session CSRF token: the browser's cookie when it has one (several tabs), else a new one. */
  private preSessionCsrf(req: DashboardRequest, res: Response): string {
    const existing = readCookie(req.dashboard.cookies, CSRF_COOKIE, req.secure);
    if (existing && /^[A-Za-z0-9_-]{32}$/.test(existing)) return existing;
    const value = newCsrfCookieValue();
    res.append('Set-Cookie', serializeCookie(CSRF_COOKIE, value, { secure: req.secure }));
    return value;
  }
}
