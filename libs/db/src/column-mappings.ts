import type { Prisma, PrismaClient } from './generated/prisma/client';

/** A saved mapping: a header text of the organization's spreadsheets → an official column name, or null (ignored). */
export type ColumnMappingEntries = Record<string, string | null>;

/**
 * The Build page's saved column mappings (issue 36): one per organization and kind of file
 * (type × declarant). The dashboard checks what it keeps (header texts and column names only);
 * this store keeps it as given and answers it back.
 */
export class ColumnMappingStore {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** The saved mapping, or an empty one. */
  async get(organizationId: string, type: string, declarant: string): Promise<ColumnMappingEntries> {
    const row = await this.prisma.columnMapping.findUnique({
      where: { organizationId_type_declarant: { organizationId, type, declarant } },
      select: { mapping: true },
    });
    return (row?.mapping as ColumnMappingEntries | undefined) ?? {};
  }

  /** Replaces the mapping of one kind (an empty one is kept as such). */
  async put(
    organizationId: string,
    type: string,
    declarant: string,
    mapping: ColumnMappingEntries,
  ): Promise<void> {
    const value = mapping as Prisma.InputJsonObject;
    const updatedAt = this.clock();
    await this.prisma.columnMapping.upsert({
      where: { organizationId_type_declarant: { organizationId, type, declarant } },
      create: { organizationId, type, declarant, mapping: value, updatedAt },
      update: { mapping: value, updatedAt },
    });
  }
}
