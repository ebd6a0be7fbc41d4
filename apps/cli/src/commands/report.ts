import { errorBody, newRequestId, type ErrorBody } from '@ppfile/contract';
import {
  parseIsoDate,
  RequestError,
  type DayNumber,
  type Issue,
  type Lang,
  type Normalization,
} from '@ppfile/rules';
import { EXIT_INVALID, EXIT_USAGE, printJson, usageError, type Output } from '../cli-io';
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

/**
 * The API's error bodies and exit statuses for a RequestError (exit 1 for VALIDATION_FAILED, 2 for
 * a request refused as such); undefined for any other failure.
 */
export function reportRequestError(
  error: unknown,
  output: Output,
  lang: Lang,
  json: boolean,
): number | undefined {
  if (!(error instanceof RequestError)) return undefined;
  // Offline, the only row limit is the caller's --max-rows: the API's "limit for this key" would mislead.
  const e =
    error.code === 'LINE_LIMIT_EXCEEDED'
      ? new RequestError(
          error.code,
          say(lang, 'max_rows_exceeded', { limit: Number(error.details?.limit) }),
          error.details,
        )
      : error;
  if (json) printJson(output, requestErrorBody(e));
  else output.err(requestErrorText(e, lang));
  return e.code === 'VALIDATION_FAILED' ? EXIT_INVALID : EXIT_USAGE;
}

function requestErrorBody(error: RequestError): ErrorBody {
  return errorBody(error, newRequestId());
}

function requestErrorText(error: RequestError, lang: Lang): string {
  let text = `${say(lang, 'request_error', { code: error.code, message: error.message })}\n`;
  const fields = error.details?.fields as { field: string; message: string }[] | undefined;
  if (fields) for (const f of fields) text += `  ${say(lang, 'field_problem', f)}\n`;
  // generate of an invalid body: the rows' errors, as check would list them.
  if (error.code === 'VALIDATION_FAILED' && error.details) {
    const details = error.details as {
      error_count: number;
      errors: Issue[];
      warning_count: number;
      warnings: Issue[];
    };
    text += issuesText(details, lang);
  }
  return text;
}
