import type { NextFunction, Response } from 'express';
import { newRequestId } from '@ppfile/contract';
import { pickLang } from '@ppfile/rules';
import type { GatewayRequest } from './request-context';

const SAFE_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/** X-Request-Id on every response (API.md §1): the caller's when it is safe, else req_ + hex. */
export function requestIdMiddleware(req: GatewayRequest, res: Response, next: NextFunction): void {
  const incoming = req.header('x-request-id');
  req.requestId = incoming && SAFE_ID.test(incoming) ? incoming : newRequestId();
  req.lang = pickLang(req.header('accept-language'));
  res.setHeader('X-Request-Id', req.requestId);
  next();
}
