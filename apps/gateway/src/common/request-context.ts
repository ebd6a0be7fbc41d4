import type { Request } from 'express';
import type { AuthenticatedKey } from '@ppfile/db';
import type { Lang } from '@ppfile/rules';

/** Who is calling: set by the API-key middleware. */
export type Principal = AuthenticatedKey;

/** What the gateway attaches to a request as it passes through. */
export interface GatewayRequest extends Request {
  requestId: string;
  lang: Lang;
  principal?: Principal;
  /** The raw JSON body bytes, kept for the idempotency hash. */
  rawBody?: Buffer;
  /** A large declaration body read but not parsed: a rules thread parses it (RulesPool). */
  deferredJson?: boolean;
}
