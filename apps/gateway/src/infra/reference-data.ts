import { loadReferenceLists, shippedReferenceDir } from '@ppfile/refdata';
import { CURRENT_SPEC_VERSION, type ReferenceLists } from '@ppfile/rules';

/** The reference lists of each spec version, read from PPFILE_REFERENCE_DATA (cached by libs/refdata). */
export class ReferenceData {
  /** Resolved once: finding the shipped directory walks the file system. */
  private readonly dir: string;
  constructor(dir: string | null) {
    this.dir = dir ?? shippedReferenceDir(CURRENT_SPEC_VERSION);
  }

  lists(specVersion: string): ReferenceLists {
    return loadReferenceLists(this.dir, specVersion);
  }
}
