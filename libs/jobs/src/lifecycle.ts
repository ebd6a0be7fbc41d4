import type { ErrorBody, FileSummary } from '@ppfile/contract';
import type { CommittedUnits, FileRecord, NewFileRecord, Prisma, Stores } from '@ppfile/db';
import type { GeneratedFile, Issue, Normalization } from '@ppfile/rules';
import type { ObjectStorage } from '@ppfile/storage';
import type { PayloadCipher } from './payload-cipher';

export const objectKeyOf = (fileId: string): string => `files/${fileId}.csv`;
const CSV_TYPE = 'text/csv; charset=utf-8';

/** What a file record keeps of the generate response beyond its columns (no personal value in it). */
export interface FileOutcome {
  warning_count: number;
  warnings: Issue[];
  normalization_count: number;
  normalizations: Normalization[];
}

export function outcomeOf(file: GeneratedFile): FileOutcome {
  return {
    warning_count: file.warning_count,
    warnings: file.warnings,
    normalization_count: file.normalization_count,
    normalizations: file.normalizations,
  };
}

/** The generate response's view of a finished record (API.md §2.3), as a waiting request answers it. */
export function summaryOfRecord(record: FileRecord): FileSummary {
  const outcome = (record.outcome ?? {}) as Partial<FileOutcome>;
  return {
    spec_version: record.specVersion,
    rows: record.rows,
    declarations: record.declarations,
    filename: record.filename,
    sha256: record.sha256 ?? '',
    warning_count: outcome.warning_count ?? 0,
    warnings: outcome.warnings ?? [],
    normalization_count: outcome.normalization_count ?? 0,
    normalizations: outcome.normalizations ?? [],
  };
}

export interface FileLifecycleDeps {
  stores: Stores;
  storage: ObjectStorage;
  cipher: PayloadCipher;
  now: () => Date;
  /** Told once per reservation committed, after its transaction (the process's units metric). */
  onCommitted?: (committed: CommittedUnits) => void;
}

/**
 * A generated file's lifecycle, in one place for the gateway's in-process path and the worker:
 * `processing → available | failed → expired`. The record, with its object key, is written before
 * any object is; the object is written before the record says `available`; a failure deletes the
 * record's object after the record says `failed`. Every transition is conditional (libs/db
 * LifecycleStore), so a step run twice changes nothing, and units are committed or released once.
 */
export class FileLifecycle {
  constructor(private readonly deps: FileLifecycleDeps) {}

  /**
   * Accepts a file: its processing record (object key named), its reservation linked and, for a
   * queued generation, its request body sealed — one transaction.
   */
  async open(input: {
    record: Omit<NewFileRecord, 'status' | 'objectKey'> & { id: string };
    reservationId: string | null;
    body?: Buffer;
  }): Promise<FileRecord> {
    const { record, reservationId, body } = input;
    const sealed = body ? this.deps.cipher.seal(record.id, body) : null;
    const objectKey = record.stored ? objectKeyOf(record.id) : null;
    return this.deps.stores.lifecycle.open(
      { ...record, status: 'processing', objectKey },
      reservationId,
      sealed,
    );
  }

  /** A `store: false` file: recorded finished, its units committed (its bytes go back in the answer only). */
  async recordNotStored(input: {
    record: Omit<NewFileRecord, 'status'> & { id: string };
    reservationId: string | null;
    file: GeneratedFile;
  }): Promise<FileRecord> {
    const { record, reservationId, file } = input;
    const done = await this.deps.stores.lifecycle.recordNotStored(
      {
        ...record,
        status: 'not_stored',
        sha256: file.sha256,
        rows: file.rows,
        declarations: file.declarations,
        objectKey: null,
        expiresAt: null,
        outcome: outcomeOf(file) as unknown as Prisma.InputJsonValue,
      },
      reservationId,
    );
    if (done.committed) this.deps.onCommitted?.(done.committed);
    return done.record;
  }

  /**
   * Stores a processing file's bytes and marks it available (units committed, payload deleted).
   * Safe to run twice: the object key is fixed and the transition conditional. Returns the record
   * as it ends (available, or whatever another run made of it).
   */
  async store(record: FileRecord, file: GeneratedFile, retentionHours: number): Promise<FileRecord> {
    if (record.status !== 'processing' || !record.objectKey) return record;
    await this.deps.storage.put(record.objectKey, file.content, CSV_TYPE);
    const expiresAt = new Date(this.deps.now().getTime() + retentionHours * 3600_000);
    const done = await this.deps.stores.lifecycle.finishAvailable(record.id, {
      sha256: file.sha256,
      units: record.units,
      rows: file.rows,
      declarations: file.declarations,
      objectKey: record.objectKey,
      expiresAt,
      outcome: outcomeOf(file) as unknown as Prisma.InputJsonValue,
    });
    if (done?.committed) this.deps.onCommitted?.(done.committed);
    const final = (await this.deps.stores.files.getFileRecord(record.id)) ?? record;
    // The record failed meanwhile (its lease ran out): leave no object behind it.
    if (!done && final.status !== 'available') await this.removeObject(final);
    return final;
  }

  /**
   * Ends a processing file `failed` with the error body its request would have had (API.md §7): its
   * units released, its payload and its object deleted. Only the call that makes the transition
   * does so; false for a file that was no longer processing.
   */
  async fail(fileId: string, error: ErrorBody): Promise<boolean> {
    const failed = await this.deps.stores.lifecycle.fail(fileId, error as unknown as Prisma.InputJsonValue);
    if (!failed) return false;
    await this.removeObject(failed);
    return true;
  }

  /** The sealed request body of a queued generation, in clear; null when it is gone. */
  async readBody(fileId: string): Promise<Buffer | null> {
    const sealed = await this.deps.stores.payloads.get(fileId);
    return sealed ? this.deps.cipher.open(fileId, sealed) : null;
  }

  /**
   * Deletes the object of a failed or expired record and forgets its key; if the object store is
   * down the key stays, and the reconciler deletes it later (no object outlives its record).
   */
  async removeObject(record: FileRecord): Promise<void> {
    if (!record.objectKey) return;
    try {
      await this.deps.storage.remove(record.objectKey);
    } catch {
      return;
    }
    await this.deps.stores.files.clearObjectKey(record.id);
  }

  /** Deletes expired objects and marks their records expired (SERVICE.md §3); safe to run twice. */
  async sweepExpired(limit = 200): Promise<number> {
    const now = this.deps.now();
    let done = 0;
    for (const record of await this.deps.stores.files.listExpired(now, limit)) {
      if (await this.deps.stores.files.markExpired(record.id)) done++;
      await this.removeObject({ ...record, status: 'expired' });
    }
    await this.deps.stores.idempotency.purgeExpired(now);
    return done;
  }
}
