import * as path from 'node:path';
import { importReferenceList, ReferenceDataError } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, REFERENCE_LIST_NAMES } from '@ppfile/rules';
import { EXIT_OK, printJson, usageError } from '../cli-io';
import type { Invocation } from '../invocation';
import { oneOf } from '../option-values';
import { referenceDir } from '../references';
import { say } from '../words';

/** `ppfile refdata import --list rome|formacode|nsf|rs FILE… [--dir DIR] [--partial]`. */
export function refdataImport({ values, positionals, output, env, lang }: Invocation): number {
  const list = oneOf('list', values.list, REFERENCE_LIST_NAMES);
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
    else output.out(`${say(lang, 'imported', { ...report, list })}\n`);
    return EXIT_OK;
  } catch (e) {
    if (e instanceof ReferenceDataError) throw usageError('import_failed', { detail: e.message });
    throw e;
  }
}
