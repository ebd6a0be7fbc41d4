import { Inject, Injectable } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { sendApiError } from './api-exception.filter';
import { MAX_BODY_BYTES } from './json-body.middleware';
import type { GatewayRequest } from './request-context';

/** Seconds a client should wait when the gateway's memory budget for bodies is spent. */
export const INFLIGHT_RETRY_AFTER_SECONDS = 2;

/**
 * A cap on the request bodies a gateway holds in memory at once (MAX_INFLIGHT_BYTES): JSON bodies
 * and uploads are analysed in memory (never on disk, SERVICE.md §4.3), so without it eight parallel
 * 19 MB uploads grow the process by 300 MB. A body is counted before it is read — by its
 * Content-Length, or the 20 MB maximum when it has none — and released when its answer ends; over
 * the budget the request gets 503 with Retry-After while its body is drained without being kept.
 */
@Injectable()
export class InflightBytes {
  private held = 0;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  get bytesHeld(): number {
    return this.held;
  }

  readonly middleware = (req: GatewayRequest, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    const declared = Number(req.header('content-length'));
    const bytes =
      Number.isSafeInteger(declared) && declared >= 0
        ? Math.min(declared, MAX_BODY_BYTES + 1)
        : MAX_BODY_BYTES;
    // One body alone is always admitted (the 20 MB limit bounds it); several only within the budget.
    if (this.held > 0 && this.held + bytes > this.config.maxInflightBytes) {
      sendApiError(
        req,
        res,
        new ApiError('SERVICE_UNAVAILABLE', {}, {}, { 'Retry-After': String(INFLIGHT_RETRY_AFTER_SECONDS) }),
      );
      // The body is read and dropped chunk by chunk (no memory held), so that the client, still
      // sending, receives the 503 instead of a connection reset.
      req.resume();
      return;
    }
    this.held += bytes;
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      this.held -= bytes;
    };
    res.once('finish', release);
    res.once('close', release);
    next();
  };
}
