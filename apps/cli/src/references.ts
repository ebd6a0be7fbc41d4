import { ReferenceDataError } from '@ppfile/refdata/errors';
import { ReferenceDirectory } from '@ppfile/refdata/reference-directory';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules/format';
import type { ReferenceLists } from '@ppfile/rules/references';
import { usageError, type UsageError } from './cli-io';

/** A reference-data problem is the CLI's usage/I-O error (exit 2, one line). */
function orUsageError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw referenceUsageError(e) ?? e;
  }
}

/**
 * The usage error a reference-data problem is, or null for any other error. The lists are read as
 * the work first needs them (below), so a bad list file may fail in the middle of a command: main.ts
 * asks here then.
 */
export function referenceUsageError(e: unknown): UsageError | null {
  return e instanceof ReferenceDataError ? usageError('reference_data', { detail: e.message }) : null;
}

/** PPFILE_REFERENCE_DATA points the CLI at another reference directory (API.md §13). */
export function referenceDir(env: NodeJS.ProcessEnv): string {
  return orUsageError(() => new ReferenceDirectory(env.PPFILE_REFERENCE_DATA || null).dir);
}

/**
 * The lists of a command: the manifest read now, each list file when the command first needs it
 * (libs/refdata load.ts, `lazy`): `ppfile validate` of a file without RS codes never reads rs.tsv,
 * and reads only the codes of rome.tsv, not its 18,317 labels.
 */
export function loadReferences(env: NodeJS.ProcessEnv, specVersion = CURRENT_SPEC_VERSION): ReferenceLists {
  return orUsageError(() =>
    new ReferenceDirectory(env.PPFILE_REFERENCE_DATA || null, 'lazy').lists(specVersion),
  );
}
