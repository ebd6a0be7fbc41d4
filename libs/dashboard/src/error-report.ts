import type { FileValidationResponse, Issue } from '@ppfile/rules';

/**
 * The error report of Try it: a CSV of row, column, code and message, one line per listed error —
 * what a person opens in a spreadsheet to fix their file. Messages come from libs/rules' catalogue,
 * whose templates take no cell value: the report carries no NIR or name from the checked file.
 *
 * UTF-8 with a byte-order mark (spreadsheets then read accents right), comma-separated, RFC 4180
 * quoting, CRLF. A cell that a spreadsheet would run as a formula (=, +, -, @, tab, CR at its start)
 * is prefixed with an apostrophe (OWASP "CSV injection").
 */
export const REPORT_HEADER = ['row', 'column', 'code', 'message'] as const;

export function csvCell(value: string | number | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function errorReportCsv(errors: readonly Issue[]): string {
  const lines = [REPORT_HEADER.join(',')];
  for (const e of errors)
    lines.push([csvCell(e.row), csvCell(e.column), csvCell(e.code), csvCell(e.message)].join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

/** The report as a link target: the browser saves it, nothing is kept on the server. */
export function errorReportHref(errors: readonly Issue[]): string {
  return `data:text/csv;charset=utf-8,${encodeURIComponent(errorReportCsv(errors))}`;
}

export interface IssueGroup {
  /** A code or a column name; null for errors of the whole file (no column). */
  key: string | null;
  /** Every error of the group, listed or not (the summary's count). */
  count: number;
  /** Distinct rows of the listed errors, ascending. */
  rows: number[];
  /** The first listed message of the group. */
  example: string;
}

/**
 * The errors grouped by code and by column, counts from the response's summary (which counts every
 * error, also those past the 1,000 listed), rows and an example message from the listed ones.
 */
export function groupIssues(result: Pick<FileValidationResponse, 'errors' | 'summary'>): {
  byCode: IssueGroup[];
  byColumn: IssueGroup[];
} {
  const group = (keyOf: (e: Issue) => string | null, counts: Record<string, number>): IssueGroup[] => {
    const groups = new Map<string | null, IssueGroup>();
    for (const e of result.errors) {
      const key = keyOf(e);
      let g = groups.get(key);
      if (!g)
        groups.set(
          key,
          (g = { key, count: key === null ? 0 : (counts[key] ?? 0), rows: [], example: e.message }),
        );
      if (key === null) g.count++;
      if (e.row !== null && g.rows[g.rows.length - 1] !== e.row && !g.rows.includes(e.row))
        g.rows.push(e.row);
    }
    for (const [key, count] of Object.entries(counts))
      if (!groups.has(key)) groups.set(key, { key, count, rows: [], example: '' });
    return [...groups.values()]
      .map((g) => ({ ...g, rows: g.rows.sort((a, b) => a - b) }))
      .sort((a, b) => b.count - a.count || String(a.key).localeCompare(String(b.key)));
  };
  return {
    byCode: group((e) => e.code, result.summary.by_code),
    byColumn: group((e) => e.column, result.summary.by_column),
  };
}

/** "ppfile_adf_20261122_1a2b3c4d.csv" → "ppfile_adf_20261122_1a2b3c4d-errors.csv" (safe characters only). */
export function reportName(filename: string): string {
  const base =
    filename
      .replace(/\.csv$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .slice(0, 80) || 'file';
  return `${base}-errors.csv`;
}
