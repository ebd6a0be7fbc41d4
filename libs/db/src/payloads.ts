import type { PrismaClient } from './generated/prisma/client';

export interface SealedPayload {
  nonce: Buffer;
  ciphertext: Buffer;
}

/**
 * Request bodies of accepted generations, kept until their job ends (API.md §8): the database,
 * not Redis, is the record, so a Redis restart loses no accepted work. Only sealed bytes come in
 * (libs/jobs encrypts them). A payload is written and deleted with its file's moves, by libs/jobs
 * FileLifecycle alone; this store reads.
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
