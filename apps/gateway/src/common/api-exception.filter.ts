import { ArgumentsHost, Catch, HttpException, Logger, type ExceptionFilter } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiError,
  errorBody,
  REQUEST_ERROR_STATUS,
  requestErrorMessage,
  RETRY_AFTER_UNAVAILABLE_SECONDS,
  type ErrorBody,
  type RequestErrorCode,
} from '@ppfile/contract';
import { framesOf } from '@ppfile/infra';
import { isDependencyDown } from '@ppfile/jobs';
import { CURRENT_LIMITS, RequestError } from '@ppfile/rules';
import type { GatewayRequest } from './request-context';

/**
 * The one place that writes the error body of API.md §6. Unexpected errors become 500 without a
 * stack trace for the caller; what is logged is the error's class, code and stack frames — never its
 * message, which for a driver error could quote a value of the request.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    sendApiError(http.getRequest<GatewayRequest>(), http.getResponse<Response>(), exception);
  }
}

const logger = new Logger('errors');

/** Writes any exception as the API error body; also used by middleware that runs before Nest's routing. */
export function sendApiError(req: GatewayRequest, res: Response, exception: unknown): void {
  const lang = req.lang ?? 'en';
  const requestId = req.requestId ?? 'req_unknown';
  let status: number;
  let body: ErrorBody;
  if (exception instanceof RequestError) exception = ApiError.from(exception);
  if (exception instanceof ApiError) {
    status = exception.status;
    if (!res.headersSent)
      for (const [name, value] of Object.entries(exception.headers)) res.setHeader(name, value);
    if (status === 503 && !res.headersSent && !exception.headers['Retry-After'])
      res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    body = exception.body(lang, requestId);
  } else if (exception instanceof HttpException) {
    const code = httpCode(exception.getStatus());
    status = REQUEST_ERROR_STATUS[code];
    const message = requestErrorMessage(code, lang, {
      limit: CURRENT_LIMITS.maxBytes,
      expected: 'application/json',
      count: 1,
    });
    body = errorBody({ code, message }, requestId);
  } else if (isDependencyDown(exception)) {
    status = 503;
    if (!res.headersSent) res.setHeader('Retry-After', String(RETRY_AFTER_UNAVAILABLE_SECONDS));
    // Not one line per failed request: the health checks look, and log once what is down.
    (req.app?.locals as { onDependencyDown?: () => void } | undefined)?.onDependencyDown?.();
    body = errorBody(
      { code: 'SERVICE_UNAVAILABLE', message: requestErrorMessage('SERVICE_UNAVAILABLE', lang, {}) },
      requestId,
    );
  } else {
    status = 500;
    log('unexpected error', exception, requestId);
    body = errorBody(
      { code: 'INTERNAL_ERROR', message: requestErrorMessage('INTERNAL_ERROR', lang, {}) },
      requestId,
    );
  }
  if (res.headersSent) {
    res.end();
    return;
  }
  // For the access line and the refusals metric (common/access-log.ts).
  if (res.locals) res.locals.errorCode = body.error.code;
  res.status(status).json(body);
}

function log(what: string, error: unknown, requestId: string): void {
  const e = error as { name?: string; code?: unknown; stack?: string };
  logger.error(
    {
      request_id: requestId,
      err_name: e.name ?? typeof error,
      err_code: typeof e.code === 'string' || typeof e.code === 'number' ? String(e.code) : undefined,
      frames: framesOf(e.stack ?? ''),
    },
    what,
  );
}

/** Errors Nest or its middleware raise themselves (unknown route, multer's size limit, …). */
function httpCode(status: number): RequestErrorCode {
  switch (status) {
    case 404:
      return 'NOT_FOUND';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_REQUEST';
  }
}
