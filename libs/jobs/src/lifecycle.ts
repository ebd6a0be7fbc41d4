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
  type SealedPayload,
  type Stores,
} from '@ppfile/db';
import type { GeneratedFile, Issue, Normalization } from '@ppfile/rules';
import type { ObjectStorage } from '@ppfile/storage';
import type { PayloadCipher } from './payload-cipher';

export const objectKeyOf = (fileId: string): string => `files/${fileId}.csv`;
/** Where a queued generation's sealed request body waits for its worker (API.md §8). */
export const PAYLOAD_PREFIX = 'payloads/generate/';
export const payloadKeyOf = (fileId: string): string => `${PAYLOAD_PREFIX}${fileId}`;
const CSV_TYPE = 'text/csv; charset=utf-8';
const SEALED_TYPE = 'application/octet-stream';
/** A payload object: this format byte, the 12-byte nonce, then the ciphertext and its 16-byte tag. */
const SEALED_FORMAT = 1;

function packSealed(sealed: SealedPayload): Buffer {
  return Buffer.concat([Buffer.of(SEALED_FORMAT), sealed.nonce, sealed.ciphertext]);
}

function unpackSealed(fileId: string, bytes: Buffer): SealedPayload {
  if (bytes.length < 1 + 12 + 16 || bytes[0] !== SEALED_FORMAT)
    throw new Error(`the payload object of ${fileId} is not a sealed body`);
  return { nonce: bytes.subarray(1, 13), ciphertext: bytes.subarray(13) };
}

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
 * and its sealed payload. Its moves are libs/contract's FILE_TRANSITIONS (`processing → available | failed`,
 * `available → expired`; `not_stored` is born finished); each is one transaction that moves the
 * record, its units and its payload together, conditional on the state it leaves, so a move made
 * twice (a job retried, a sweep racing a worker, several reconcilers) happens once and units are
 * committed or released once. Against the object store: a queued file's sealed body is written
 * before its record exists and deleted after the move that ends the file (the reconciler deletes
 * what a crash left); the record with its object key exists before any object does, the object
 * before the record says `available`, and a failed or expired record's object is deleted after the
 * record says so. The gateway, the processors and the
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
   * Accepts a file, `processing`: for a queued generation its request body sealed into the object
   * store first (under payloadKeyOf), then in one transaction its record (object and payload keys
   * named), its reservation linked and its request's idempotency claim pointed at it. A transaction
   * that fails takes the sealed body back; a crash between the two leaves an object with no record,
   * which the reconciler deletes once it is older than the processing lease.
   */
  async open(input: {
    record: AcceptedFile;
    reservationId: string | null;
    body?: Buffer;
    claim?: ClaimRef | null;
  }): Promise<FileRecord> {
    const { record, reservationId, body, claim } = input;
    const objectKey = record.stored ? objectKeyOf(record.id) : null;
    const payloadKey = body ? payloadKeyOf(record.id) : null;
    if (body && payloadKey)
      await this.deps.storage.put(
        payloadKey,
        packSealed(this.deps.cipher.seal(record.id, body)),
        SEALED_TYPE,
      );
    try {
      return await this.prisma.$transaction(async (tx) => {
        const created = await this.create(tx, { ...record, objectKey, payloadKey }, 'processing');
        if (reservationId) await this.deps.stores.ledger.attachFile(reservationId, record.id, tx);
        if (claim) await this.deps.stores.idempotency.attachFile(claim.apiKeyId, claim.key, record.id, tx);
        return created;
      });
    } catch (e) {
      if (payloadKey) await this.removePayload(payloadKey);
      throw e;
    }
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
   * payload key cleared), then deletes the sealed body. Safe to run twice: the object key is fixed and the move conditional. Returns
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
          payloadKey: null,
          outcome: outcomeOf(file) as unknown as Prisma.InputJsonValue,
        },
      );
      if (!moved) return null;
      const units = await this.deps.stores.ledger.commit({ fileId: record.id }, undefined, tx);
      await tx.jobPayload.deleteMany({ where: { fileId: record.id } });
      return { units };
    });
    if (committed?.units) this.deps.onCommitted?.(committed.units);
    if (committed && current.payloadKey) await this.removePayload(current.payloadKey);
    const final = (await this.deps.stores.files.getFileRecord(record.id)) ?? record;
    // The record failed meanwhile (its lease ran out): leave no object behind it — the one just
    // written, even when the failure had already forgotten the record's key.
    if (!committed && final.status !== 'available')
      await this.removeObject({ ...final, objectKey: record.objectKey });
    return final;
  }

  /**
   * processing → failed, with the error body its request would have had (API.md §7): its units
   * released, its payload key cleared, then its sealed body and its object deleted. Only the call that makes the move does so; false
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
          payloadKey: null,
        },
      );
      if (!moved) return null;
      await this.deps.stores.ledger.release({ fileId }, tx);
      await tx.jobPayload.deleteMany({ where: { fileId } });
      return this.deps.stores.files.getFileRecord(fileId, tx);
    });
    if (!failed) return false;
    // The key is cleared with the move: the body's object is named from the id (deleting none is no error).
    await this.removePayload(payloadKeyOf(fileId));
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

  /**
   * The sealed request body of a queued generation, in clear; null when it is gone. From the object
   * store, or from PostgreSQL for a job accepted before the bodies moved there. A store that is
   * down throws (the job is retried).
   */
  async readBody(record: Pick<FileRecord, 'id' | 'payloadKey'>): Promise<Buffer | null> {
    if (record.payloadKey) {
      const bytes = await this.deps.storage.getIfExists(record.payloadKey);
      return bytes ? this.deps.cipher.open(record.id, unpackSealed(record.id, bytes)) : null;
    }
    const legacy = await this.deps.stores.payloads.get(record.id);
    return legacy ? this.deps.cipher.open(record.id, legacy) : null;
  }

  /**
   * Whether a processing file was queued with its body, so its job can be re-created: its payload
   * key says so (no I/O), or a legacy row in PostgreSQL. A file generated in a gateway has neither.
   */
  async hasBody(record: Pick<FileRecord, 'id' | 'payloadKey'>): Promise<boolean> {
    return record.payloadKey !== null || (await this.deps.stores.payloads.exists(record.id));
  }

  /** Deletes a sealed body; if the store is down it stays, and the reconciler deletes it later. */
  private async removePayload(key: string): Promise<void> {
    await this.deps.storage.remove(key).catch(() => undefined);
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

  /**
   * Reconciliation: sealed bodies no job will read — an object under PAYLOAD_PREFIX whose file is no
   * longer processing (its deletion failed after the move) or, once older than `orphanedBefore`,
   * whose file was never accepted (a crash between the write and the transaction); and legacy rows
   * in PostgreSQL of finished files.
   */
  async removeLeftOverPayloads(limit: number, orphanedBefore: Date): Promise<number> {
    const objects = await this.deps.storage.list(PAYLOAD_PREFIX);
    let removed = 0;
    // A page of records at a time: a backlog of queued files is as many objects, all still wanted.
    for (let at = 0; at < objects.length && removed < limit; at += 500) {
      const page = objects
        .slice(at, at + 500)
        .map((o) => ({ ...o, fileId: o.key.slice(PAYLOAD_PREFIX.length) }));
      const statuses = await this.deps.stores.files.statusesOf(page.map((o) => o.fileId));
      for (const object of page) {
        const status = statuses.get(object.fileId);
        if (status === 'processing' || (status === undefined && object.lastModified >= orphanedBefore))
          continue;
        await this.deps.storage.remove(object.key);
        if (++removed >= limit) break;
      }
    }
    const fileIds = await this.deps.stores.payloads.listLeftOver(limit);
    if (fileIds.length === 0) return removed;
    const { count } = await this.prisma.jobPayload.deleteMany({
      where: { fileId: { in: fileIds }, file: { status: { not: dbFileStatus('processing') } } },
    });
    return removed + count;
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
