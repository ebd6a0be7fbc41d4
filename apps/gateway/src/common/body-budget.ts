import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import type { NextFunction, Response } from 'express';
import { ApiError } from '@ppfile/contract';
import { Metrics } from '@ppfile/infra';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { sendApiError } from './api-exception.filter';
import { MAX_BODY_BYTES } from './json-body.middleware';
import type { GatewayRequest } from './request-context';

/** Seconds a client should wait when the gateway's memory budget for bodies is spent. */
export const INFLIGHT_RETRY_AFTER_SECONDS = 2;
/** The part of MAX_INFLIGHT_BYTES one organization may hold (always at least one whole body). */
const ORGANIZATION_SHARE = 0.5;
/** How often bodies still arriving are looked at (their rate, their deadline, their connection). */
const CHECK_EVERY_MS = 1000;

/** One body being held: counted from before it is read until its answer ends or its connection does. */
interface Reservation {
  readonly req: GatewayRequest;
  readonly res: Response;
  readonly bytes: number;
  readonly organization: string;
  readonly startedMs: number;
  /** The connection's bytes read when the body started: what arrived since is the body (and little else). */
  readonly readAtStart: number;
}

/**
 * A cap on the request bodies a gateway holds in memory at once (MAX_INFLIGHT_BYTES): JSON bodies
 * and uploads are analysed in memory (never on disk, SERVICE.md §4.3). Issue 19 (second hostile
 * review) made it a mechanism that nothing a client does can leak, bypass or hog:
 *
 * - **Counted before it is read**, by what can arrive: the Content-Length, or the 20 MB maximum when
 *   there is none (chunked) or when the body is compressed (Content-Encoding: its inflated size is
 *   unknown until it is inflated, and the body readers stop inflating at 20 MB).
 * - **Released exactly once**, when the answer ends or the connection closes, whichever comes first;
 *   a connection already closed when the body would be counted (the client left during the API-key
 *   check) is not counted at all; and every second, a reservation whose connection is gone is
 *   released even if no event said so.
 * - **Received in bounded time**: a body must arrive within BODY_TIMEOUT_SECONDS, and after a grace
 *   of 10 s at BODY_MIN_BYTES_PER_SECOND on average; otherwise 408 REQUEST_TIMEOUT and
 *   the connection is closed (a client trickling one byte every 5 s held its share for 300 s).
 * - **Shared**: one organization holds at most half of the budget (at least one body), so that one
 *   caller's slow or aborted uploads never make every other organization's POSTs 503.
 *
 * Over the budget (or the organization's share) the request gets 503 with Retry-After while its
 * body is drained without being kept. `ppfile_inflight_body_bytes` shows the bytes held, and
 * readiness fails if a body has been held longer than any answer can take (`stuck`).
 */
@Injectable()
export class BodyBudget implements OnModuleDestroy {
  private held = 0;
  private readonly byOrganization = new Map<string, number>();
  private readonly open = new Set<Reservation>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
    @Inject(Metrics) metrics: Metrics,
  ) {
    this.timer = setInterval(() => this.sweep(Date.now()), CHECK_EVERY_MS);
    this.timer.unref();
    metrics.inflightBodies(() => ({
      bytes: this.held,
      bodies: this.open.size,
      budget: this.config.maxInflightBytes,
    }));
  }

  get bytesHeld(): number {
    return this.held;
  }

  /** Whether a body has been held longer than any answer can take (readiness fails: a leak). */
  isStuck(nowMs = Date.now()): boolean {
    for (const r of this.open) if (nowMs - r.startedMs > this.stuckAfterMs) return true;
    return false;
  }

  /** No answer waits longer than its body's deadline plus the queue's wait (QUEUE_WAIT_SECONDS), plus a minute. */
  private get stuckAfterMs(): number {
    return (this.config.body.timeoutSeconds + this.config.queue.waitSeconds + 60) * 1000;
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  readonly middleware = (req: GatewayRequest, res: Response, next: NextFunction): void => {
    if (req.method !== 'POST') return next();
    // The client left while its key was being checked: there is no one to answer and nothing to hold.
    if (connectionGone(req, res)) return;
    const bytes = bytesToHold(req);
    const organization = req.principal?.organization.id ?? '';
    const ofOrganization = this.byOrganization.get(organization) ?? 0;
    // One body alone is always admitted (the 20 MB limit bounds it); several only within the budget,
    // and one organization's only within its share.
    if (
      (this.held > 0 && this.held + bytes > this.config.maxInflightBytes) ||
      (ofOrganization > 0 && ofOrganization + bytes > this.organizationShare)
    ) {
      sendApiError(
        req,
        res,
        new ApiError(
          'SERVICE_UNAVAILABLE',
          { detail: 'busy' },
          {},
          { 'Retry-After': String(INFLIGHT_RETRY_AFTER_SECONDS) },
        ),
      );
      // The body is read and dropped chunk by chunk (no memory held), so that the client, still
      // sending, receives the 503 instead of a connection reset.
      req.resume();
      return;
    }
    const reservation: Reservation = {
      req,
      res,
      bytes,
      organization,
      startedMs: Date.now(),
      readAtStart: req.socket?.bytesRead ?? 0,
    };
    this.held += bytes;
    this.byOrganization.set(organization, ofOrganization + bytes);
    this.open.add(reservation);
    const release = () => this.release(reservation);
    res.once('close', release);
    res.once('finish', release);
    req.once('close', () => {
      // A request's 'close' also comes after a body read in full; only a lost connection releases.
      if (req.socket?.destroyed) release();
    });
    next();
  };

  private get organizationShare(): number {
    return Math.max(MAX_BODY_BYTES + 1, Math.floor(this.config.maxInflightBytes * ORGANIZATION_SHARE));
  }

  private release(r: Reservation): void {
    if (!this.open.delete(r)) return;
    this.held -= r.bytes;
    const left = (this.byOrganization.get(r.organization) ?? 0) - r.bytes;
    if (left > 0) this.byOrganization.set(r.organization, left);
    else this.byOrganization.delete(r.organization);
  }

  /** Releases what no event released, and times out bodies that arrive too slowly. */
  sweep(nowMs: number): void {
    const { timeoutSeconds, graceSeconds, minBytesPerSecond } = this.config.body;
    for (const r of this.open) {
      if (connectionGone(r.req, r.res)) {
        this.release(r);
        continue;
      }
      if (r.req.complete) continue;
      const elapsedMs = nowMs - r.startedMs;
      const received = (r.req.socket?.bytesRead ?? 0) - r.readAtStart;
      const owed = (minBytesPerSecond * Math.max(0, elapsedMs - graceSeconds * 1000)) / 1000;
      if (elapsedMs > timeoutSeconds * 1000 || received < owed) this.timeOut(r);
    }
  }

  /** 408 for a body that did not arrive in time; its connection is closed once the answer is sent. */
  private timeOut(r: Reservation): void {
    this.release(r);
    const socket = r.req.socket;
    if (r.res.headersSent) {
      socket?.destroy();
      return;
    }
    r.res.once('finish', () => socket?.destroy());
    sendApiError(
      r.req,
      r.res,
      new ApiError(
        'REQUEST_TIMEOUT',
        { limit: this.config.body.timeoutSeconds, count: this.config.body.minBytesPerSecond },
        {},
        { Connection: 'close' },
      ),
    );
  }
}

/** What a body can grow to in memory before it is read (see BodyBudget). */
export function bytesToHold(req: GatewayRequest): number {
  const encoding = (req.header('content-encoding') ?? '').trim().toLowerCase();
  if (encoding !== '' && encoding !== 'identity') return MAX_BODY_BYTES;
  const declared = Number(req.header('content-length'));
  return Number.isSafeInteger(declared) && declared >= 0
    ? Math.min(declared, MAX_BODY_BYTES + 1)
    : MAX_BODY_BYTES;
}

/** Whether the client's connection is already closed (Node emitted 'close' before anyone listened). */
function connectionGone(req: GatewayRequest, res: Response): boolean {
  return req.destroyed || res.closed || req.socket?.destroyed === true;
}
