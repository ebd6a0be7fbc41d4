import { Controller, Get, Inject, Post, Query, Req, Res, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { UserStore } from '@ppfile/db';
import { clientOf, startSession } from './auth.controller';
import { DashboardAuth } from './dashboard-auth';
import { DashboardExceptionFilter, redirect, sendPage } from './dashboard-errors';
import { PasswordForm, readPageForm } from './forms';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { clearCookie, SESSION_COOKIE } from './session-cookies';
import { FormSession, Session, SignedInGuard } from './signed-in';
import { accountPage, type AccountView } from './views/account-page';
import { viewContext } from './views/layout';

/** The signed-in person's account: who they are, who else has access, password, sessions. */
@ApiExcludeController()
@Controller('dashboard/account')
@UseFilters(DashboardExceptionFilter)
@UseGuards(SignedInGuard)
export class DashboardAccountController {
  constructor(
    @Inject(UserStore) private readonly users: UserStore,
    @Inject(DashboardAuth) private readonly auth: DashboardAuth,
  ) {}

  @Get()
  async page(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @Session() session: SignedIn,
    @Query('changed') changed: unknown,
  ): Promise<void> {
    await this.render(req, res, session, 200, { changed: changed === '1' });
  }

  /** A new password ends every session of the account; this browser gets a fresh one. */
  @Post('password')
  async changePassword(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
  ): Promise<void> {
    const ctx = viewContext(req);
    const { form } = readPageForm(PasswordForm, req.body, ctx.t, ctx.lang);
    const result = await this.auth.changePassword(session, {
      current: form.current,
      password: form.password,
      confirmation: form.confirmation,
      ...clientOf(req),
    });
    switch (result.kind) {
      case 'ok':
        startSession(req, res, result);
        return redirect(res, '/dashboard/account?changed=1');
      case 'throttled':
        res.setHeader('Retry-After', String(result.retryAfterSeconds));
        res.locals.errorCode = 'RATE_LIMIT_EXCEEDED';
        return this.render(req, res, session, 429, {
          error: { throttledMinutes: Math.max(1, Math.ceil(result.retryAfterSeconds / 60)) },
        });
      case 'wrong_current':
        res.locals.errorCode = 'SIGN_IN_FAILED';
        return this.render(req, res, session, 400, { error: { wrongCurrent: true } });
      case 'problem':
        res.locals.errorCode = 'INVALID_REQUEST';
        return this.render(req, res, session, 400, { error: { problem: result.problem } });
    }
  }

  @Post('sign-out-everywhere')
  async signOutEverywhere(
    @Req() req: DashboardRequest,
    @Res() res: Response,
    @FormSession() session: SignedIn,
  ): Promise<void> {
    await this.auth.signOutEverywhere(session);
    res.append('Set-Cookie', clearCookie(SESSION_COOKIE, req.secure));
    redirect(res, '/dashboard/sign-in?signed_out=1');
  }

  private async render(
    req: DashboardRequest,
    res: Response,
    session: SignedIn,
    status: number,
    extra: Partial<AccountView>,
  ): Promise<void> {
    const [me, people] = await Promise.all([
      this.users.get(session.userId),
      this.users.listForOrganization(session.organization.id),
    ]);
    sendPage(res, status, accountPage(viewContext(req), { me: me!, people, changed: false, ...extra }));
  }
}
