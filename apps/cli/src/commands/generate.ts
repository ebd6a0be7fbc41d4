import { writeFileSync } from 'node:fs';
import { generateResponseBody, newFileId } from '@ppfile/contract';
import { generateFile } from '@ppfile/rules';
import { langOption, parse, single, todayOption } from '../args';
import { EXIT_OK, formatIssues, printJson, UsageError, type Output } from '../cli-io';
import { loadReferences } from '../references';
import { readJsonBody } from './read-body';

/**
 * `ppfile generate BODY.json [-o OUT.csv]`: POST /v1/files/generate with store=false, offline.
 * Without -o and --json the CSV bytes go to standard output and the summary to standard error.
 */
export function generateCommand(args: string[], output: Output, env: NodeJS.ProcessEnv): number {
  const { values, positionals } = parse(args, {
    output: { type: 'string', short: 'o' },
    today: { type: 'string' },
    lang: { type: 'string' },
    json: { type: 'boolean' },
  });
  const file = single(positionals, 'JSON body file');
  const lang = langOption(values.lang);
  const today = todayOption(values.today);
  const body = readJsonBody(file, lang);
  const generated = generateFile(body, { refs: loadReferences(env), today, lang, maxRows: 50_000 });
  const out = values.output as string | undefined;
  if (out) {
    try {
      writeFileSync(out, generated.content);
    } catch (e) {
      throw new UsageError(
        `cannot write ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
      );
    }
  }
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
  if (!out) output.out(generated.content.toString('utf8'));
  output.err(
    `${out ?? 'stdout'}: ${generated.rows} row(s), ${generated.declarations} declaration(s), sha256 ${generated.sha256}, suggested name ${generated.filename}\n` +
      formatIssues(generated.warnings, 'warning') +
      generated.normalizations.map((n) => `  normalized ${n.field} (${n.column}): ${n.rule}\n`).join(''),
  );
  return EXIT_OK;
}
