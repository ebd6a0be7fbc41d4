import { basename } from 'node:path';

/**
 * The manifest's `version` of an imported list. Publishers put it in the file name: a release
 * (`unix_referentiel_competence_v460_utf8.csv`, `formacodes-v14.csv`) or an export date
 * (`export_fiches_CSV_Standard_2025_01_01.csv`, `opendata-certifinfo-01012025.csv`). Otherwise the
 * file's modification day is the best statement of how recent the list is.
 */
export function versionFromFileName(file: string, modified: Date): string {
  const name = basename(file);
  const release = /(?:^|[^a-z0-9])v(\d+)(?![0-9])/i.exec(name);
  if (release) return `v${release[1]}`;
  const isoDate = /(?<!\d)((?:19|20)\d\d)[-_.]?(0[1-9]|1[0-2])[-_.]?(0[1-9]|[12]\d|3[01])(?!\d)/.exec(name);
  if (isoDate) return `${isoDate[1]}-${isoDate[2]}-${isoDate[3]}`;
  const frenchDate = /(?<!\d)(0[1-9]|[12]\d|3[01])[-_.]?(0[1-9]|1[0-2])[-_.]?((?:19|20)\d\d)(?!\d)/.exec(
    name,
  );
  if (frenchDate) return `${frenchDate[3]}-${frenchDate[2]}-${frenchDate[1]}`;
  return modified.toISOString().slice(0, 10);
}
