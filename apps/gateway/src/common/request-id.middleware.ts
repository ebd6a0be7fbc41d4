import type { NextFunction, Response } from 'express';
import { ApiError, newRequestId, REQUEST_FIELD_PROBLEMS } from '@ppfile/contract';
import { runWithRequestId } from '@ppfile/infra';
import { pickLang } from '@ppfile/rules';
import { sendApiError } from './api-exception.filter';
import type { GatewayRequest } from './request-context';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * X-Request-Id on every response (API.md §1): the caller's when it is safe, else req_ + hex. The
 * rest of the request runs in a context named by it (log lines, jobs added: runWithRequestId).
 */
export function requestIdMiddleware(req: GatewayRequest, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  req.requestId = incoming && SAFE_ID.test(incoming) ? incoming : newRequestId();
  req.lang = pickLang(req.header('accept-language'));
  res.setHeader('X-Request-Id', req.requestId);
  runWithRequestId(req.requestId, next);
}

/**
 * A path whose percent-encoding is broken (`/v1/files/%E0%A4%A`) is refused here, before a router
 * decodes it: 400 INVALID_REQUEST naming the path, with a request id, like any other refusal
 * (issue 19: matching such a path again after the answer threw, and ended the process).
 */
export function wellFormedPath(req: GatewayRequest, res: Response, next: NextFunction): void {
  try {
    decodeURIComponent(req.path);
  } catch {
    const fields = [{ field: '(path)', message: REQUEST_FIELD_PROBLEMS.percent_encoding[req.lang] }];
    sendApiError(req, res, new ApiError('INVALID_REQUEST', { count: 1 }, { fields, field_count: 1 }));
    return;
  }
  next();
}
