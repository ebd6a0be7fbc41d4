import type { PrismaClient } from './generated/prisma/client';
import type { Db } from './ledger';

export interface SealedPayload {
  nonce: Buffer;
  ciphertext: Buffer;
}

/**
 * Request bodies of accepted generations, kept until their job ends (API.md §8): the database,
 * not Redis, is the record, so a Redis restart loses no accepted work. Only sealed bytes come in
 * (libs/jobs encrypts them); a payload goes with its file record's end (`remove`, or cascade).
 */
export class JobPayloadStore {
  constructor(private readonly prisma: PrismaClient) {}

  async put(fileId: string, sealed: SealedPayload, db: Db = this.prisma): Promise<void> {
    await db.jobPayload.create({
      data: { fileId, nonce: new Uint8Array(sealed.nonce), ciphertext: new Uint8Array(sealed.ciphertext) },
    });
  }

  async get(fileId: string): Promise<SealedPayload | null> {
    const row = await this.prisma.jobPayload.findUnique({ where: { fileId } });
    return row ? { nonce: Buffer.from(row.nonce), ciphertext: Buffer.from(row.ciphertext) } : null;
  }

  async exists(fileId: string): Promise<boolean> {
    return (await this.prisma.jobPayload.count({ where: { fileId } })) === 1;
  }

  async remove(fileId: string, db: Db = this.prisma): Promise<void> {
    await db.jobPayload.deleteMany({ where: { fileId } });
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
