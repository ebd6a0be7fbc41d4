import * as path from 'node:path';
import {
  createCsvValidator,
  DECLARANTS,
  FILE_TYPES,
  type FileValidationResponse,
  type Lang,
} from '@ppfile/rules';
import { EXIT_INVALID, EXIT_OK, printJson, type Output } from '../cli-io';
import type { Invocation } from '../invocation';
import { maxRowsOption, oneOf } from '../option-values';
import { loadReferences } from '../references';
import { say } from '../words';
import { readInputReusing } from './read-body';
import { issuesText, subject, todayOption } from './report';

const PROGRESS_ROWS = 100_000;
const PROGRESS_MS = 1_000;

/**
 * `ppfile validate FILE.csv --type … --declarant …`: POST /v1/files/validate, offline. The file is
 * streamed through the validator, so it may have any number of rows (none refused unless
 * --max-rows); memory holds one piece of it plus what cross-row checks must remember.
 */
export async function validateCommand({
  values,
  positionals,
  output,
  env,
  lang,
}: Invocation): Promise<number> {
  const file = positionals[0]!;
  const type = oneOf('type', values.type, FILE_TYPES);
  const declarant = oneOf('declarant', values.declarant, DECLARANTS);
  const today = todayOption(values.today);
  const maxRows = maxRowsOption(values['max-rows']);
  // Standard input has no name to check unless one is given: the portal checks the uploaded name.
  const filename =
    typeof values.filename === 'string' ? values.filename : file === '-' ? undefined : path.basename(file);
  const refs = loadReferences(env);

  const validator = createCsvValidator(
    {
      type,
      declarant,
      spec_version: values['spec-version'] as string | undefined,
      strict_references: !values['no-strict-references'],
      filename,
    },
    { refs, today, lang, maxRows },
  );
  const progress = new Progress(output, lang);
  try {
    // Each piece is written before the next is read: the validator keeps none of it.
    for await (const chunk of readInputReusing(file)) {
      validator.write(chunk);
      progress.show(validator.linesRead);
    }
  } finally {
    output.progress(null);
  }
  const result = validator.end();
  if (values.json) printJson(output, result);
  else output.out(describe(filename ?? subject(file, lang), result, lang));
  return result.valid ? EXIT_OK : EXIT_INVALID;
}

/**
 * "N lines read…" on a terminal, every 100,000 lines or every second, for files that take a while;
 * the count is the validator's own (the lines are not scanned twice).
 */
class Progress {
  private nextRows = PROGRESS_ROWS;
  private lastShown = Date.now();

  constructor(
    private readonly output: Output,
    private readonly lang: Lang,
  ) {}

  show(lines: number): void {
    const now = Date.now();
    if (lines < this.nextRows && now - this.lastShown < PROGRESS_MS) return;
    while (this.nextRows <= lines) this.nextRows += PROGRESS_ROWS;
    this.lastShown = now;
    this.output.progress(say(this.lang, 'progress', { n: lines }));
  }
}

function describe(name: string, r: FileValidationResponse, lang: Lang): string {
  const verdict = say(lang, r.file_rejected ? 'rejected' : r.valid ? 'valid' : 'invalid');
  const counts = say(lang, 'file_counts', {
    total: r.rows_total,
    valid: r.rows_valid,
    invalid: r.rows_invalid,
    errors: r.error_count,
    warnings: r.warning_count,
    spec: r.spec_version,
  });
  return `${say(lang, 'verdict', { subject: name, verdict })}\n  ${counts}\n${issuesText(r, lang)}`;
}
