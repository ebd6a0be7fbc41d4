import { Inject, Injectable } from '@nestjs/common';
import { ApiError, downloadState, FILE_ID } from '@ppfile/contract';
import { FileStore, type FileRecord } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import { ObjectStorage } from '@ppfile/storage';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';
import { fileMetadata } from './file-metadata';

/** Seconds a client should wait before asking again for a file still processing. */
export const PROCESSING_RETRY_AFTER_SECONDS = 5;

/** GET /v1/files/{id} and its download, answered by the file's state (API.md §6–§7). */
@Injectable()
export class FileReader {
  constructor(
    @Inject(FileStore) private readonly files: FileStore,
    @Inject(ObjectStorage) private readonly storage: ObjectStorage,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async metadata(principal: Principal, id: string): Promise<Record<string, unknown>> {
    return fileMetadata(await this.ownRecord(principal, id), this.clock.now(), this.config.publicBaseUrl);
  }

  /** Only for the key that created the file (SERVICE.md §4.5). */
  async download(
    principal: Principal,
    id: string,
  ): Promise<{ filename: string; sha256: string; content: Buffer }> {
    const record = await this.ownRecord(principal, id);
    const state = downloadState(record, this.clock.now());
    switch (state.kind) {
      case 'not_stored':
        throw new ApiError('FILE_NOT_STORED');
      case 'processing':
        throw new ApiError(
          'FILE_NOT_AVAILABLE',
          { expected: 'processing' },
          { status: 'processing' },
          { 'Retry-After': String(PROCESSING_RETRY_AFTER_SECONDS) },
        );
      case 'failed':
        throw new ApiError('FILE_NOT_AVAILABLE', { expected: 'failed' }, { status: 'failed' });
      case 'expired':
        throw new ApiError('FILE_EXPIRED', { limit: state.retentionHours });
      case 'available':
        return {
          filename: record.filename,
          sha256: record.sha256 ?? '',
          content: await this.storage.get(state.objectKey),
        };
    }
  }

  private async ownRecord(principal: Principal, id: string): Promise<FileRecord> {
    const record = FILE_ID.test(id) ? await this.files.getFileRecord(id) : null;
    // A file of another key answers exactly like a missing one: existence is not revealed.
    if (!record || record.apiKeyId !== principal.keyId) throw new ApiError('NOT_FOUND');
    return record;
  }
}
