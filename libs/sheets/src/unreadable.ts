import { formatErrorMessage, RequestError, type Lang } from '@ppfile/rules';

/**
 * The bounds of API.md §14: a workbook that would expand past 200 MB, or hold more than 1,000,000
 * cells, is refused (400 UNREADABLE_FILE) — checked before the work (the zip's central directory)
 * and while it streams (each inflated byte and each cell is counted), never after.
 */
export const SHEET_LIMITS = {
  maxExpandedBytes: 200 * 1024 * 1024,
  maxCells: 1_000_000,
  /** Parts of a workbook: a handful in practice; a zip of thousands of entries is not a workbook. */
  maxEntries: 10_000,
} as const;

/** Why a file is not a readable spreadsheet: `details.reason` of UNREADABLE_FILE. */
export const UNREADABLE_REASONS = {
  not_a_spreadsheet: {
    en: 'neither an XLSX workbook nor a text file',
    fr: 'ni un classeur XLSX ni un fichier texte',
  },
  corrupt_zip: { en: 'a damaged zip archive', fr: 'une archive zip endommagée' },
  encrypted: {
    en: 'an encrypted or password-protected workbook',
    fr: 'un classeur chiffré ou protégé par mot de passe',
  },
  legacy_xls: {
    en: 'an Excel 97-2003 (.xls) or encrypted workbook: save it as .xlsx',
    fr: 'un classeur Excel 97-2003 (.xls) ou chiffré : enregistrez-le en .xlsx',
  },
  not_xlsx: {
    en: 'a zip archive that is not an XLSX workbook',
    fr: "une archive zip qui n'est pas un classeur XLSX",
  },
  macros: {
    en: 'a macro-enabled workbook (.xlsm): save it as .xlsx without macros',
    fr: 'un classeur avec macros (.xlsm) : enregistrez-le en .xlsx sans macros',
  },
  external_links: {
    en: 'a workbook linked to other workbooks: paste the values and remove the links',
    fr: "un classeur lié à d'autres classeurs : collez les valeurs et supprimez les liaisons",
  },
  too_large_expanded: {
    en: 'it would expand past 200 MB',
    fr: 'il dépasserait 200 Mo une fois décompressé',
  },
  too_many_cells: { en: 'more than 1,000,000 cells', fr: 'plus de 1 000 000 de cellules' },
  bad_xml: {
    en: 'a part of the workbook is not well-formed XML',
    fr: "une partie du classeur n'est pas du XML bien formé",
  },
  no_header_row: {
    en: 'no row among the first 20 has three recognizable column headers',
    fr: "aucune des 20 premières lignes n'a trois en-têtes de colonnes reconnaissables",
  },
} as const;
export type UnreadableReason = keyof typeof UNREADABLE_REASONS;

/** 400 UNREADABLE_FILE, worded in the caller's language; details.reason is the machine-readable key. */
export function unreadable(reason: UnreadableReason, lang: Lang): RequestError {
  return new RequestError(
    'UNREADABLE_FILE',
    formatErrorMessage('UNREADABLE_FILE', lang, { detail: UNREADABLE_REASONS[reason][lang] }),
    { reason },
  );
}

/**
 * What the reading of one file may still spend: inflated bytes and cells, shared by every part and
 * sheet read. Spending past either bound throws UNREADABLE_FILE at once.
 */
export class ReadBudget {
  private bytes = 0;
  private cellCount = 0;

  constructor(
    readonly lang: Lang,
    private readonly limits: { maxExpandedBytes: number; maxCells: number } = SHEET_LIMITS,
  ) {}

  inflated(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxExpandedBytes) throw unreadable('too_large_expanded', this.lang);
  }

  cells(n = 1): void {
    this.cellCount += n;
    if (this.cellCount > this.limits.maxCells) throw unreadable('too_many_cells', this.lang);
  }

  get cellsRead(): number {
    return this.cellCount;
  }
}
