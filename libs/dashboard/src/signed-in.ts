import { createParamDecorator, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { CsrfRejected, SignInRequired } from './dashboard-errors';
import type { DashboardRequest, SignedIn } from './dashboard-request';
import { CSRF_COOKIE, CSRF_FIELD, readCookie, sameToken } from './session-cookies';

/**
 * Pages and actions of a signed-in person. A guard, so that it runs before any body is read (an
 * upload to Try it from a browser that is not signed in is refused before multer reads it).
 */
@Injectable()
export class SignedInGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<DashboardRequest>();
    const failure = req.dashboard?.sessionError;
    if (failure !== undefined)
      throw failure instanceof Error ? failure : new Error('session lookup failed', { cause: failure });
    if (!req.dashboard?.session) throw new SignInRequired();
    return true;
  }
}

/** The signed-in session of a page (behind SignedInGuard). */
export const Session = createParamDecorator((_data: unknown, context: ExecutionContext): SignedIn => {
  const session = context.switchToHttp().getRequest<DashboardRequest>().dashboard?.session;
  if (!session) throw new SignInRequired();
  return session;
});

/**
 * Refuses a form whose `_csrf` field is not `expected`. (A form another site sent was refused
 * before, whatever its token: DashboardSessionMiddleware.)
 */
export function checkCsrf(req: DashboardRequest, expected: string | undefined): void {
  if (!sameToken(req.body?.[CSRF_FIELD], expected)) throw new CsrfRejected();
}

/**
 * The signed-in session of a form POST, once its CSRF token is checked. Parameters are resolved
 * after the route's interceptors: a multipart body (Try it) is parsed by then, its `_csrf` field too.
 */
export const FormSession = createParamDecorator((_data: unknown, context: ExecutionContext): SignedIn => {
  const req = context.switchToHttp().getRequest<DashboardRequest>();
  const session = req.dashboard?.session;
  if (!session) throw new SignInRequired();
  checkCsrf(req, session.csrf);
  return session;
});

/** Forms before sign-in (sign-in, invitation): the field must match the double-submit cookie. */
export function checkPreSessionCsrf(req: DashboardRequest): void {
  checkCsrf(req, readCookie(req.dashboard.cookies, CSRF_COOKIE, req.secure));
}
