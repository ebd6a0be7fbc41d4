import type { FileStatus as DbFileStatus, KeyMode as DbKeyMode } from './generated/prisma/enums';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { FileRecordModel as FileRow } from './generated/prisma/models';
import { newFileId } from './ids';
import type { KeyMode } from './api-keys';

/** `status` as GET /v1/files/{id} writes it (API.md §7). */
export type FileStatus = 'processing' | 'available' | 'not_stored' | 'expired' | 'failed';

export interface FileRecord {
  id: string;
  organizationId: string;
  apiKeyId: string;
  mode: KeyMode;
  status: FileStatus;
  type: string;
  declarant: string;
  specVersion: string;
  filename: string;
  /** Null while processing. */
  sha256: string | null;
  rows: number;
  declarations: number;
  stored: boolean;
  objectKey: string | null;
  /** Units counted for the file. */
  units: number;
  createdAt: Date;
  expiresAt: Date | null;
  /** For `failed`: the HTTP error body the request would have had. */
  error: unknown;
}

export interface NewFileRecord {
  /** Defaults to a fresh `file_` id; pass one when the object key must be known beforehand. */
  id?: string;
  organizationId: string;
  apiKeyId: string;
  mode: KeyMode;
  status: FileStatus;
  type: string;
  declarant: string;
  specVersion: string;
  filename: string;
  sha256?: string | null;
  rows: number;
  declarations: number;
  stored: boolean;
  objectKey?: string | null;
  units: number;
  createdAt?: Date;
  expiresAt?: Date | null;
  error?: Prisma.InputJsonValue | null;
}

/** What the end of an asynchronous generation knows. */
export interface GeneratedFile {
  sha256: string;
  units: number;
  rows?: number;
  declarations?: number;
}

const toDbStatus = (status: FileStatus): DbFileStatus => status.toUpperCase() as DbFileStatus;
const fromDbStatus = (status: DbFileStatus): FileStatus => status.toLowerCase() as FileStatus;
const toDbMode = (mode: KeyMode): DbKeyMode => (mode === 'live' ? 'LIVE' : 'TEST');

function fromRow(row: FileRow): FileRecord {
  return { ...row, mode: row.mode === 'LIVE' ? 'live' : 'test', status: fromDbStatus(row.status) };
}

/**
 * File records. Transitions are conditional on the current state so that a job run twice, or a
 * sweep racing a download, changes a record once; each `mark…` says whether this call did it.
 */
export class FileStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async createFileRecord(input: NewFileRecord): Promise<FileRecord> {
    const { error, ...rest } = input;
    const row = await this.prisma.fileRecord.create({
      data: {
        ...rest,
        id: input.id ?? newFileId(),
        mode: toDbMode(input.mode),
        status: toDbStatus(input.status),
        createdAt: input.createdAt ?? this.clock(),
        ...(error === undefined || error === null ? {} : { error }),
      },
    });
    return fromRow(row);
  }

  async getFileRecord(id: string): Promise<FileRecord | null> {
    const row = await this.prisma.fileRecord.findUnique({ where: { id } });
    return row ? fromRow(row) : null;
  }

  /** processing → available: stored under `objectKey` until `expiresAt`. */
  async markAvailable(
    id: string,
    file: GeneratedFile & { objectKey: string; expiresAt: Date },
  ): Promise<boolean> {
    const { count } = await this.prisma.fileRecord.updateMany({
      where: { id, status: 'PROCESSING' },
      data: { ...file, status: 'AVAILABLE', stored: true },
    });
    return count === 1;
  }

  /** processing → not_stored: generated with `store: false`, metadata only. */
  async markNotStored(id: string, file: GeneratedFile): Promise<boolean> {
    const { count } = await this.prisma.fileRecord.updateMany({
      where: { id, status: 'PROCESSING' },
      data: { ...file, status: 'NOT_STORED', stored: false, objectKey: null, expiresAt: null },
    });
    return count === 1;
  }

  /** processing → failed, counting nothing; `error` is the HTTP error body (API.md §6). */
  async markFailed(id: string, error: Prisma.InputJsonValue): Promise<boolean> {
    const { count } = await this.prisma.fileRecord.updateMany({
      where: { id, status: 'PROCESSING' },
      data: { status: 'FAILED', error, units: 0 },
    });
    return count === 1;
  }

  /** available → expired, once its object is deleted (SERVICE.md §3). */
  async markExpired(id: string): Promise<boolean> {
    const { count } = await this.prisma.fileRecord.updateMany({
      where: { id, status: 'AVAILABLE' },
      data: { status: 'EXPIRED' },
    });
    return count === 1;
  }

  /** Available files whose retention ended at `now`, oldest first (index files_status_expires_at_idx). */
  async listExpired(now: Date, limit: number): Promise<FileRecord[]> {
    const rows = await this.prisma.fileRecord.findMany({
      where: { status: 'AVAILABLE', expiresAt: { lte: now } },
      orderBy: { expiresAt: 'asc' },
      take: limit,
    });
    return rows.map(fromRow);
  }
}
