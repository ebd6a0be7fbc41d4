import type { KindTable } from './spec/types';

/**
 * The official file (SERVICE.md §2.5, API.md §3): UTF-8 without BOM, `|` between fields, no
 * quotation marks, CRLF after every line including the last, header in the official order.
 * Cells reach here as they are checked; the file is kept only when no row has an error, so none
 * then holds `|`, a line break, a control or invisible character, a lone surrogate or U+FFFD
 * (values/text.ts, INVALID_CHARACTER): UTF-8 encoding is then lossless. Rows
 * are joined as they come, so that no row array has to outlive its check.
 */
export class CsvWriter {
  /** Lines are encoded by batches: short-lived strings, and a batch of plain ASCII stays cheap to encode. */
  private static readonly BATCH = 512;
  private lines: string[] = [];
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(table: KindTable) {
    this.lines.push(table.columns.map((c) => c.name).join('|'));
  }

  add(cells: readonly string[]): void {
    this.lines.push(cells.join('|'));
    if (this.lines.length === CsvWriter.BATCH) this.flush();
  }

  toBuffer(): Buffer {
    this.flush();
    return Buffer.concat(this.chunks, this.size);
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    this.lines.push('');
    const chunk = Buffer.from(this.lines.join('\r\n'), 'utf8');
    this.chunks.push(chunk);
    this.size += chunk.length;
    this.lines = [];
  }
}

export function writeCsv(table: KindTable, rows: readonly (readonly string[])[]): Buffer {
  const writer = new CsvWriter(table);
  for (const row of rows) writer.add(row);
  return writer.toBuffer();
}
