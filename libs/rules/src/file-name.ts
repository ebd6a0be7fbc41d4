import type { Reason } from './messages';

/** The portal's rule for the name of a filed file (API.md §4 INVALID_FILENAME). */
const FORBIDDEN = /[@<>:"/\\|?*%]/;

export function fileNameProblem(name: string): Reason | null {
  if ([...name].length > 200) return 'filename_length';
  if (FORBIDDEN.test(name)) return 'filename_character';
  if (!/\.csv$/i.test(name)) return 'filename_extension';
  return null;
}

/** ppfile_<type>_<YYYYMMDD>_<8 hex>.csv (API.md §1), dated with the generation day in Europe/Paris. */
export function generatedFileName(type: string, day: number, hex8: string): string {
  return `ppfile_${type}_${day}_${hex8}.csv`;
}
