import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { ApiKeyStore, PLANS } from '@ppfile/db';
import { RateLimiter, type RateLimitResult } from '@ppfile/infra';
import { sendApiError } from '../common/api-exception.filter';
import type { GatewayRequest } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { KeyCache } from './key-cache';

/** Unauthenticated requests are limited per client address (API.md §6). */
const ANONYMOUS_PER_MINUTE = 30;
const BEARER = /^Bearer\s+(\S+)\s*$/i;

/**
 * Authentication and per-minute limits of every /v1 call, before any body is read: an unknown
 * caller cannot make the gateway parse 20 MB. Sets X-RateLimit-* on every response (API.md §6).
 */
@Injectable()
export class ApiKeyMiddleware implements NestMiddleware {
  constructor(
    @Inject(ApiKeyStore) private readonly apiKeys: ApiKeyStore,
    @Inject(RateLimiter) private readonly limiter: RateLimiter,
    @Inject(KeyCache) private readonly cache: KeyCache,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async use(req: GatewayRequest, res: Response, next: NextFunction): Promise<void> {
    try {
      const header = req.header('authorization');
      const token = header ? BEARER.exec(header)?.[1] : undefined;
      const principal = token
        ? await this.cache.authenticate(token, (t) => this.apiKeys.authenticate(t))
        : null;
      if (!principal) {
        const limit = await this.limiter.hit([
          { name: `ip:${req.ip ?? 'unknown'}`, limit: ANONYMOUS_PER_MINUTE * this.config.rateLimitScale },
        ]);
        this.enforce(res, limit);
        throw new ApiError(header ? 'INVALID_API_KEY' : 'MISSING_API_KEY');
      }
      const perMinute = PLANS[principal.organization.plan].requestsPerMinute * this.config.rateLimitScale;
      const limit = await this.limiter.hit([
        { name: `key:${principal.keyId}`, limit: perMinute },
        { name: `org:${principal.organization.id}`, limit: perMinute },
      ]);
      this.enforce(res, limit);
      req.principal = principal;
      next();
    } catch (e) {
      sendApiError(req, res, e);
    }
  }

  private enforce(res: Response, limit: RateLimitResult): void {
    res.setHeader('X-RateLimit-Limit', String(limit.limit));
    res.setHeader('X-RateLimit-Remaining', String(limit.remaining));
    res.setHeader('X-RateLimit-Reset', String(limit.reset));
    if (!limit.allowed) {
      throw new ApiError(
        'RATE_LIMIT_EXCEEDED',
        { limit: limit.limit, count: limit.reset },
        { limit: limit.limit, retry_after: limit.reset },
        { 'Retry-After': String(limit.reset) },
      );
    }
  }
}
