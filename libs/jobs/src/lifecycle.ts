import {
  isFileTransition,
  type ErrorBody,
  type FileBirthState,
  type FileSummary,
  type FileTransition,
} from '@ppfile/contract';
import {
  dbFileStatus,
  dbKeyMode,
  fileRecordOf,
  type CommittedUnits,
  type Db,
  type FileRecord,
  type NewFileRecord,
  type Prisma,
  type PrismaClient,
  type Stores,
} from '@ppfile/db';
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
  prisma: PrismaClient;
  stores: Stores;
  storage: ObjectStorage;
  cipher: PayloadCipher;
  now: () => Date;
  /** Told once per reservation committed, after its transaction (the process's units metric). */
  onCommitted?: (committed: CommittedUnits) => void;
}

/** The record of a file as it is accepted, before the lifecycle names its state and object key. */
export type AcceptedFile = Omit<NewFileRecord, 'objectKey'>;

/** The idempotency claim of the accepting request: a retry after a crash is answered from this file. */
export interface ClaimRef {
  apiKeyId: string;
  key: string;
}

/**
 * A generated file's lifecycle (API.md §7) — the only code that writes a file's state, its units
 * and its payload. Its moves are libs/contract's FILE_TRANSITIONS (`processing → available | failed`,
 * `available → expired`; `not_stored` is born finished); each is one transaction that moves the
 * record, its units and its payload together, conditional on the state it leaves, so a move made
 * twice (a job retried, a sweep racing a worker, several reconcilers) happens once and units are
 * committed or released once. Against the object store: the record with its object key exists
 * before any object does, the object before the record says `available`, and a failed or expired
 * record's object is deleted after the record says so. The gateway, the processors and the
 * reconciler call this and nothing else to change a file.
 */
export class FileLifecycle {
  constructor(private readonly deps: FileLifecycleDeps) {}

  /**
   * Whether a processing file has outlived its lease (PROCESSING_LEASE_SECONDS, API.md §8): no
   * progress for that long. Within it the file is still someone's work (a job retrying, a gateway
   * generating in process) and only its job is re-created; past it the file may be failed. The one
   * rule the generate job's last failure, the reconciler and the invariant check all apply.
   */
  static outlivedLease(record: Pick<FileRecord, 'progressAt'>, now: Date, leaseSeconds: number): boolean {
    return now.getTime() - record.progressAt.getTime() >= leaseSeconds * 1000;
  }

  private get prisma(): PrismaClient {
    return this.deps.prisma;
  }

  /**
   * Accepts a file, `processing`: its record (object key named), its reservation linked, its
   * request's idempotency claim pointed at it and, for a queued generation, its request body
   * sealed — one transaction.
   */
  async open(input: {
    record: AcceptedFile;
    reservationId: string | null;
    body?: Buffer;
    claim?: ClaimRef | null;
  }): Promise<FileRecord> {
    const { record, reservationId, body, claim } = input;
    const sealed = body ? this.deps.cipher.seal(record.id, body) : null;
    const objectKey = record.stored ? objectKeyOf(record.id) : null;
    return this.prisma.$transaction(async (tx) => {
      const created = await this.create(tx, { ...record, objectKey }, 'processing');
      if (reservationId) await this.deps.stores.ledger.attachFile(reservationId, record.id, tx);
      if (claim) await this.deps.stores.idempotency.attachFile(claim.apiKeyId, claim.key, record.id, tx);
      if (sealed)
        await tx.jobPayload.create({
          data: {
            fileId: record.id,
            nonce: new Uint8Array(sealed.nonce),
            ciphertext: new Uint8Array(sealed.ciphertext),
          },
        });
      return created;
    });
  }

  /** A `store: false` file: born `not_stored`, its units committed (its bytes go back in the answer only). */
  async recordNotStored(input: {
    record: AcceptedFile;
    reservationId: string | null;
    file: GeneratedFile;
    claim?: ClaimRef | null;
  }): Promise<FileRecord> {
    const { record, reservationId, file, claim } = input;
    const done = await this.prisma.$transaction(async (tx) => {
      const created = await this.create(
        tx,
        {
          ...record,
          sha256: file.sha256,
          rows: file.rows,
          declarations: file.declarations,
          objectKey: null,
          expiresAt: null,
          outcome: outcomeOf(file) as unknown as Prisma.InputJsonValue,
        },
        'not_stored',
      );
      if (claim) await this.deps.stores.idempotency.attachFile(claim.apiKeyId, claim.key, record.id, tx);
      let committed: CommittedUnits | null = null;
      if (reservationId) {
        await this.deps.stores.ledger.attachFile(reservationId, record.id, tx);
        committed = await this.deps.stores.ledger.commit({ reservationId }, undefined, tx);
      }
      return { record: created, committed };
    });
    if (done.committed) this.deps.onCommitted?.(done.committed);
    return done.record;
  }

  /**
   * processing → available: stores the file's bytes, then moves the record (units committed,
   * payload deleted). Safe to run twice: the object key is fixed and the move conditional. Returns
   * the record as it ends (available, or whatever another run made of it).
   */
  async store(record: FileRecord, file: GeneratedFile, retentionHours: number): Promise<FileRecord> {
    if (record.status !== 'processing' || !record.objectKey) return record;
    // A stale copy of a record another run has finished writes no object over the finished one's.
    const current = await this.deps.stores.files.getFileRecord(record.id);
    if (current?.status !== 'processing') return current ?? record;
    await this.deps.storage.put(record.objectKey, file.content, CSV_TYPE);
    const expiresAt = new Date(this.deps.now().getTime() + retentionHours * 3600_000);
    const committed = await this.prisma.$transaction(async (tx) => {
      const moved = await this.move(
        tx,
        record.id,
        { from: 'processing', to: 'available' },
        {
          sha256: file.sha256,
          rows: file.rows,
          declarations: file.declarations,
          objectKey: record.objectKey,
          expiresAt,
          stored: true,
          outcome: outcomeOf(file) as unknown as Prisma.InputJsonValue,
        },
      );
      if (!moved) return null;
      const units = await this.deps.stores.ledger.commit({ fileId: record.id }, undefined, tx);
      await tx.jobPayload.deleteMany({ where: { fileId: record.id } });
      return { units };
    });
    if (committed?.units) this.deps.onCommitted?.(committed.units);
    const final = (await this.deps.stores.files.getFileRecord(record.id)) ?? record;
    // The record failed meanwhile (its lease ran out): leave no object behind it — the one just
    // written, even when the failure had already forgotten the record's key.
    if (!committed && final.status !== 'available')
      await this.removeObject({ ...final, objectKey: record.objectKey });
    return final;
  }

  /**
   * processing → failed, with the error body its request would have had (API.md §7): its units
   * released, its payload and its object deleted. Only the call that makes the move does so; false
   * for a file that was no longer processing.
   */
  async fail(fileId: string, error: ErrorBody): Promise<boolean> {
    const failed = await this.prisma.$transaction(async (tx) => {
      const moved = await this.move(
        tx,
        fileId,
        { from: 'processing', to: 'failed' },
        {
          error: error as unknown as Prisma.InputJsonValue,
          units: 0,
        },
      );
      if (!moved) return null;
      await this.deps.stores.ledger.release({ fileId }, tx);
      await tx.jobPayload.deleteMany({ where: { fileId } });
      return this.deps.stores.files.getFileRecord(fileId, tx);
    });
    if (!failed) return false;
    await this.removeObject(failed);
    return true;
  }

  /** available → expired for every file whose retention ended, its object deleted (SERVICE.md §3); safe to run twice. */
  async sweepExpired(limit = 200): Promise<number> {
    const now = this.deps.now();
    let done = 0;
    for (const record of await this.deps.stores.files.listExpired(now, limit)) {
      if (await this.move(this.prisma, record.id, { from: 'available', to: 'expired' })) done++;
      await this.removeObject({ ...record, status: 'expired' });
    }
    await this.deps.stores.idempotency.purgeExpired(now);
    return done;
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
    await this.prisma.fileRecord.updateMany({
      where: { id: record.id, status: { in: [dbFileStatus('failed'), dbFileStatus('expired')] } },
      data: { objectKey: null },
    });
  }

  /** Reconciliation: the objects of failed or expired files whose deletion failed or was interrupted. */
  async removeStaleObjects(limit: number): Promise<number> {
    const records = await this.deps.stores.files.listWithStaleObject(limit);
    for (const record of records) await this.removeObject(record);
    return records.length;
  }

  /** Reconciliation: the payloads of files no longer processing (a job that ended between two writes). */
  async removeLeftOverPayloads(limit: number): Promise<number> {
    const fileIds = await this.deps.stores.payloads.listLeftOver(limit);
    if (fileIds.length === 0) return 0;
    const { count } = await this.prisma.jobPayload.deleteMany({
      where: { fileId: { in: fileIds }, file: { status: { not: dbFileStatus('processing') } } },
    });
    return count;
  }

  /**
   * Reconciliation: reservations still held, made before `before`, whose work is gone (no file, or
   * a file no longer processing) give their units back — once, whoever else tries.
   */
  async releaseStaleReservations(before: Date, limit: number): Promise<number> {
    let released = 0;
    for (const stale of await this.deps.stores.ledger.listStale(before, limit)) {
      // Released only if its work is still gone when the statement runs (a file may have been
      // accepted since the list was read); a reservation released first cannot be attached after.
      if (
        await this.deps.stores.ledger.release({ reservationId: stale.id }, undefined, {
          unlessProcessing: true,
        })
      )
        released++;
    }
    return released;
  }

  /** A record born in `state` (a birth state of FILE_BIRTH_STATES). */
  private async create(tx: Db, record: NewFileRecord, state: FileBirthState): Promise<FileRecord> {
    const { error, outcome, ...rest } = record;
    const createdAt = record.createdAt ?? this.deps.now();
    const row = await tx.fileRecord.create({
      data: {
        ...rest,
        mode: dbKeyMode(record.mode),
        status: dbFileStatus(state),
        createdAt,
        progressAt: createdAt,
        ...(error === undefined || error === null ? {} : { error }),
        ...(outcome === undefined || outcome === null ? {} : { outcome }),
      },
    });
    return fileRecordOf(row);
  }

  /** One move of the table, conditional on the state it leaves: whether this call made it. */
  private async move(
    db: Db,
    id: string,
    transition: FileTransition,
    data: Prisma.FileRecordUpdateManyMutationInput = {},
  ): Promise<boolean> {
    if (!isFileTransition(transition.from, transition.to))
      throw new Error(`no move ${transition.from} → ${transition.to} in a file's lifecycle`);
    const { count } = await db.fileRecord.updateMany({
      where: { id, status: dbFileStatus(transition.from) },
      data: { ...data, status: dbFileStatus(transition.to) },
    });
    return count === 1;
  }
}
