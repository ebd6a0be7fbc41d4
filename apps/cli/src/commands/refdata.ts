import * as path from 'node:path';
import { importReferenceList, ReferenceDataError } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, REFERENCE_LIST_NAMES } from '@ppfile/rules';
import { oneOf, parse } from '../args';
import { EXIT_OK, printJson, UsageError, type Output } from '../cli-io';
import { referenceDir } from '../references';

/** `ppfile refdata import --list rome|formacode|nsf|rs FILE… [--dir DIR] [--partial]`. */
export function refdataCommand(args: string[], output: Output, env: NodeJS.ProcessEnv): number {
  const [sub, ...rest] = args;
  if (sub !== 'import')
    throw new UsageError('usage: ppfile refdata import --list rome|formacode|nsf|rs FILE... [--dir DIR]');
  const { values, positionals } = parse(rest, {
    list: { type: 'string' },
    dir: { type: 'string' },
    partial: { type: 'boolean' },
    'spec-version': { type: 'string' },
    json: { type: 'boolean' },
  });
  const list = oneOf('list', values.list, REFERENCE_LIST_NAMES);
  if (positionals.length === 0) throw new UsageError('refdata import needs at least one FILE');
  const dir = typeof values.dir === 'string' ? path.resolve(values.dir) : referenceDir(env);
  try {
    const report = importReferenceList({
      list,
      files: positionals,
      dir,
      specVersion: (values['spec-version'] as string | undefined) ?? CURRENT_SPEC_VERSION,
      partial: values.partial === true,
    });
    if (values.json) printJson(output, report);
    else {
      output.out(
        `Imported ${report.count} ${list} code(s) into ${report.file} (${report.complete ? 'complete' : 'partial'}; ` +
          `source ${report.source}, version ${report.version}; ${report.skipped} row(s) skipped)\n`,
      );
    }
    return EXIT_OK;
  } catch (e) {
    if (e instanceof ReferenceDataError) throw new UsageError(e.message);
    throw e;
  }
}
