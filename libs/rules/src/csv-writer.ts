import type { KindTable } from './format/types';

/**
 * The official file (SERVICE.md §2.5, API.md §3): UTF-8 without BOM, `|` between fields, no
 * quotation marks, CRLF after every line including the last, header in the official order.
 * Cells reach here as they are checked; the file is kept only when no row has an error, so none
 * then holds `|`, a line break, a control or invisible character, a lone surrogate or U+FFFD
 * (values/text.ts, INVALID_CHARACTER): UTF-8 encoding is then lossless. Rows are joined as they
 * come, so that no row array has to outlive its check.
 *
 * The bytes go into one buffer, sized from the first lines and the row count: a batch of lines is
 * a short-lived string encoded straight into it, never a piece kept to be joined at the end (on
 * this machine every byte of memory made afresh costs more than encoding it: docs/benchmarks.md "Spreadsheets").
 */
export class CsvWriter {
  /** Lines encoded at once: a string small enough to die young (64 lines of ~350 characters). */
  private static readonly BATCH = 64;
  private lines: string[] = [];
  private out: Buffer | null = null;
  private size = 0;

  /** `rows`: how many rows will be added, if known (the buffer is then allocated once). */
  constructor(
    table: KindTable,
    private readonly rows = 0,
  ) {
    this.lines.push(table.columns.map((c) => c.name).join('|'));
  }

  add(cells: readonly string[]): void {
    this.lines.push(cells.join('|'));
    if (this.lines.length === CsvWriter.BATCH) this.flush();
  }

  toBuffer(): Buffer {
    this.flush();
    return this.out === null ? Buffer.alloc(0) : this.out.subarray(0, this.size);
  }

  private flush(): void {
    const count = this.lines.length;
    if (count === 0) return;
    this.lines.push('');
    const batch = this.lines.join('\r\n');
    this.lines = [];
    const bytes = Buffer.byteLength(batch, 'utf8');
    if (this.out === null) {
      // The first batch's bytes a line, for every row to come, and an eighth more. Zeroed, as the
      // answer is a view of it: what lies past the file must be no one's old memory.
      const expected = Math.ceil(((bytes / count) * (this.rows + 1) * 9) / 8);
      this.out = Buffer.alloc(Math.max(expected, bytes, 1024));
    } else if (this.size + bytes > this.out.length) {
      const grown = Buffer.alloc(Math.max(this.out.length + (this.out.length >> 1), this.size + bytes));
      this.out.copy(grown, 0, 0, this.size);
      this.out = grown;
    }
    this.size += this.out.write(batch, this.size, 'utf8');
  }
}

export function writeCsv(table: KindTable, rows: readonly (readonly string[])[]): Buffer {
  const writer = new CsvWriter(table, rows.length);
  for (const row of rows) writer.add(row);
  return writer.toBuffer();
}
