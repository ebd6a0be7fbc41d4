import type { FileStatus as DbFileStatus, KeyMode as DbKeyMode } from './generated/prisma/enums';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { FileRecordModel as FileRow } from './generated/prisma/models';
import { newFileId } from '@ppfile/contract';
import type { KeyMode } from './api-keys';
import type { Db } from './ledger';

/** `status` as GET /v1/files/{id} writes it (API.md §7). */
import type { FileStatus } from '@ppfile/contract';
export type { FileStatus };

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
  /** What the generate response says beyond the record (warnings, normalizations); null while processing. */
  outcome: unknown;
  /** Language and request id of the accepting request (the error body of a failure is worded in it). */
  lang: string;
  requestId: string;
  /** When the work was accepted: the processing lease runs from here. */
  progressAt: Date;
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
  outcome?: Prisma.InputJsonValue | null;
  lang?: string;
  requestId?: string;
}

/** What the end of a generation knows of its file. */
export interface FileResult {
  sha256: string;
  units: number;
  rows?: number;
  declarations?: number;
  outcome?: Prisma.InputJsonValue;
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

  async createFileRecord(input: NewFileRecord, db: Db = this.prisma): Promise<FileRecord> {
    const { error, outcome, ...rest } = input;
    const createdAt = input.createdAt ?? this.clock();
    const row = await db.fileRecord.create({
      data: {
        ...rest,
        id: input.id ?? newFileId(),
        mode: toDbMode(input.mode),
        status: toDbStatus(input.status),
        createdAt,
        progressAt: createdAt,
        ...(error === undefined || error === null ? {} : { error }),
        ...(outcome === undefined || outcome === null ? {} : { outcome }),
      },
    });
    return fromRow(row);
  }

  async getFileRecord(id: string, db: Db = this.prisma): Promise<FileRecord | null> {
    const row = await db.fileRecord.findUnique({ where: { id } });
    return row ? fromRow(row) : null;
  }

  /** processing → available: stored under `objectKey` until `expiresAt`. */
  async markAvailable(
    id: string,
    file: FileResult & { objectKey: string; expiresAt: Date },
    db: Db = this.prisma,
  ): Promise<boolean> {
    const { count } = await db.fileRecord.updateMany({
      where: { id, status: 'PROCESSING' },
      data: { ...file, status: 'AVAILABLE', stored: true },
    });
    return count === 1;
  }

  /** processing → failed, counting nothing; `error` is the HTTP error body (API.md §6). */
  async markFailed(id: string, error: Prisma.InputJsonValue, db: Db = this.prisma): Promise<boolean> {
    const { count } = await db.fileRecord.updateMany({
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

  /** How many records are in each state (`processing`, `available`, …), for the metrics gauge. */
  async countByStatus(): Promise<Record<string, number>> {
    const groups = await this.prisma.fileRecord.groupBy({ by: ['status'], _count: { _all: true } });
    return Object.fromEntries(groups.map((g) => [fromDbStatus(g.status), g._count._all]));
  }

  /** Processing files, least recently alive first (index files_status_progress_at_idx). */
  async listProcessing(limit: number, aliveBefore?: Date): Promise<FileRecord[]> {
    const rows = await this.prisma.fileRecord.findMany({
      where: { status: 'PROCESSING', ...(aliveBefore ? { progressAt: { lt: aliveBefore } } : {}) },
      orderBy: { progressAt: 'asc' },
      take: limit,
    });
    return rows.map(fromRow);
  }

  /** Failed or expired files whose object may still exist (its deletion failed or was interrupted). */
  async listWithStaleObject(limit: number): Promise<FileRecord[]> {
    const rows = await this.prisma.fileRecord.findMany({
      where: { status: { in: ['FAILED', 'EXPIRED'] }, objectKey: { not: null } },
      take: limit,
    });
    return rows.map(fromRow);
  }

  /** Forgets the object key of a failed or expired file once its object is deleted. */
  async clearObjectKey(id: string): Promise<void> {
    await this.prisma.fileRecord.updateMany({
      where: { id, status: { in: ['FAILED', 'EXPIRED'] } },
      data: { objectKey: null },
    });
  }

  /**
   * One page of an organization's files, newest first (index files_organization_id_created_at_idx),
   * and how many it has: the dashboard's list. `page` counts from 1.
   */
  async listForOrganization(
    organizationId: string,
    page: { page: number; perPage: number },
  ): Promise<{ files: FileRecord[]; total: number }> {
    const perPage = Math.max(1, Math.min(200, Math.floor(page.perPage)));
    const skip = (Math.max(1, Math.floor(page.page)) - 1) * perPage;
    const [rows, total] = await Promise.all([
      this.prisma.fileRecord.findMany({
        where: { organizationId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        skip,
        take: perPage,
      }),
      this.prisma.fileRecord.count({ where: { organizationId } }),
    ]);
    return { files: rows.map(fromRow), total };
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
