import type { FileRecord } from '@ppfile/db';
import { fileMetadata } from './file-metadata';
import { downloadState } from '@ppfile/contract';

/** Every state a file can be in, and what its download and its metadata answer (API.md §6–§7). */
const created = new Date('2026-11-22T10:00:00.000Z');
const base: FileRecord = {
  id: `file_${'a'.repeat(32)}`,
  organizationId: 'org_x',
  apiKeyId: 'key_x',
  mode: 'live',
  status: 'available',
  type: 'adf',
  declarant: 'employer',
  specVersion: '2026-02',
  filename: 'ppfile_adf_20261122_1a2b3c4d.csv',
  sha256: 'b'.repeat(64),
  rows: 3,
  declarations: 1,
  stored: true,
  objectKey: `files/file_${'a'.repeat(32)}.csv`,
  payloadKey: null,
  units: 3,
  createdAt: created,
  expiresAt: new Date('2026-11-23T10:00:00.000Z'),
  error: null,
  outcome: null,
  lang: 'en',
  requestId: 'req_1',
  progressAt: created,
};
const now = new Date('2026-11-22T12:00:00.000Z');
const later = new Date('2026-11-24T12:00:00.000Z');

describe('download and metadata by state', () => {
  it('available: the object, until its expiry', () => {
    expect(downloadState(base, now)).toEqual({ kind: 'available', objectKey: base.objectKey });
    expect(fileMetadata(base, now, 'http://x').status).toBe('available');
  });

  it('available past its retention, before the sweep: expired (410), metadata "expired"', () => {
    expect(downloadState(base, later)).toEqual({ kind: 'expired', retentionHours: 24 });
    expect(fileMetadata(base, later, 'http://x').status).toBe('expired');
  });

  it('expired by the sweep: 410 with its retention', () => {
    const swept = { ...base, status: 'expired' as const, objectKey: null };
    expect(downloadState(swept, now)).toEqual({ kind: 'expired', retentionHours: 24 });
    expect(fileMetadata(swept, now, 'http://x').status).toBe('expired');
  });

  it('processing: not available yet (409 with Retry-After), never 410', () => {
    const processing = { ...base, status: 'processing' as const, sha256: null, expiresAt: null };
    expect(downloadState(processing, now)).toEqual({ kind: 'processing' });
    expect(downloadState(processing, later)).toEqual({ kind: 'processing' });
    expect(fileMetadata(processing, now, 'http://x')).toMatchObject({ status: 'processing', sha256: null });
  });

  it('failed: not available (409), the metadata holds the error body', () => {
    const error = { error: { code: 'INTERNAL_ERROR', message: 'm', details: {}, request_id: 'req_1' } };
    const failed = { ...base, status: 'failed' as const, expiresAt: null, units: 0, error };
    expect(downloadState(failed, now)).toEqual({ kind: 'failed' });
    expect(fileMetadata(failed, now, 'http://x')).toMatchObject({ status: 'failed', error });
  });

  it('not stored: 404 FILE_NOT_STORED, no download url', () => {
    const notStored = {
      ...base,
      status: 'not_stored' as const,
      stored: false,
      objectKey: null,
      expiresAt: null,
    };
    expect(downloadState(notStored, now)).toEqual({ kind: 'not_stored' });
    expect(fileMetadata(notStored, now, 'http://x')).toMatchObject({
      status: 'not_stored',
      download_url: null,
    });
  });
});
