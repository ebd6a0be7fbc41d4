import type { KindTable } from './spec/types';

/**
 * The official file (SERVICE.md §2.5, API.md §3): UTF-8 without BOM, `|` between fields, no
 * quotation marks, CRLF after every line including the last, header in the official order.
 * Cells reach here already checked: none holds `|`, CR or LF.
 */
export function writeCsv(table: KindTable, rows: readonly (readonly string[])[]): Buffer {
  const lines = new Array<string>(rows.length + 1);
  lines[0] = table.columns.map((c) => c.name).join('|');
  for (let i = 0; i < rows.length; i++) lines[i + 1] = rows[i]!.join('|');
  lines.push('');
  return Buffer.from(lines.join('\r\n'), 'utf8');
}
