import type { PrismaClient } from './generated/prisma/client';

export interface SealedPayload {
  nonce: Buffer;
  ciphertext: Buffer;
}

/**
 * Legacy sealed request bodies (table job_payloads), as ppfile kept them in PostgreSQL before
 * migration 20261127120000: a job accepted before the upgrade still finds its body here. Nothing
 * writes here any more — libs/jobs FileLifecycle seals new bodies into the object store — and
 * FileLifecycle deletes a row with its file's last move; this store reads.
 */
export class JobPayloadStore {
  constructor(private readonly prisma: PrismaClient) {}

  async get(fileId: string): Promise<SealedPayload | null> {
    const row = await this.prisma.jobPayload.findUnique({ where: { fileId } });
    return row ? { nonce: Buffer.from(row.nonce), ciphertext: Buffer.from(row.ciphertext) } : null;
  }

  async exists(fileId: string): Promise<boolean> {
    return (await this.prisma.jobPayload.count({ where: { fileId } })) === 1;
  }

  /** Payloads whose file is no longer processing: their job ended and they should be gone. */
  async listLeftOver(limit: number): Promise<string[]> {
    const rows = await this.prisma.jobPayload.findMany({
      where: { file: { status: { not: 'PROCESSING' } } },
      select: { fileId: true },
      take: limit,
    });
    return rows.map((r) => r.fileId);
  }
}
