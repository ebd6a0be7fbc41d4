import { isExpired } from '@ppfile/contract';
import type { FileRecord } from '@ppfile/db';

/** GET /v1/files/{id} (API.md §7). A stored file past its retention reads `expired` even before the sweep. */
export function fileMetadata(record: FileRecord, now: Date, baseUrl: string): Record<string, unknown> {
  const expired = isExpired(record, now);
  const body: Record<string, unknown> = {
    file_id: record.id,
    mode: record.mode,
    status: expired ? 'expired' : record.status,
    type: record.type,
    declarant: record.declarant,
    spec_version: record.specVersion,
    filename: record.filename,
    sha256: record.sha256,
    rows: record.rows,
    declarations: record.declarations,
    stored: record.stored,
    created_at: record.createdAt.toISOString(),
    expires_at: record.expiresAt ? record.expiresAt.toISOString() : null,
    download_url: record.stored ? downloadUrl(baseUrl, record.id) : null,
  };
  if (record.status === 'failed') body.error = record.error;
  return body;
}

export function downloadUrl(baseUrl: string, fileId: string): string {
  return `${baseUrl}/v1/files/${fileId}/download`;
}
