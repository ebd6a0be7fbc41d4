import { decodeBody, mixedEncodingError, textEncoding, type TextEncoding } from '@ppfile/rules';
import type { Cell, RowVisitor } from './cells';
import type { ReadBudget } from './unreadable';

export type Separator = ',' | ';' | '|' | '\t';
const SEPARATORS: readonly Separator[] = [';', ',', '\t', '|'];
/** Lines looked at to choose the separator: the header row may be as low as row 20 (API.md §14). */
const SNIFF_LINES = 25;

export interface DelimitedText {
  readonly text: string;
  /**
   * `mixed`: UTF-8 and bytes that are not in one file (libs/rules MixedEncoding) — `text` is empty,
   * nothing of the bytes is read, and readDelimited refuses the file, naming `line`.
   */
  readonly encoding: TextEncoding | 'mixed';
  readonly separator: Separator;
  /** With `mixed`: the first line holding a byte that is not UTF-8 (header = 1, lines ending with LF). */
  readonly line?: number;
}

/**
 * A CSV or TSV export (API.md §14): its encoding (UTF-8 with or without BOM, or Windows-1252;
 * libs/rules textEncoding, the verdict the fix takes) and its separator — of `;` `,` tab and `|`, the
 * one that splits the most of the first lines into the same number (≥ 2) of fields — outside quotes,
 * except for `|`, the official format's separator, where `"` is an ordinary character as the reader
 * takes it; ties go to that order (`;` first: a French Excel's "CSV" uses it, and a `,` may be a
 * decimal comma). Bytes that mix UTF-8 and bytes that are not are not decoded (`encoding: 'mixed'`):
 * whichever reading is chosen, some names come out wrong (`HÉLÈNE` → `HÃ‰LÃˆNE`), and names are
 * never corrected.
 */
export function sniffDelimited(bytes: Uint8Array): DelimitedText {
  const verdict = textEncoding(bytes);
  if (verdict.encoding === 'mixed')
    return { text: '', encoding: 'mixed', separator: ';', line: verdict.line };
  const { text, encoding } = decodeBody(verdict);
  const sample = text
    .slice(0, 64 * 1024)
    .split(/\r\n|\n|\r/)
    .slice(0, SNIFF_LINES)
    .filter((l) => l !== '');
  let best: Separator = ';';
  let bestScore = -1;
  for (const sep of SEPARATORS) {
    const counts = sample.map((line) => countFields(line, sep));
    const tally = new Map<number, number>();
    for (const n of counts) if (n >= 2) tally.set(n, (tally.get(n) ?? 0) + 1);
    const score = Math.max(0, ...tally.values());
    if (score > bestScore) {
      best = sep;
      bestScore = score;
    }
  }
  return { text, encoding, separator: best };
}

/**
 * Fields of one line as readDelimited splits it: quotes respected (a quoted field may not close on
 * this line: close enough), except with `|`, which has no quoting (API.md §4).
 */
function countFields(line: string, sep: Separator): number {
  const quotes = hasQuoting(sep);
  let n = 1;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quotes && c === '"') quoted = !quoted;
    else if (c === sep && !quoted) n++;
  }
  return n;
}

/** Whether `"` quotes a field: RFC 4180 for `,` `;` and tab; never with `|`, the official separator. */
function hasQuoting(sep: Separator): boolean {
  return sep !== '|';
}

/**
 * Streams the records of delimited text as rows of text cells. Quotes follow RFC 4180 (a field that
 * starts with `"` runs to the closing `"`, `""` inside is one quote, line breaks included) — except
 * with `|`, the official format's separator, where `"` is an ordinary character (API.md §4). A
 * record's row number is its position (1-based); empty fields are left out. Each non-empty field is
 * a cell of the file (ReadBudget.cell). Throws UNREADABLE_FILE (`mixed_encoding`, naming the line)
 * for a file whose bytes mix encodings, before any row.
 */
export function readDelimited(source: DelimitedText, budget: ReadBudget, visit: RowVisitor): void {
  if (source.encoding === 'mixed') throw mixedEncodingError(source.line!, budget.lang);
  const { text, separator } = source;
  const quotes = hasQuoting(separator);
  const sep = separator.charCodeAt(0);
  let row = 0;
  // decodeBody has already removed a BOM.
  let i = 0;
  const n = text.length;
  while (i < n) {
    row++;
    const cells: { col: number; cell: Cell }[] = [];
    let col = 0;
    for (;;) {
      let value: string;
      if (quotes && text.charCodeAt(i) === 34) {
        let out = '';
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q < 0) {
            out += text.slice(j);
            j = n;
            break;
          }
          out += text.slice(j, q);
          if (text.charCodeAt(q + 1) === 34) {
            out += '"';
            j = q + 2;
          } else {
            j = q + 1;
            break;
          }
        }
        // Anything between the closing quote and the separator belongs to the field, as spreadsheets read it.
        let k = j;
        while (k < n && text.charCodeAt(k) !== sep && text.charCodeAt(k) !== 10 && text.charCodeAt(k) !== 13)
          k++;
        value = out + text.slice(j, k);
        i = k;
      } else {
        let k = i;
        while (k < n && text.charCodeAt(k) !== sep && text.charCodeAt(k) !== 10 && text.charCodeAt(k) !== 13)
          k++;
        value = text.slice(i, k);
        i = k;
      }
      // A field holding something is a cell of the file (ReadBudget); an empty one stores nothing.
      if (value !== '') {
        budget.cell();
        // One rule for XLSX and CSV: a cell holds at most Excel's 32,767 characters (cell_too_long).
        cells.push({ col, cell: { k: 'text', v: budget.cellText(value) } });
      }
      col++;
      if (i < n && text.charCodeAt(i) === sep) {
        i++;
        continue;
      }
      // End of record: CRLF, LF or CR.
      if (text.charCodeAt(i) === 13) i++;
      if (text.charCodeAt(i) === 10) i++;
      break;
    }
    if (!visit({ row, cells })) return;
  }
}
