import { randomBytes } from 'node:crypto';
import { errorBody, type ErrorBody } from '@ppfile/contract';
import type { Issue, RequestError } from '@ppfile/rules';

/** Exit status of API.md §11: 0 valid / generated, 1 invalid, 2 usage or I/O error. */
export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A mistake in the command line or a file that cannot be read: exit 2 with a one-line explanation. */
export class UsageError extends Error {}

export interface Output {
  out(text: string): void;
  err(text: string): void;
}

export const processOutput: Output = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

export function printJson(output: Output, value: unknown): void {
  output.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** The error body the HTTP API would return (API.md §6), with a request id of the CLI run. */
export function requestErrorBody(error: RequestError): ErrorBody {
  return errorBody(error, `req_${randomBytes(8).toString('hex')}`);
}

/** Exit status for an error the HTTP API would answer with a 4xx. */
export function requestErrorExit(error: RequestError): number {
  return error.code === 'VALIDATION_FAILED' ? EXIT_INVALID : EXIT_USAGE;
}

export function formatIssues(issues: readonly Issue[], label: string): string {
  return issues
    .map(
      (i) =>
        `  ${label} line ${i.row ?? '-'}${i.column ? ` ${i.column}` : ''}${i.field ? ` (${i.field})` : ''}: ${i.code} — ${i.message}\n`,
    )
    .join('');
}

export function formatRequestError(error: RequestError): string {
  let text = `${error.code}: ${error.message}\n`;
  const fields = error.details?.fields as { field: string; message: string }[] | undefined;
  if (fields) for (const f of fields) text += `  ${f.field}: ${f.message}\n`;
  return text;
}
