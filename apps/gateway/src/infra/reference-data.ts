import { loadReferenceLists, shippedReferenceDir } from '@ppfile/refdata';
import type { ReferenceLists } from '@ppfile/rules';

/** The reference lists of each spec version, read from PPFILE_REFERENCE_DATA (cached by libs/refdata). */
export class ReferenceData {
  private readonly dir: string | null;
  constructor(dir: string | null) {
    this.dir = dir;
  }

  lists(specVersion: string): ReferenceLists {
    return loadReferenceLists(this.dir ?? shippedReferenceDir(specVersion), specVersion);
  }
}
