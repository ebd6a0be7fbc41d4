import { CURRENT_LIMITS, validateDeclarations, type DeclarationValidationResponse } from '@ppfile/rules';
import { langOption, parse, single, todayOption } from '../args';
import { EXIT_INVALID, EXIT_OK, formatIssues, printJson, type Output } from '../cli-io';
import { loadReferences } from '../references';
import { readJsonBody } from './read-body';

/** `ppfile check BODY.json`: POST /v1/declarations/validate, offline. */
export function checkCommand(args: string[], output: Output, env: NodeJS.ProcessEnv): number {
  const { values, positionals } = parse(args, {
    today: { type: 'string' },
    lang: { type: 'string' },
    json: { type: 'boolean' },
  });
  const file = single(positionals, 'JSON body file');
  const lang = langOption(values.lang);
  const today = todayOption(values.today);
  const body = readJsonBody(file, lang);
  const result = validateDeclarations(body, {
    refs: loadReferences(env),
    today,
    lang,
    maxRows: CURRENT_LIMITS.maxRowsLive,
  });
  if (values.json) printJson(output, result);
  else output.out(describe(file, result));
  return result.valid ? EXIT_OK : EXIT_INVALID;
}

function describe(file: string, r: DeclarationValidationResponse): string {
  let text = `${file}: ${r.valid ? 'valid' : 'invalid'}\n`;
  text += `  rows: ${r.rows_total} total, ${r.rows_valid} valid, ${r.rows_invalid} invalid; ${r.error_count} error(s), ${r.warning_count} warning(s), ${r.normalization_count} normalization(s) (spec ${r.spec_version})\n`;
  text += formatIssues(r.errors, 'error  ');
  if (r.truncated) text += `  … ${r.error_count - r.errors.length} more error(s) not listed\n`;
  text += formatIssues(r.warnings, 'warning');
  for (const n of r.normalizations) text += `  normalized ${n.field} (${n.column}): ${n.rule}\n`;
  return text;
}
