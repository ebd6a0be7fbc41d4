import {
  CURRENT_LIMITS,
  DECLARANTS,
  FILE_TYPES,
  type Declarant,
  type FileType,
  type Lang,
} from '@ppfile/rules';

/** The words a file record is made of, one vocabulary for the stores, the jobs and the apps. */
export { DECLARANTS, FILE_TYPES };
export type { Declarant, FileType, Lang };

/** The states of a generated file (API.md §7), in the order a file goes through them. */
export const FILE_STATUSES = ['processing', 'available', 'not_stored', 'expired', 'failed'] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** Whose units a request counts: a live key's against the plan's quota, a test key's against its rows allowance. */
export const KEY_MODES = ['live', 'test'] as const;
export type KeyMode = (typeof KEY_MODES)[number];

/**
 * A file's lifecycle (API.md §7): the states a file is born in and the moves between them. Every
 * write of a file's state is one of these moves (libs/jobs FileLifecycle, the only writer), made
 * conditional on the state it leaves, so a move made twice happens once.
 *
 * - processing → available: its object stored, its units committed, its payload deleted;
 * - processing → failed: its units released, its payload and object deleted;
 * - available → expired: its retention over, its object deleted (SERVICE.md §3).
 * A `store: false` file is born `not_stored` and never moves.
 */
export const FILE_BIRTH_STATES = ['processing', 'not_stored'] as const satisfies readonly FileStatus[];
export const FILE_TRANSITIONS = {
  processing: ['available', 'failed'],
  available: ['expired'],
  not_stored: [],
  failed: [],
  expired: [],
} as const satisfies Record<FileStatus, readonly FileStatus[]>;

export type FileBirthState = (typeof FILE_BIRTH_STATES)[number];
/** A move the table allows, as a `from → to` pair the compiler checks. */
export type FileTransition = {
  [F in FileStatus]: { from: F; to: (typeof FILE_TRANSITIONS)[F][number] };
}[FileStatus];

export function isFileTransition(from: FileStatus, to: FileStatus): boolean {
  return (FILE_TRANSITIONS[from] as readonly FileStatus[]).includes(to);
}

/** What a file's record says of its state (libs/db FileRecord has these fields and more). */
export interface FileState {
  status: FileStatus;
  stored: boolean;
  objectKey: string | null;
  createdAt: Date;
  expiresAt: Date | null;
}

/** Expired: swept already, or stored and past its retention (the sweep may not have run yet). */
export function isExpired(record: FileState, now: Date): boolean {
  return (
    record.status === 'expired' ||
    (record.status === 'available' && !!record.expiresAt && record.expiresAt <= now)
  );
}

export type DownloadState =
  | { kind: 'not_stored' }
  | { kind: 'processing' }
  | { kind: 'failed' }
  | { kind: 'expired'; retentionHours: number }
  | { kind: 'available'; objectKey: string };

/** What a download of this record answers, by its state (a pure function, unit-tested for each). */
export function downloadState(record: FileState, now: Date): DownloadState {
  if (!record.stored || record.status === 'not_stored') return { kind: 'not_stored' };
  if (record.status === 'processing') return { kind: 'processing' };
  if (record.status === 'failed') return { kind: 'failed' };
  if (isExpired(record, now) || !record.objectKey) {
    const retentionHours = record.expiresAt
      ? Math.round((record.expiresAt.getTime() - record.createdAt.getTime()) / 3600_000)
      : CURRENT_LIMITS.maxRetentionHours;
    return { kind: 'expired', retentionHours };
  }
  return { kind: 'available', objectKey: record.objectKey };
}
