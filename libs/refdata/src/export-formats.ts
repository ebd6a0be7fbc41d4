import { REFERENCE_CODE_FORMATS, type ReferenceListName } from '@ppfile/rules/references';
import { detectDelimiter, parseCsv } from './csv-text';
import { cleanLabel } from './list-file';

/**
 * How each list's official exports name their columns, so operators can import the files exactly as
 * published. Names are compared without case or accents; the first candidate present wins. A file
 * without a header (or whose header names none of them) is read as `code,label`.
 */
interface ExportFormat {
  readonly codeColumns: readonly string[];
  readonly labelColumns: readonly string[];
  /** Brings a raw cell to the form of REFERENCE_CODE_FORMATS; anything else is skipped afterwards. */
  readonly normalize: (raw: string) => string;
}

const trim = (raw: string): string => raw.trim();

export const EXPORT_FORMATS: Readonly<Record<ReferenceListName, ExportFormat>> = {
  // France Travail ROME 4.0 `unix_referentiel_competence_*.csv`: both natures (Compétence and
  // Macro-compétence) carry a code_ogr, and whether the portal accepts macro ids is unknown.
  rome: {
    codeColumns: ['code_ogr', 'code_ogr_competence', 'code'],
    labelColumns: ['libelle_competence', 'label', 'libelle'],
    normalize: trim,
  },
  // Centre Inffo Formacode file (`Code du Terme;Descripteur en majuscules;Descripteur en typo riche;…`):
  // the typo-riche descriptor is the label people read. Codes stay strings: leading zeros matter.
  formacode: {
    codeColumns: ['code du terme', 'code', 'formacode', 'code_formacode'],
    labelColumns: ['descripteur en typo riche', 'label', 'libelle'],
    normalize: trim,
  },
  nsf: {
    codeColumns: ['code', 'code_nsf', 'nsf'],
    labelColumns: ['label', 'libelle', 'intitule'],
    normalize: (raw) => raw.trim().toLowerCase(),
  },
  // France Compétences `export_fiches_CSV_Standard_*.csv` (Numero_Fiche holds RS and RNCP numbers;
  // RNCP rows fall out on the format check) and Certif Info open data (Code_RS holds bare digits).
  rs: {
    codeColumns: ['numero_fiche', 'code_rs', 'code'],
    labelColumns: ['intitule', 'libelle_diplome', 'label', 'libelle'],
    normalize: (raw) => {
      const compact = raw.replace(/\s+/g, '').toUpperCase();
      return /^\d+$/.test(compact) ? `RS${compact}` : compact;
    },
  },
};

export interface ExportContent {
  /** code → label, first label kept when a code repeats (a later non-empty label fills an empty one). */
  readonly entries: Map<string, string>;
  /** Data rows not imported because their code (after normalization) does not have the list's format. */
  readonly skipped: number;
  /** The header's column names, for error messages ([] when the file has no header). */
  readonly header: readonly string[];
}

export function readExport(list: ReferenceListName, text: string): ExportContent {
  const format = EXPORT_FORMATS[list];
  const pattern = REFERENCE_CODE_FORMATS[list];
  const rows = parseCsv(text, detectDelimiter(text));
  const entries = new Map<string, string>();
  if (rows.length === 0) return { entries, skipped: 0, header: [] };

  // The lists have no code that looks like a column name, so a first cell that is not a code is a header.
  const first = rows[0] ?? [];
  const hasHeader = !pattern.test(format.normalize(first[0] ?? ''));
  const header = hasHeader ? first : [];
  const names = header.map(columnKey);
  const find = (candidates: readonly string[]): number => {
    for (const c of candidates) {
      const at = names.indexOf(c);
      if (at !== -1) return at;
    }
    return -1;
  };
  const codeAt = Math.max(find(format.codeColumns), 0);
  const labelFound = find(format.labelColumns);
  const labelAt = labelFound !== -1 ? labelFound : codeAt + 1;

  let skipped = 0;
  for (let r = hasHeader ? 1 : 0; r < rows.length; r++) {
    const row = rows[r] ?? [];
    const code = format.normalize(row[codeAt] ?? '');
    if (!pattern.test(code)) {
      skipped++;
      continue;
    }
    const label = cleanLabel(row[labelAt] ?? '');
    const known = entries.get(code);
    if (known === undefined || (known === '' && label !== '')) entries.set(code, label);
  }
  return { entries, skipped, header };
}

function columnKey(name: string): string {
  return name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .trim()
    .toLowerCase();
}
