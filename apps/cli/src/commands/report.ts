import { parseIsoDate, type DayNumber, type Issue, type Lang, type Normalization } from '@ppfile/rules';
import { usageError } from '../cli-io';
import { say } from '../words';

/** What the file commands print around the rules' messages, in the caller's language. */

export function todayOption(value: string | boolean | undefined): DayNumber | undefined {
  if (value === undefined) return undefined;
  const day = typeof value === 'string' ? parseIsoDate(value) : null;
  if (day === null) throw usageError('expects_date');
  return day;
}

/** How a file operand is named in the output: `-` is standard input. */
export function subject(file: string, lang: Lang): string {
  return file === '-' ? say(lang, 'stdin') : file;
}

function issueLines(issues: readonly Issue[], kind: 'error' | 'warning', lang: Lang): string {
  const label = say(lang, kind === 'error' ? 'label_error' : 'label_warning');
  return issues
    .map((i) => {
      const where = `${i.column ? ` ${i.column}` : ''}${i.field ? ` (${i.field})` : ''}`;
      const line = say(lang, 'issue', {
        label,
        row: i.row === null ? '-' : String(i.row),
        where,
        code: i.code,
        message: i.message,
      });
      return `  ${line}\n`;
    })
    .join('');
}

/** "… N more not shown" where a list stops at the API's cap while its count goes on. */
function more(key: 'more_errors' | 'more_warnings' | 'more_normalizations', n: number, lang: Lang): string {
  return n > 0 ? `  ${say(lang, key, { n })}\n` : '';
}

export function issuesText(
  r: { error_count: number; errors: readonly Issue[]; warning_count: number; warnings: readonly Issue[] },
  lang: Lang,
): string {
  return (
    issueLines(r.errors, 'error', lang) +
    more('more_errors', r.error_count - r.errors.length, lang) +
    issueLines(r.warnings, 'warning', lang) +
    more('more_warnings', r.warning_count - r.warnings.length, lang)
  );
}

export function normalizationsText(
  r: { normalization_count: number; normalizations: readonly Normalization[] },
  lang: Lang,
): string {
  return (
    r.normalizations
      .map((n) => `  ${say(lang, 'normalized', { field: n.field, column: n.column, rule: n.rule })}\n`)
      .join('') + more('more_normalizations', r.normalization_count - r.normalizations.length, lang)
  );
}
