import type { FileStatus as DbFileStatus, KeyMode as DbKeyMode } from './generated/prisma/enums';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { FileRecordModel as FileRow } from './generated/prisma/models';
import {
  DECLARANTS,
  FILE_TYPES,
  type Declarant,
  type FileStatus,
  type FileType,
  type KeyMode,
  type Lang,
} from '@ppfile/contract';
import type { Db } from './ledger';

export type { FileStatus };

export interface FileRecord {
  id: string;
  organizationId: string;
  apiKeyId: string;
  mode: KeyMode;
  status: FileStatus;
  type: FileType;
  declarant: Declarant;
  specVersion: string;
  filename: string;
  /** Null while processing. */
  sha256: string | null;
  rows: number;
  declarations: number;
  stored: boolean;
  objectKey: string | null;
  /** A queued file's sealed request body in the object store, until its job ends (API.md §8). */
  payloadKey: string | null;
  /** Units counted for the file. */
  units: number;
  createdAt: Date;
  expiresAt: Date | null;
  /** For `failed`: the HTTP error body the request would have had. */
  error: unknown;
  /** What the generate response says beyond the record (warnings, normalizations); null while processing. */
  outcome: unknown;
  /** Language and request id of the accepting request (the error body of a failure is worded in it). */
  lang: Lang;
  requestId: string;
  /** When the work was accepted: the processing lease runs from here. */
  progressAt: Date;
}

/** A record as it is born (libs/jobs FileLifecycle writes it, naming its birth state). */
export interface NewFileRecord {
  id: string;
  organizationId: string;
  apiKeyId: string;
  mode: KeyMode;
  type: FileType;
  declarant: Declarant;
  specVersion: string;
  filename: string;
  sha256?: string | null;
  rows: number;
  declarations: number;
  stored: boolean;
  objectKey?: string | null;
  payloadKey?: string | null;
  units: number;
  createdAt?: Date;
  expiresAt?: Date | null;
  error?: Prisma.InputJsonValue | null;
  outcome?: Prisma.InputJsonValue | null;
  lang?: Lang;
  requestId?: string;
}

/** The database's spelling of the vocabulary (Prisma enums are upper case); one place converts it. */
export const dbFileStatus = (status: FileStatus): DbFileStatus => status.toUpperCase() as DbFileStatus;
export const dbKeyMode = (mode: KeyMode): DbKeyMode => (mode === 'live' ? 'LIVE' : 'TEST');
const fromDbStatus = (status: DbFileStatus): FileStatus => status.toLowerCase() as FileStatus;

/**
 * A row as the vocabulary says it. `type`, `declarant` and `lang` are text columns written only
 * from the vocabulary's values; a row holding anything else is refused here, once, not narrowed later.
 */
export function fileRecordOf(row: FileRow): FileRecord {
  const { type, declarant, lang } = row;
  if (!FILE_TYPES.includes(type as FileType) || !DECLARANTS.includes(declarant as Declarant))
    throw new Error(`file record ${row.id} holds an unknown type or declarant`);
  return {
    ...row,
    type: type as FileType,
    declarant: declarant as Declarant,
    lang: lang === 'fr' ? 'fr' : 'en',
    mode: row.mode === 'LIVE' ? 'live' : 'test',
    status: fromDbStatus(row.status),
  };
}

/**
 * File records, read. A record's state, units and payload are written by libs/jobs FileLifecycle
 * alone (its transition table is libs/contract FILE_TRANSITIONS); this store only reads them.
 */
export class FileStore {
  constructor(private readonly prisma: PrismaClient) {}

  async getFileRecord(id: string, db: Db = this.prisma): Promise<FileRecord | null> {
    const row = await db.fileRecord.findUnique({ where: { id } });
    return row ? fileRecordOf(row) : null;
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
    return rows.map(fileRecordOf);
  }

  /** Which of these files exist, and their state: the reconciler's view of the payload objects it finds. */
  async statusesOf(ids: readonly string[]): Promise<Map<string, FileStatus>> {
    if (ids.length === 0) return new Map();
    const rows = await this.prisma.fileRecord.findMany({
      where: { id: { in: [...ids] } },
      select: { id: true, status: true },
    });
    return new Map(rows.map((r) => [r.id, fromDbStatus(r.status)]));
  }

  /** Failed or expired files whose object may still exist (its deletion failed or was interrupted). */
  async listWithStaleObject(limit: number): Promise<FileRecord[]> {
    const rows = await this.prisma.fileRecord.findMany({
      where: { status: { in: ['FAILED', 'EXPIRED'] }, objectKey: { not: null } },
      take: limit,
    });
    return rows.map(fileRecordOf);
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
    return { files: rows.map(fileRecordOf), total };
  }

  /** Available files whose retention ended at `now`, oldest first (index files_status_expires_at_idx). */
  async listExpired(now: Date, limit: number): Promise<FileRecord[]> {
    const rows = await this.prisma.fileRecord.findMany({
      where: { status: 'AVAILABLE', expiresAt: { lte: now } },
      orderBy: { expiresAt: 'asc' },
      take: limit,
    });
    return rows.map(fileRecordOf);
  }
}
