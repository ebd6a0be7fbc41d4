import { json, type NextFunction, type Response } from 'express';
import { errorBody, REQUEST_ERROR_STATUS } from '@ppfile/contract';
import { requestErrorMessage, type RequestErrorCode } from '@ppfile/rules';
import type { GatewayRequest } from './request-context';

export const MAX_BODY_BYTES = 20 * 1024 * 1024;

const parse = json({
  limit: MAX_BODY_BYTES,
  type: () => true,
  strict: false,
  verify: (req, _res, buf) => {
    (req as GatewayRequest).rawBody = buf;
  },
});

/**
 * JSON bodies of POST endpoints: Content-Type application/json (else 415), at most 20 MB (else
 * 413), valid JSON (else 400 INVALID_JSON). Errors are written here, in the API's shape, because
 * they happen before Nest's routing and filters.
 */
export function jsonBodyMiddleware(req: GatewayRequest, res: Response, next: NextFunction): void {
  if (req.method !== 'POST') return next();
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json') return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE');
  parse(req, res, (err?: unknown) => {
    if (!err) return next();
    const e = err as { type?: string; status?: number };
    if (e.type === 'entity.too.large' || e.status === 413) return fail(req, res, 'PAYLOAD_TOO_LARGE');
    if (e.type === 'charset.unsupported' || e.type === 'encoding.unsupported') return fail(req, res, 'UNSUPPORTED_MEDIA_TYPE');
    return fail(req, res, 'INVALID_JSON');
  });
}

function fail(req: GatewayRequest, res: Response, code: RequestErrorCode): void {
  const status = REQUEST_ERROR_STATUS[code];
  const message = requestErrorMessage(code, req.lang ?? 'en', { limit: MAX_BODY_BYTES, expected: 'application/json' });
  // The rest of the body is not read: close the connection rather than wait for it.
  if (code === 'PAYLOAD_TOO_LARGE') res.setHeader('Connection', 'close');
  res.status(status).json(errorBody({ code, message }, req.requestId));
}
