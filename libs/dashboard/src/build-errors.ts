import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiError,
  errorBody,
  REQUEST_FIELD_PROBLEMS,
  RETRY_AFTER_UNAVAILABLE_SECONDS,
  type ErrorBody,
} from '@ppfile/contract';
import { framesOf } from '@ppfile/infra';
import { isDependencyDown } from '@ppfile/jobs';
import { pickLang, RequestError, type Lang } from '@ppfile/rules';
import { CsrfRejected, SignInRequired } from './dashboard-errors';
import type { DashboardRequest } from './dashboard-request';
import { MESSAGES } from './i18n';

const logger = new Logger('dashboard');

/** A field of the request refused with the API's words (details.fields, as the API's pipe writes it). */
export function invalidField(field: string, message: string): ApiError {
  return new ApiError('INVALID_REQUEST', { count: 1 }, { fields: [{ field, message }], field_count: 1 });
}

/** The API's words for one problem of a field (libs/contract's catalogue). */
export function fieldProblem(problem: keyof typeof REQUEST_FIELD_PROBLEMS, lang: Lang, suffix = ''): string {
  return `${REQUEST_FIELD_PROBLEMS[problem][lang]}${suffix}`;
}

/**
 * Writes a failure of the Build page's JSON requests (template, mappings, generate) in the API's
 * error shape (API.md §6) — the page's script reads them as it would the API's: the API's own
 * refusals as the API answers them (ApiError, RequestError, 503 with Retry-After when a dependency
 * is down), and the two of the dashboard: no session (401 SIGN_IN_REQUIRED, not a redirect a script
 * cannot follow) and a missing or wrong CSRF token (403 CSRF_REJECTED). As the other filters, an
 * unexpected error is logged by class and frames only, never its message.
 */
export function sendJsonFailure(req: DashboardRequest, res: Response, exception: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  const lang = req.dashboard?.lang ?? pickLang(req.header('accept-language'));
  const t = MESSAGES[lang].build.refusals;
  const requestId = req.requestId ?? 'req_unknown';
  let status: number;
  let body: ErrorBody;
  if (exception instanceof RequestError) exception = ApiError.from(exception);
  if (exception instanceof ApiError) {
    status = exception.status;
    for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    body = exception.body(lang, requestId);
  } else if (exception instanceof SignInRequired) {
    status = 401;
    if (req.method !== 'GET' && req.method !== 'HEAD') res.setHeader('Connection', 'close');
    body = errorBody({ code: 'SIGN_IN_REQUIRED', message: t.signInRequired }, requestId);
  } else if (exception instanceof CsrfRejected) {
    status = 403;
    body = errorBody({ code: 'CSRF_REJECTED', message: t.csrfRejected }, requestId);
  } else if (isDependencyDown(exception)) {
    status = 503;
    (req.app?.locals as { onDependencyDown?: () => void } | undefined)?.onDependencyDown?.();
    body = new ApiError('SERVICE_UNAVAILABLE').body(lang, requestId);
  } else if (exception instanceof HttpException && exception.getStatus() < 500) {
    const code = exception.getStatus() === 413 ? 'PAYLOAD_TOO_LARGE' : 'INVALID_REQUEST';
    status = code === 'PAYLOAD_TOO_LARGE' ? 413 : 400;
    body = new ApiError(code, { limit: 0, count: 1 }).body(lang, requestId);
  } else {
    status = 500;
    const e = (exception ?? {}) as { name?: unknown; code?: unknown; stack?: unknown };
    logger.error(
      {
        request_id: requestId,
        err_name: typeof e.name === 'string' ? e.name : typeof exception,
        err_code: typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : undefined,
        frames: framesOf(typeof e.stack === 'string' ? e.stack : ''),
      },
      'unexpected dashboard error',
    );
    body = new ApiError('INTERNAL_ERROR').body(lang, requestId);
  }
  if (status === 503 && !res.getHeader('Retry-After'))
    res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
  // For the access line and the refusals metric.
  res.locals.errorCode = body.error.code;
  res.status(status).json(body);
}

/** The filter of the Build page's JSON routes. */
@Catch()
export class DashboardJsonFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendJsonFailure(http.getRequest<DashboardRequest>(), http.getResponse<Response>(), exception);
  }
}
