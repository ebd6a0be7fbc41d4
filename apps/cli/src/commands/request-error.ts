import { errorBody, newRequestId, type ErrorBody } from '@ppfile/contract';
import { RequestError, type Issue, type Lang } from '@ppfile/rules';
import { EXIT_INVALID, EXIT_USAGE, printJson, type Output } from '../cli-io';
import { say } from '../words';
import { issuesText } from './report';

/*
 * Apart from report.ts so that a command loads the HTTP contract (its error bodies) only when a
 * request fails: main.ts loads this file then. The contract's modules were ~10 % of the start of
 * `ppfile validate` (docs/benchmarks.md, "The command line's validate").
 */

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
