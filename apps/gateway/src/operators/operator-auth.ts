import { Logger } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Redis } from 'ioredis';
import { BasicCredentials, Clock } from '@ppfile/infra';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import {
  FallbackOperatorStore,
  MemoryOperatorStore,
  OperatorThrottle,
  RedisOperatorStore,
} from './operator-throttle';

const logger = new Logger('operators');

/**
 * HTTP Basic authentication of operators (OPERATOR_USER / OPERATOR_PASSWORD), for the operator
 * pages such as Bull Board (API.md §12): never an organization's API key. Without configured
 * credentials the pages do not exist (404).
 *
 * Sign-in is throttled per client address and per user name (operator-throttle.ts): past a limit,
 * wrong credentials answer 429 with Retry-After while the right ones still pass, so that Prometheus
 * keeps scraping /metrics when someone mistypes; only an address that failed far more than anyone
 * mistypes, or an untrusted address during guessing spread over many, is refused unchecked. Without
 * a throttle given, one in this process's memory.
 */
export function operatorAuth(
  operator: { user: string; password: string } | null,
  throttle: OperatorThrottle = OperatorThrottle.inMemory(),
) {
  const expected = operator ? new BasicCredentials(operator) : null;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (!expected) {
      res
        .status(404)
        .type('text/plain')
        .send('Operator pages are disabled: set OPERATOR_USER and OPERATOR_PASSWORD.\n');
      return;
    }
    const header = req.header('authorization');
    const { user, ok } = expected.check(header);
    const address = req.ip ?? req.socket.remoteAddress ?? 'unknown';
    throttle
      .attempt(address, user, header === undefined ? 'none' : ok ? 'right' : 'wrong')
      .then((verdict) => {
        if (verdict.outcome === 'throttled') {
          res.setHeader('Retry-After', String(verdict.retryAfterSeconds));
          res.status(429).type('text/plain').send('Too many failed operator sign-ins: try again later.\n');
          return;
        }
        if (verdict.outcome === 'pass') return next();
        res.setHeader('WWW-Authenticate', 'Basic realm="ppfile operators", charset="UTF-8"');
        res.status(401).type('text/plain').send('Operator credentials required.\n');
      })
      .catch((e: unknown) => {
        // The store falls back to memory; this is a fault of the store itself. Refuse, never let through.
        logger.error(`operator sign-in throttle failed: ${(e as Error).name}`);
        if (!res.headersSent) res.status(503).type('text/plain').send('Operator sign-in is unavailable.\n');
      });
  };
}

/** The operators' gate of this gateway (Bull Board, /metrics): one provider, one throttle. */
export const OPERATOR_GATE = Symbol('OperatorGate');

/**
 * Operator authentication for the pages of this gateway: failures and trusted addresses counted in
 * Redis (shared by the replicas, keys under QUEUE_PREFIX), in memory while Redis is unreachable,
 * timed by the app's clock.
 */
export const operatorGateProvider = {
  provide: OPERATOR_GATE,
  useFactory: (config: GatewayConfig, redis: Redis, clock: Clock) => {
    const store = new FallbackOperatorStore(
      new RedisOperatorStore(redis, config.queue.prefix),
      new MemoryOperatorStore(),
    );
    return operatorAuth(config.operator, new OperatorThrottle(store, () => clock.now().getTime()));
  },
  inject: [GATEWAY_CONFIG, Redis, Clock],
};
