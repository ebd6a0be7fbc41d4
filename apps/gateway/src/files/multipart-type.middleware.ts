import type { NextFunction, Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { sendApiError } from '../common/api-exception.filter';
import type { GatewayRequest } from '../common/request-context';

/** POST /v1/files/validate takes multipart/form-data only (else 415, before anything is read). */
export function multipartOnly(req: GatewayRequest, res: Response, next: NextFunction): void {
  const type = (req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (req.method === 'POST' && type !== 'multipart/form-data') {
    return sendApiError(
      req,
      res,
      new ApiError('UNSUPPORTED_MEDIA_TYPE', { expected: 'multipart/form-data' }),
    );
  }
  next();
}
