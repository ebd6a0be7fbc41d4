import { raw, type NextFunction, type Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { sendApiError } from '../common/api-exception.filter';
import { MAX_BODY_BYTES } from '../common/json-body.middleware';
import type { GatewayRequest } from '../common/request-context';

/** Declaration bodies larger than this are parsed and validated in a rules thread (RulesPool). */
export const DEFERRED_BODY_BYTES = 256 * 1024;

const readRaw = raw({ limit: MAX_BODY_BYTES, type: () => true });

/**
 * POST /v1/declarations/validate with a large JSON body: its bytes are read but not parsed here —
 * JSON.parse of 20 MB would hold the event loop that serves every other request. The rules thread
 * parses them (same INVALID_JSON answer). Smaller bodies, and anything not declared as JSON, go on
 * to the JSON body middleware as before.
 */
export function deferLargeDeclarationBody(req: GatewayRequest, res: Response, next: NextFunction): void {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const length = Number(req.header('content-length'));
  if (req.method !== 'POST' || type !== 'application/json' || !(length > DEFERRED_BODY_BYTES)) return next();
  readRaw(req, res, (err?: unknown) => {
    if (err) {
      const e = err as { type?: string; status?: number };
      if (e.type === 'entity.too.large' || e.status === 413) {
        res.setHeader('Connection', 'close');
        return sendApiError(req, res, new ApiError('PAYLOAD_TOO_LARGE', { limit: MAX_BODY_BYTES }));
      }
      return sendApiError(req, res, new ApiError('UNSUPPORTED_MEDIA_TYPE', { expected: 'application/json' }));
    }
    req.rawBody = req.body as Buffer;
    req.body = undefined;
    req.deferredJson = true;
    next();
  });
}
