import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { sendApiError } from './api-exception.filter';
import type { GatewayRequest } from './request-context';

/**
 * SIGTERM (API.md §13, SHUTDOWN_GRACE_SECONDS): the gateway stops taking requests (503 with
 * `Connection: close`), tells requests waiting for a durable job to answer 202 now, and waits for
 * the requests in flight to end — at most the grace period — before the server and clients close.
 */
@Injectable()
export class Draining implements BeforeApplicationShutdown {
  private readonly logger = new Logger('shutdown');
  private inFlight = 0;
  private idle: (() => void) | null = null;
  private started = false;
  private readonly listeners = new Set<() => void>();

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  get draining(): boolean {
    return this.started;
  }

  /** Runs `listener` when draining starts; returns the function that stops listening. */
  onDrain(listener: () => void): () => void {
    if (this.started) {
      listener();
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  readonly middleware = (req: GatewayRequest, res: Response, next: NextFunction): void => {
    if (this.started) {
      res.setHeader('Connection', 'close');
      return sendApiError(req, res, new ApiError('SERVICE_UNAVAILABLE'));
    }
    this.inFlight++;
    let done = false;
    const leave = () => {
      if (done) return;
      done = true;
      if (--this.inFlight === 0) this.idle?.();
    };
    res.once('finish', leave);
    res.once('close', leave);
    next();
  };

  async beforeApplicationShutdown(): Promise<void> {
    this.started = true;
    for (const listener of this.listeners) listener();
    this.listeners.clear();
    if (this.inFlight === 0) return;
    this.logger.log(`draining ${this.inFlight} request(s), at most ${this.config.shutdownGraceSeconds} s`);
    await new Promise<void>((resolve) => {
      this.idle = resolve;
      setTimeout(resolve, this.config.shutdownGraceSeconds * 1000).unref();
    });
  }
}
