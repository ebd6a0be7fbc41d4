import { ReferenceDataError, ReferenceDirectory } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, type ReferenceLists } from '@ppfile/rules';
import { usageError } from './cli-io';

/** A reference-data problem is the CLI's usage/I-O error (exit 2, one line). */
function orUsageError<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof ReferenceDataError) throw usageError('reference_data', { detail: e.message });
    throw e;
  }
}

/** PPFILE_REFERENCE_DATA points the CLI at another reference directory (API.md §13). */
export function referenceDir(env: NodeJS.ProcessEnv): string {
  return orUsageError(() => new ReferenceDirectory(env.PPFILE_REFERENCE_DATA || null).dir);
}

export function loadReferences(env: NodeJS.ProcessEnv, specVersion = CURRENT_SPEC_VERSION): ReferenceLists {
  return orUsageError(() => new ReferenceDirectory(env.PPFILE_REFERENCE_DATA || null).lists(specVersion));
}
