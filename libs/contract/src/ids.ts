import { randomBytes, randomUUID } from 'node:crypto';

/** Ids of API.md §1: a prefix and lowercase hex of random bytes. */
function hexId(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export const newOrganizationId = (): string => hexId('org_', 12);
export const newApiKeyId = (): string => hexId('key_', 12);
/** file_ + 32 lowercase hex characters. */
export const newFileId = (): string => hexId('file_', 16);
/** rsv_ + 24 lowercase hex: a reservation of units (the units ledger). */
export const newReservationId = (): string => hexId('rsv_', 12);

/**
 * req_ + 32 lowercase hex (API.md §1): the gateway's answers and the CLI's error bodies. From
 * randomUUID, which draws from a buffered entropy pool: much cheaper per request than randomBytes.
 */
export const newRequestId = (): string => `req_${randomUUID().replace(/-/g, '')}`;

export const ORGANIZATION_ID = /^org_[0-9a-f]{24}$/;
export const API_KEY_ID = /^key_[0-9a-f]{24}$/;
export const FILE_ID = /^file_[0-9a-f]{32}$/;
