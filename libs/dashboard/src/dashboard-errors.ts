import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import { framesOf } from '@ppfile/infra';
import { isDependencyDown } from '@ppfile/jobs';
import { pickLang } from '@ppfile/rules';
import { RETRY_AFTER_UNAVAILABLE_SECONDS } from '@ppfile/contract';
import type { DashboardRequest } from './dashboard-request';
import type { Html } from './html';
import { errorPage } from './views/error-page';
import { viewContext } from './views/layout';

/** No live session: pages redirect to the sign-in form (and back after it). */
export class SignInRequired extends Error {
  override readonly name = 'SignInRequired';
}

/** A form without the session's CSRF token, or sent from another site: 403. */
export class CsrfRejected extends Error {
  override readonly name = 'CsrfRejected';
}

/** An object that does not exist or belongs to another organization: 404, as the API answers. */
export class DashboardNotFound extends Error {
  override readonly name = 'DashboardNotFound';
}

/** A page of the front end (Build, Try it) when `npm run build:web` was not run before the start: 503. */
export class WebBundleMissing extends Error {
  override readonly name = 'WebBundleMissing';
}

const logger = new Logger('dashboard');

/** Writes an HTML page (every dashboard answer but downloads and assets). */
export function sendPage(res: Response, status: number, page: Html): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.send(page.toString());
}

/** 303 See Other: after a form, the browser GETs the target. */
export function redirect(res: Response, location: string): void {
  res.status(303);
  res.setHeader('Location', location);
  res.end();
}

/**
 * Every failure of a dashboard request as a page, never the API's JSON body: sign-in redirect,
 * 403 (CSRF), 404 (missing or another organization's), 413, 503 with Retry-After (a dependency is
 * down; nothing was changed) and 500. As the API's filter does, an unexpected error is logged by
 * class and frames only — never its message, which could quote input.
 */
export function renderFailure(req: DashboardRequest, res: Response, exception: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  req.dashboard ??= {
    lang: pickLang(req.header('accept-language')),
    cookies: new Map(),
    session: null,
    sessionEnded: false,
  };
  const ctx = viewContext(req);
  const { errors } = ctx.t;
  const page = (status: number, code: string, title: string, message: string) => {
    res.locals.errorCode = code;
    sendPage(res, status, errorPage(ctx, title, message));
  };
  if (exception instanceof SignInRequired) {
    const query = new URLSearchParams();
    const path = (req.originalUrl ?? req.url).split('?')[0];
    if (req.method === 'GET' && path !== '/dashboard' && path !== '/dashboard/')
      query.set('next', req.originalUrl);
    // A form (an upload, even) from a browser that is not signed in: its body is not worth reading.
    if (req.method !== 'GET' && req.method !== 'HEAD') res.setHeader('Connection', 'close');
    if (req.dashboard.sessionEnded) query.set('expired', '1');
    const qs = query.toString();
    return redirect(res, `/dashboard/sign-in${qs ? `?${qs}` : ''}`);
  }
  if (exception instanceof CsrfRejected)
    return page(403, 'CSRF_REJECTED', errors.forbiddenTitle, errors.forbidden);
  if (exception instanceof DashboardNotFound)
    return page(404, 'NOT_FOUND', errors.notFoundTitle, errors.notFound);
  if (exception instanceof WebBundleMissing)
    return page(503, 'SERVICE_UNAVAILABLE', errors.bundleMissingTitle, errors.bundleMissing);
  if (isDependencyDown(exception)) {
    res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    (req.app?.locals as { onDependencyDown?: () => void } | undefined)?.onDependencyDown?.();
    return page(503, 'SERVICE_UNAVAILABLE', errors.unavailableTitle, errors.unavailable);
  }
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return page(404, 'NOT_FOUND', errors.notFoundTitle, errors.notFound);
    if (status === 413) return page(413, 'PAYLOAD_TOO_LARGE', errors.tooLargeTitle, errors.tooLarge);
    if (status < 500) return page(400, 'INVALID_REQUEST', errors.forbiddenTitle, errors.forbidden);
  }
  const e = (exception ?? {}) as { name?: unknown; code?: unknown; stack?: unknown };
  const code = typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : undefined;
  logger.error(
    {
      request_id: req.requestId,
      err_name: typeof e.name === 'string' ? e.name : typeof exception,
      err_code: code,
      frames: framesOf(typeof e.stack === 'string' ? e.stack : ''),
    },
    'unexpected dashboard error',
  );
  return page(500, 'INTERNAL_ERROR', errors.internalTitle, errors.internal);
}

/** The filter of every dashboard controller (it takes precedence over the API's global filter). */
@Catch()
export class DashboardExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    renderFailure(http.getRequest<DashboardRequest>(), http.getResponse<Response>(), exception);
  }
}
