/**
 * A small RFC 4180 reader for the official exports. It is lenient where real files are sloppy: a quote
 * only opens a quoted field at the start of a field (the Certif Info file has unbalanced quotes inside
 * unquoted labels, e.g. `Magistère science pour l"ingénieur`), and text after a closing quote is kept.
 */

export type Delimiter = ',' | ';' | '\t';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Exports differ by publisher (`,` for France Travail, `;` for Centre Inffo, France Compétences and
 * Certif Info); the header line tells which, counting only separators outside quotes.
 */
export function detectDelimiter(text: string): Delimiter {
  const counts = { ';': 0, ',': 0, '\t': 0 };
  let inQuotes = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') inQuotes = !inQuotes;
    else if (inQuotes) continue;
    else if (c === '\n' || c === '\r') break;
    else if (c === ';' || c === ',' || c === '\t') counts[c]++;
  }
  // `;` first on ties: French exports use it because labels hold commas.
  let best: Delimiter = ',';
  for (const d of [';', ',', '\t'] as const) if (counts[d] > counts[best]) best = d;
  return best;
}

/** Records of the text (CRLF or LF); blank lines are dropped. */
export function parseCsv(text: string, delimiter: Delimiter): string[][] {
  const rows: string[][] = [];
  const n = text.length;
  if (n === 0) return rows;
  const d = delimiter.charCodeAt(0);
  let row: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (text.charCodeAt(i) === QUOTE) {
      let j = i + 1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q === -1) {
          field += text.slice(j);
          j = n;
          break;
        }
        field += text.slice(j, q);
        if (text.charCodeAt(q + 1) === QUOTE) {
          field += '"';
          j = q + 2;
        } else {
          j = q + 1;
          break;
        }
      }
      i = j;
    }
    let end = i;
    while (end < n) {
      const c = text.charCodeAt(end);
      if (c === d || c === LF) break;
      end++;
    }
    if (end > i) {
      const tail = text.slice(i, end);
      field += tail.charCodeAt(tail.length - 1) === CR ? tail.slice(0, -1) : tail;
    }
    row.push(field);
    if (end < n && text.charCodeAt(end) === d) {
      i = end + 1;
      continue;
    }
    if (row.length > 1 || row[0] !== '') rows.push(row);
    row = [];
    i = end + 1;
    if (i >= n) return rows;
  }
}
