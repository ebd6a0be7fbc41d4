import { writeFileSync } from 'node:fs';
import { generateResponseBody, newFileId } from '@ppfile/contract';
import { generateFile } from '@ppfile/rules';
import { EXIT_OK, printJson, usageError } from '../cli-io';
import type { Invocation } from '../invocation';
import { maxRowsOption } from '../option-values';
import { loadReferences } from '../references';
import { say } from '../words';
import { readJsonBody } from './read-body';
import { issuesText, normalizationsText, todayOption } from './report';

/**
 * `ppfile generate BODY.json [-o OUT.csv]`: POST /v1/files/generate with store=false, offline (no row
 * limit unless --max-rows). Without -o and --json the CSV bytes go to standard output and the
 * summary to standard error.
 */
export async function generateCommand({
  values,
  positionals,
  output,
  env,
  lang,
}: Invocation): Promise<number> {
  const file = positionals[0]!;
  const today = todayOption(values.today);
  const maxRows = maxRowsOption(values['max-rows']);
  const refs = loadReferences(env);
  const body = await readJsonBody(file, lang);
  const generated = generateFile(body, { refs, today, lang, maxRows });
  const out = values.output as string | undefined;
  if (out) {
    try {
      writeFileSync(out, generated.content);
    } catch (e) {
      throw usageError('cannot_write', {
        file: out,
        reason: (e as NodeJS.ErrnoException).code ?? (e as Error).message,
      });
    }
  }
  if (values.json) {
    printJson(
      output,
      generateResponseBody(generated, {
        file_id: newFileId(),
        // No key offline, hence none of a test key's caps: what a live key would get.
        mode: 'live',
        stored: false,
        expires_at: null,
        download_url: null,
      }),
    );
    return EXIT_OK;
  }
  if (!out) output.out(generated.content.toString('utf8'));
  const summary = say(lang, 'generated', {
    target: out ?? say(lang, 'stdout'),
    rows: generated.rows,
    declarations: generated.declarations,
    sha256: generated.sha256,
    filename: generated.filename,
  });
  output.err(
    `${summary}\n` +
      issuesText({ error_count: 0, errors: [], ...generated }, lang) +
      normalizationsText(generated, lang),
  );
  return EXIT_OK;
}
