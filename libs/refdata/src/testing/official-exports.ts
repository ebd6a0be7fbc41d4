/**
 * Where the tests find official reference exports (never used by production code).
 *
 * - Excerpts: a few records of each official file, cut byte for byte, committed under
 *   test/fixtures/official-exports (its README.md names the sources). Always available.
 * - The complete exports (ROME 18,317 competences, Formacode V14, Certif Info…) are too big to commit
 *   as published; the tests that import them run only when PPFILE_OFFICIAL_EXPORTS names a directory
 *   laid out like the excerpts (`rome/unix_referentiel_competence_v460_utf8.csv`,
 *   `formacode/formacodes-v14.csv`, …), and are skipped otherwise (docs/reference-data.md).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const OFFICIAL_EXPORTS_VARIABLE = 'PPFILE_OFFICIAL_EXPORTS';

/** The committed excerpts (repository root/test/fixtures/official-exports). */
export const EXCERPTS_DIR = resolve(__dirname, '../../../../test/fixtures/official-exports');

/** The directory of complete official exports, or null when PPFILE_OFFICIAL_EXPORTS is unset or empty. */
export function officialExportsDir(env: NodeJS.ProcessEnv = process.env): string | null {
  const dir = env[OFFICIAL_EXPORTS_VARIABLE];
  if (!dir) return null;
  const root = resolve(dir);
  // A variable that is set but wrong is a mistake to report, not a reason to skip quietly.
  if (!existsSync(root) || !statSync(root).isDirectory()) {
    throw new Error(`${OFFICIAL_EXPORTS_VARIABLE}=${dir}: no such directory`);
  }
  return root;
}

/** Suffix of the names of the suites that need the complete exports, so a skipped run says why. */
export const NEEDS_OFFICIAL_EXPORTS = `(needs ${OFFICIAL_EXPORTS_VARIABLE}; skipped when unset)`;

/** The note printed once by a test file whose complete-export suites are skipped. */
export const SKIPPED_NOTE =
  `${OFFICIAL_EXPORTS_VARIABLE} is not set: the tests over the complete official reference exports ` +
  `are skipped (excerpts in test/fixtures/official-exports are tested instead; docs/reference-data.md).`;

/** A file of the complete exports; fails clearly when the directory lacks it. */
export function officialExport(relative: string, env: NodeJS.ProcessEnv = process.env): string {
  const dir = officialExportsDir(env);
  if (dir === null) throw new Error(`${OFFICIAL_EXPORTS_VARIABLE} is not set (needed for ${relative})`);
  const file = join(dir, relative);
  if (!existsSync(file)) {
    throw new Error(
      `${file} not found: ${OFFICIAL_EXPORTS_VARIABLE} must name a directory laid out like test/fixtures/official-exports`,
    );
  }
  return file;
}

/** A committed excerpt of an official export. */
export function excerpt(relative: string): string {
  const file = join(EXCERPTS_DIR, relative);
  if (!existsSync(file))
    throw new Error(`excerpt not found: ${file} (see test/fixtures/official-exports/README.md)`);
  return file;
}
