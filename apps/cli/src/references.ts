import * as path from 'node:path';
import { loadReferenceLists, shippedReferenceDir, ReferenceDataError } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, type ReferenceLists } from '@ppfile/rules';
import { UsageError } from './cli-io';

/** PPFILE_REFERENCE_DATA points the CLI at another reference directory (API.md §13). */
export function referenceDir(env: NodeJS.ProcessEnv): string {
  const dir = env.PPFILE_REFERENCE_DATA;
  try {
    return dir ? path.resolve(dir) : shippedReferenceDir(CURRENT_SPEC_VERSION);
  } catch (e) {
    if (e instanceof ReferenceDataError) throw new UsageError(e.message);
    throw e;
  }
}

export function loadReferences(env: NodeJS.ProcessEnv, specVersion = CURRENT_SPEC_VERSION): ReferenceLists {
  const dir = referenceDir(env);
  try {
    return loadReferenceLists(dir, specVersion);
  } catch (e) {
    if (e instanceof ReferenceDataError) throw new UsageError(e.message);
    throw e;
  }
}
