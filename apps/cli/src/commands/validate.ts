import { closeSync, openSync, readSync } from 'node:fs';
import * as path from 'node:path';
import {
  createCsvValidator,
  CURRENT_LIMITS,
  DECLARANTS,
  FILE_TYPES,
  type FileValidationResponse,
} from '@ppfile/rules';
import { langOption, oneOf, parse, single, todayOption } from '../args';
import { EXIT_INVALID, EXIT_OK, formatIssues, printJson, UsageError, type Output } from '../cli-io';
import { loadReferences } from '../references';

const CHUNK = 1 << 20;

/** `ppfile validate FILE.csv --type … --declarant …`: POST /v1/files/validate, offline. */
export function validateCommand(args: string[], output: Output, env: NodeJS.ProcessEnv): number {
  const { values, positionals } = parse(args, {
    type: { type: 'string' },
    declarant: { type: 'string' },
    'no-strict-references': { type: 'boolean' },
    'spec-version': { type: 'string' },
    today: { type: 'string' },
    lang: { type: 'string' },
    json: { type: 'boolean' },
  });
  const file = single(positionals, 'CSV file');
  const type = oneOf('type', values.type, FILE_TYPES);
  const declarant = oneOf('declarant', values.declarant, DECLARANTS);
  const lang = langOption(values.lang);
  const today = todayOption(values.today);
  const specVersion = values['spec-version'] as string | undefined;
  const refs = loadReferences(env, undefined);

  const validator = createCsvValidator(
    {
      type,
      declarant,
      spec_version: specVersion,
      strict_references: !values['no-strict-references'],
      filename: path.basename(file),
    },
    { refs, today, lang, maxRows: CURRENT_LIMITS.maxRowsLive },
  );
  // The file is streamed through the validator: memory does not grow with its size.
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      const n = readSync(fd, buffer, 0, CHUNK, null);
      if (n === 0) break;
      validator.write(buffer.subarray(0, n));
    }
  } finally {
    closeSync(fd);
  }
  const result = validator.end();
  if (values.json) printJson(output, result);
  else output.out(describe(file, result));
  return result.valid ? EXIT_OK : EXIT_INVALID;
}

function describe(file: string, r: FileValidationResponse): string {
  const verdict = r.file_rejected
    ? 'REJECTED (the portal would refuse the whole file)'
    : r.valid
      ? 'valid'
      : 'invalid';
  let text = `${path.basename(file)}: ${verdict}\n`;
  text += `  rows: ${r.rows_total} total, ${r.rows_valid} valid, ${r.rows_invalid} invalid; ${r.error_count} error(s), ${r.warning_count} warning(s) (spec ${r.spec_version})\n`;
  text += formatIssues(r.errors, 'error  ');
  if (r.truncated) text += `  … ${r.error_count - r.errors.length} more error(s) not listed\n`;
  text += formatIssues(r.warnings, 'warning');
  return text;
}
