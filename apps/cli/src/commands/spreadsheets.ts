import {
  accessSync,
  closeSync,
  constants,
  fchmodSync,
  lstatSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import * as path from 'node:path';
import { generateResponseBody, newFileId } from '@ppfile/contract';
import {
  CURRENT_LIMITS,
  CURRENT_SPEC_VERSION,
  DECLARANTS,
  FILE_TYPES,
  findSpec,
  fixCsvFile,
  generateFile,
  type FixedCsvFile,
  type FixedFileSink,
  type Lang,
  type RulesEnvironment,
} from '@ppfile/rules';
import {
  importSheet,
  template,
  templateFileName,
  type CellIssue,
  type ImportResult,
  type SheetIssue,
} from '@ppfile/sheets';
import { EXIT_INVALID, EXIT_OK, printJson, usageError, UsageError } from '../cli-io';
import type { Invocation, Values } from '../invocation';
import { maxRowsOption, oneOf } from '../option-values';
import { loadReferences } from '../references';
import { say } from '../words';
import { readInput, readInputFile, regularFileSize } from './read-body';
import { issuesText, subject, todayOption } from './report';

/** The spreadsheet commands of API.md §14: template, import, fix — offline, nothing stored. */

/**
 * A whole input in memory: the import and the fix analyse a file in memory, as the API does. Reading
 * stops once past the spec's byte limit (20 MB, API.md §14): the library refuses such a file whatever
 * follows (UNREADABLE_FILE, too_large), so a larger one is never read whole.
 */
async function readAll(file: string, specVersion: string | undefined): Promise<Buffer> {
  const limit = (findSpec(specVersion ?? CURRENT_SPEC_VERSION)?.limits ?? CURRENT_LIMITS).maxBytes;
  // A regular file within the limit is read into one buffer of its size (no pieces copied again).
  const whole = regularFileSize(file);
  if (whole !== null && whole <= limit) return readInputFile(file);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of readInput(file)) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > limit) break;
  }
  return Buffer.concat(chunks);
}

function writeOut(file: string, content: string | Uint8Array): void {
  try {
    writeFileSync(file, content);
  } catch (e) {
    throw cannotWrite(file, e);
  }
}

function cannotWrite(file: string, e: unknown): UsageError {
  return usageError('cannot_write', {
    file,
    reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message,
  });
}

function kindOptions(values: Values) {
  return {
    type: oneOf('type', values.type, FILE_TYPES),
    declarant: oneOf('declarant', values.declarant, DECLARANTS),
    spec_version: values['spec-version'] as string | undefined,
  };
}

function environment(values: Values, env: NodeJS.ProcessEnv, lang: Lang): RulesEnvironment {
  return {
    refs: loadReferences(env),
    today: todayOption(values.today),
    lang,
    maxRows: maxRowsOption(values['max-rows']),
  };
}

/** `ppfile template --type T --declarant D [-o FILE.xlsx]`: GET /v1/spec/{version}/template. */
export function templateCommand({ values, output, lang }: Invocation): number {
  const kind = kindOptions(values);
  const bytes = template(kind.type, kind.declarant, kind.spec_version, lang);
  const filename = templateFileName(kind.type, kind.declarant, kind.spec_version ?? CURRENT_SPEC_VERSION);
  const out = (values.output as string | undefined) ?? filename;
  writeOut(out, bytes);
  if (values.json) printJson(output, { file: out, filename, bytes: bytes.length });
  else output.err(`${say(lang, 'template_written', { target: out, filename, bytes: bytes.length })}\n`);
  return EXIT_OK;
}

/**
 * `ppfile import FILE --type T --declarant D [--sheet S] [--mapping MAP.json] [--generate [-o OUT.csv]]`:
 * POST /v1/declarations/import. The body goes to standard output, what was found to standard error;
 * --json prints the HTTP answer instead. Exit 0 when the body is valid and no cell had an issue.
 */
export async function importCommand({ values, positionals, output, env, lang }: Invocation): Promise<number> {
  const file = positionals[0]!;
  const kind = kindOptions(values);
  if (values.output !== undefined && !values.generate) throw usageError('output_needs_generate');
  // The mapping file's text goes to the import as a form's field would: importSheet judges it
  // (INVALID_REQUEST on `mapping`, as the API answers).
  const mapping =
    typeof values.mapping === 'string'
      ? (await readAll(values.mapping, kind.spec_version)).toString('utf8')
      : undefined;
  const rulesEnv = environment(values, env, lang);
  const strict = values['no-strict-references'] ? false : undefined;
  const result = importSheet(
    await readAll(file, kind.spec_version),
    {
      ...kind,
      strict_references: strict,
      sheet: values.sheet as string | undefined,
      mapping,
      filename: file === '-' ? 'stdin' : path.basename(file),
    },
    rulesEnv,
  );

  if (values.generate) {
    if (!values.json) output.err(describeImport(subject(file, lang), result, lang));
    const body =
      strict === undefined ? result.body : { ...result.body, options: { strict_references: false } };
    // An invalid body is refused as generate refuses it (VALIDATION_FAILED, exit 1), after the cells above.
    // Its validation runs again here: result.validation names sheet cells, while generate's refusal
    // carries the validation of the body as the API's generate answers it, and the file is written
    // in that same pass (libs/rules checkRequest): reusing the import's would need a second answer.
    const generated = generateFile(body, rulesEnv);
    const out = values.output as string | undefined;
    if (out) writeOut(out, generated.content);
    if (values.json) {
      printJson(
        output,
        generateResponseBody(generated, {
          file_id: newFileId(),
          mode: 'live',
          stored: false,
          expires_at: null,
          download_url: null,
        }),
      );
      return EXIT_OK;
    }
    if (!out) output.out(generated.content);
    output.err(
      `${say(lang, 'generated', {
        target: out ?? say(lang, 'stdout'),
        rows: generated.rows,
        declarations: generated.declarations,
        sha256: generated.sha256,
        filename: generated.filename,
      })}\n`,
    );
    return EXIT_OK;
  }

  if (values.json) printJson(output, result);
  else {
    printJson(output, result.body);
    output.err(describeImport(subject(file, lang), result, lang));
  }
  return result.validation.valid && result.issue_count === 0 ? EXIT_OK : EXIT_INVALID;
}

function cellLines(entries: readonly (SheetIssue | CellIssue)[], label: string, lang: Lang): string {
  return entries
    .map(
      (i) =>
        `  ${say(lang, 'cell_issue', { label, cell: i.cell, column: i.column ?? '', code: i.code, message: i.message })}\n`,
    )
    .join('');
}

function describeImport(name: string, r: ImportResult, lang: Lang): string {
  const v = r.validation;
  let text = `${say(lang, 'imported_sheet', {
    subject: name,
    sheet: r.sheet,
    header: r.header_row,
    rows: r.rows_read,
    declarations: r.declarations,
  })}\n`;
  // A header that is the official name needs no saying; the others show how they were understood.
  for (const m of r.mapping) if (m.how !== 'name') text += `  ${say(lang, 'mapped_header', m)}\n`;
  if (r.unmapped_headers.length) {
    text += `  ${say(lang, 'unmapped_headers', { headers: r.unmapped_headers.join(', ') })}\n`;
  }
  if (r.missing_columns.length) {
    text += `  ${say(lang, 'missing_columns', { columns: r.missing_columns.join(', ') })}\n`;
  }
  text += cellLines(r.issues, say(lang, 'label_issue'), lang);
  if (r.issue_count > r.issues.length)
    text += `  ${say(lang, 'more_issues', { n: r.issue_count - r.issues.length })}\n`;
  const verdict = say(lang, v.valid ? 'valid' : 'invalid');
  text += `${say(lang, 'verdict', { subject: name, verdict })}\n  ${say(lang, 'body_counts', {
    total: v.rows_total,
    valid: v.rows_valid,
    invalid: v.rows_invalid,
    errors: v.error_count,
    warnings: v.warning_count,
    normalizations: v.normalization_count,
    spec: v.spec_version,
  })}\n`;
  text += cellLines(v.errors, say(lang, 'label_error'), lang);
  if (v.error_count > v.errors.length)
    text += `  ${say(lang, 'more_errors', { n: v.error_count - v.errors.length })}\n`;
  text += cellLines(v.warnings, say(lang, 'label_warning'), lang);
  if (v.warning_count > v.warnings.length) {
    text += `  ${say(lang, 'more_warnings', { n: v.warning_count - v.warnings.length })}\n`;
  }
  for (const n of v.normalizations) {
    text += `  ${say(lang, 'normalized', { field: n.cell, column: n.column, rule: n.rule })}\n`;
  }
  if (v.normalization_count > v.normalizations.length) {
    text += `  ${say(lang, 'more_normalizations', { n: v.normalization_count - v.normalizations.length })}\n`;
  }
  return text;
}

/**
 * `ppfile fix FILE.csv --type T --declarant D [-o OUT.csv]`: POST /v1/files/fix. The fixed file goes
 * to -o or standard output, the changes and the validation of the fixed file to standard error;
 * --json prints the HTTP answer. Exit 0 when the fixed file is valid.
 */
export async function fixCommand({ values, positionals, output, env, lang }: Invocation): Promise<number> {
  const file = positionals[0]!;
  const kind = kindOptions(values);
  const rulesEnv = environment(values, env, lang);
  const bytes = await readAll(file, kind.spec_version);
  const req = { ...kind, strict_references: values['no-strict-references'] ? false : undefined };
  const out = values.output as string | undefined;
  // To a file of its own: written as the rows are fixed, the bytes never all in memory at once.
  const through =
    out && !values.json ? writeThrough(out, (sink) => fixCsvFile(bytes, req, rulesEnv, sink)) : null;
  const result = through ?? fixCsvFile(bytes, req, rulesEnv);
  if (out && result.fixed !== undefined) writeOut(out, result.fixed);
  if (values.json) {
    // The fixed file's bytes as they are: a string of them is made only for --json's answer.
    const { fixed, changes, change_count, validation } = result;
    printJson(output, { content: fixed?.toString('utf8'), changes, change_count, validation });
  } else {
    if (!out && result.fixed !== undefined) output.out(result.fixed);
    output.err(describeFix(out ?? say(lang, 'stdout'), subject(file, lang), result, lang));
  }
  return result.mended && result.validation.valid ? EXIT_OK : EXIT_INVALID;
}

/**
 * Whether `file` can be replaced by a file renamed over it without a difference the user would see
 * from writing into it: absent, or a regular file of ours, writable, with no other name (a symbolic
 * link, a hard link, someone else's file, a device such as /dev/stdout are written into instead).
 * Answers its permissions, to give the new file, or null when it does not exist yet.
 */
function replaceable(file: string): { mode: number | null } | false {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || stat.nlink > 1 || stat.uid !== process.getuid?.()) return false;
    accessSync(file, constants.W_OK);
    return { mode: stat.mode & 0o777 };
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? { mode: null } : false;
  }
}

/**
 * The fix written to `file` as it is made: into a file beside it (same permissions), renamed to
 * `file` once the fix says the file is mended, removed otherwise or on any failure — never a
 * half-written `file`. Null, nothing done, when `file` is not replaceable() or no file can be made
 * beside it: the caller then writes the bytes into `file` at the end. A signal that asks to stop
 * (Ctrl-C, SIGTERM) waits for the work in hand (a second or so for 20 MB): the command ends as it
 * would have, `file` whole or as it was; one that comes later removes the partial file and exits
 * 130/143. Only a SIGKILL can leave a `.NAME.PID.partial` behind.
 */
function writeThrough(file: string, fix: (sink: FixedFileSink) => FixedCsvFile): FixedCsvFile | null {
  const target = replaceable(file);
  if (!target) return null;
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.partial`);
  // Listening before the file exists: from then on a signal waits for the work in hand.
  const stop = (signal: NodeJS.Signals) => {
    rmSync(partial, { force: true });
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  let fd: number;
  try {
    fd = openSync(partial, 'wx', target.mode ?? 0o666);
  } catch {
    return null; // a folder we cannot write in, a name taken: written into `file` instead
  }
  let open = true;
  let writeError: unknown;
  try {
    if (target.mode !== null) fchmodSync(fd, target.mode);
    let result: FixedCsvFile;
    try {
      result = fix((bytes) => {
        try {
          for (let at = 0; at < bytes.length;) at += writeSync(fd, bytes, at, bytes.length - at);
        } catch (e) {
          writeError = e;
          throw e;
        }
      });
    } catch (e) {
      // A refusal of the fix (RequestError) is the command's answer; a failed write is cannot_write.
      if (writeError === undefined) throw e;
      throw cannotWrite(file, writeError);
    }
    closeSync(fd);
    open = false;
    if (result.mended) renameSync(partial, file);
    return result;
  } catch (e) {
    if (e instanceof UsageError || writeError !== undefined || !isSystemError(e)) throw e;
    throw cannotWrite(file, e);
  } finally {
    if (open) closeSync(fd);
    rmSync(partial, { force: true });
  }
}

function isSystemError(e: unknown): boolean {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).syscall === 'string';
}

function describeFix(target: string, name: string, r: FixedCsvFile, lang: Lang): string {
  const v = r.validation;
  let text = !r.mended
    ? `${say(lang, 'verdict', { subject: name, verdict: say(lang, 'not_fixed') })}\n`
    : `${say(lang, 'fixed_file', { target, changes: r.change_count })}\n`;
  for (const c of r.changes) {
    text += `  ${say(lang, 'change', { row: c.row === null ? '-' : String(c.row), column: c.column ? ` ${c.column}` : '', rule: c.rule })}\n`;
  }
  if (r.change_count > r.changes.length)
    text += `  ${say(lang, 'more_changes', { n: r.change_count - r.changes.length })}\n`;
  const verdict = say(lang, v.file_rejected ? 'rejected' : v.valid ? 'valid' : 'invalid');
  text += `${say(lang, 'verdict', { subject: !r.mended ? name : target, verdict })}\n  ${say(
    lang,
    'file_counts',
    {
      total: v.rows_total,
      valid: v.rows_valid,
      invalid: v.rows_invalid,
      errors: v.error_count,
      warnings: v.warning_count,
      spec: v.spec_version,
    },
  )}\n`;
  return text + issuesText(v, lang);
}
