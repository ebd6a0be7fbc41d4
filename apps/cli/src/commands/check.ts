import { validateDeclarations, type DeclarationValidationResponse, type Lang } from '@ppfile/rules';
import { EXIT_INVALID, EXIT_OK, printJson } from '../cli-io';
import type { Invocation } from '../invocation';
import { maxRowsOption } from '../option-values';
import { loadReferences } from '../references';
import { say } from '../words';
import { readJsonBody } from './read-body';
import { issuesText, normalizationsText, subject, todayOption } from './report';

/** `ppfile check BODY.json`: POST /v1/declarations/validate, offline (no row limit unless --max-rows). */
export async function checkCommand({ values, positionals, output, env, lang }: Invocation): Promise<number> {
  const file = positionals[0]!;
  const today = todayOption(values.today);
  const maxRows = maxRowsOption(values['max-rows']);
  const refs = loadReferences(env);
  const body = await readJsonBody(file, lang);
  const result = validateDeclarations(body, { refs, today, lang, maxRows });
  if (values.json) printJson(output, result);
  else output.out(describe(subject(file, lang), result, lang));
  return result.valid ? EXIT_OK : EXIT_INVALID;
}

function describe(name: string, r: DeclarationValidationResponse, lang: Lang): string {
  const verdict = say(lang, r.valid ? 'valid' : 'invalid');
  const counts = say(lang, 'body_counts', {
    total: r.rows_total,
    valid: r.rows_valid,
    invalid: r.rows_invalid,
    errors: r.error_count,
    warnings: r.warning_count,
    normalizations: r.normalization_count,
    spec: r.spec_version,
  });
  return (
    `${say(lang, 'verdict', { subject: name, verdict })}\n  ${counts}\n` +
    issuesText(r, lang) +
    normalizationsText(r, lang)
  );
}
