import type { ReferenceLists } from '@ppfile/rules/references';
import { CURRENT_SPEC_VERSION, findSpec } from '@ppfile/rules/format';
import { loadReferenceLists, type LoadMode } from './load';
import { shippedReferenceDir } from './shipped-dir';

/**
 * The reference directory of a process (PPFILE_REFERENCE_DATA, or the shipped one), resolved once:
 * finding the shipped directory walks the file system. Lists are cached by loadReferenceLists.
 */
export class ReferenceDirectory {
  readonly dir: string;

  /**
   * `mode`: `eager` for a server (every list read and checked when first asked, at boot), `lazy`
   * for a command line run (each list read when the work first needs it; load.ts).
   */
  constructor(
    dir: string | null,
    private readonly mode: LoadMode = 'eager',
  ) {
    this.dir = dir ?? shippedReferenceDir(CURRENT_SPEC_VERSION);
  }

  lists(specVersion: string): ReferenceLists {
    return loadReferenceLists(this.dir, specVersion, this.mode);
  }

  /**
   * The lists a request needs: those of its spec_version when it is a known one, else the current
   * version's (an unknown version is then refused by the rules with UNSUPPORTED_SPEC_VERSION).
   */
  listsFor(specVersion: unknown): ReferenceLists {
    return this.lists(
      typeof specVersion === 'string' && findSpec(specVersion) ? specVersion : CURRENT_SPEC_VERSION,
    );
  }
}
