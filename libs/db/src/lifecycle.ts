import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { FileRecord, FileResult, FileStore, NewFileRecord } from './files';
import type { CommittedUnits, UnitLedger } from './ledger';
import type { JobPayloadStore, SealedPayload } from './payloads';

/**
 * The database side of a file's lifecycle, `processing → available | not_stored | failed →
 * expired`: each step is one transaction that moves the record, its units and its payload
 * together, conditional on the record's current state, so a step that runs twice (a job retried,
 * a cleanup racing a worker) changes nothing the second time. The order against the object store
 * is libs/jobs' (FileLifecycle): the record with its object key exists before any object does.
 */
export class LifecycleStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly files: FileStore,
    private readonly ledger: UnitLedger,
    private readonly payloads: JobPayloadStore,
  ) {}

  /** A processing record (its object key already named), its reservation linked, its payload sealed. */
  async open(
    record: NewFileRecord & { id: string },
    reservationId: string | null,
    payload: SealedPayload | null,
  ): Promise<FileRecord> {
    return this.prisma.$transaction(async (tx) => {
      const created = await this.files.createFileRecord({ ...record, status: 'processing' }, tx);
      if (reservationId) await this.ledger.attachFile(reservationId, record.id, tx);
      if (payload) await this.payloads.put(record.id, payload, tx);
      return created;
    });
  }

  /**
   * processing → available, its units committed and its payload deleted, at once. Null when the
   * record was no longer processing; else what was committed (null units for an uncounted file).
   */
  async finishAvailable(
    id: string,
    file: FileResult & { objectKey: string; expiresAt: Date },
  ): Promise<{ committed: CommittedUnits | null } | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await this.files.markAvailable(id, file, tx))) return null;
      const committed = await this.ledger.commit({ fileId: id }, undefined, tx);
      await this.payloads.remove(id, tx);
      return { committed };
    });
  }

  /** A `store: false` file: its record is created finished and its units committed, at once. */
  async recordNotStored(
    record: NewFileRecord & { id: string },
    reservationId: string | null,
  ): Promise<{ record: FileRecord; committed: CommittedUnits | null }> {
    return this.prisma.$transaction(async (tx) => {
      const created = await this.files.createFileRecord({ ...record, status: 'not_stored' }, tx);
      let committed: CommittedUnits | null = null;
      if (reservationId) {
        await this.ledger.attachFile(reservationId, record.id, tx);
        committed = await this.ledger.commit({ reservationId }, undefined, tx);
      }
      return { record: created, committed };
    });
  }

  /**
   * processing → failed with the error body the request would have had: its units released and its
   * payload deleted, at once. Returns the record when this call made the transition.
   */
  async fail(id: string, error: Prisma.InputJsonValue): Promise<FileRecord | null> {
    return this.prisma.$transaction(async (tx) => {
      if (!(await this.files.markFailed(id, error, tx))) return null;
      await this.ledger.release({ fileId: id }, tx);
      await this.payloads.remove(id, tx);
      return this.files.getFileRecord(id, tx);
    });
  }
}
