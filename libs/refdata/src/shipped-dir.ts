import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { MANIFEST_FILE } from './manifest';
import { ReferenceDataError } from './errors';

/**
 * The reference-data/ directory committed with ppfile. Found by walking up from this file because the
 * depth differs between the sources (libs/refdata/src, under jest) and the build
 * (dist/cli/libs/refdata/src); requiring package.json beside it stops the walk at the repository root
 * rather than at a stray reference-data/ folder.
 */
export function shippedReferenceDir(specVersion: string, from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const candidate = join(dir, 'reference-data');
    if (existsSync(join(dir, 'package.json')) && existsSync(join(candidate, specVersion, MANIFEST_FILE))) {
      return candidate;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new ReferenceDataError(
        `shipped reference data for spec version ${specVersion} not found above ${from} ` +
          `(looked for reference-data/${specVersion}/${MANIFEST_FILE} beside a package.json)`,
      );
    }
    dir = parent;
  }
}
