import { randomBytes } from 'node:crypto';

/** Ids of API.md §1: a prefix and lowercase hex of random bytes. */
function hexId(prefix: string, bytes: number): string {
  return `${prefix}${randomBytes(bytes).toString('hex')}`;
}

export const newOrganizationId = (): string => hexId('org_', 12);
export const newApiKeyId = (): string => hexId('key_', 12);
// File ids are made where files are generated (the rules library, used offline by the CLI too).
export { newFileId } from '@ppfile/rules';

export const ORGANIZATION_ID = /^org_[0-9a-f]{24}$/;
export const API_KEY_ID = /^key_[0-9a-f]{24}$/;
export const FILE_ID = /^file_[0-9a-f]{32}$/;
