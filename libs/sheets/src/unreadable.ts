import { formatErrorMessage, localize, RequestError, type Lang, type Localized } from '@ppfile/rules';

/** The bounds of reading one file (ReadBudget), all of them. */
export interface ReadLimits {
  /** Bytes inflated from a workbook's zip, all parts together. */
  readonly maxExpandedBytes: number;
  /**
   * Cells a file holds (API.md §14's 1,000,000), counted as the sheet streams: each cell element of a
   * workbook (`<c>`: what the workbook stores, a value or only a format), each non-empty field of a
   * CSV (an empty field stores nothing); and the strings of a workbook's shared-string table.
   */
  readonly maxCells: number;
  /** Parts of a workbook: a handful in practice; a zip of thousands of entries is not a workbook. */
  readonly maxEntries: number;
  /** Sheets a workbook lists (each may be read looking for the header row). */
  readonly maxSheets: number;
  /** XML elements of all the parts read, cells included (a cell is two or three). */
  readonly maxElements: number;
  /** How deep XML elements nest (SpreadsheetML needs fewer than 15). */
  readonly maxDepth: number;
  /** Characters of one cell's text, or one shared string: Excel's own limit. */
  readonly maxCellChars: number;
  /**
   * Characters the XML parser may hold between two events: one name, attribute, run of text or of
   * white space (what a cell may hold, and more, but not the 100 MB attribute of a hostile part).
   */
  readonly maxXmlTokenChars: number;
}

/**
 * The bounds of API.md §14: a workbook that would expand past 200 MB, or hold more than 1,000,000
 * cells, is refused (400 UNREADABLE_FILE) — checked before the work (the zip's central directory)
 * and while it streams (each inflated byte and each cell is counted), never after. One rule for XLSX
 * and CSV (ReadBudget.cell). A full sheet of 50,000 rows fits in adf (at most 19 columns filled a
 * row) but not in jdr (29): such a jdr file is split in two, or made by `generate` from JSON.
 */
export const SHEET_LIMITS: ReadLimits = {
  maxExpandedBytes: 200 * 1024 * 1024,
  maxCells: 1_000_000,
  maxEntries: 10_000,
  maxSheets: 1_000,
  maxElements: 10_000_000,
  maxDepth: 64,
  maxCellChars: 32_767,
  maxXmlTokenChars: 1 << 20,
};

/** Why a file is not a readable spreadsheet: `details.reason` of UNREADABLE_FILE. */
export const UNREADABLE_REASONS = {
  not_a_spreadsheet: {
    en: 'neither an XLSX workbook nor a text file in UTF-8 or Windows-1252, such as a UTF-16 "Unicode text" export: save it as .xlsx or as CSV UTF-8',
    fr: 'ni un classeur XLSX ni un fichier texte en UTF-8 ou Windows-1252, comme un export « Texte Unicode » en UTF-16 : enregistrez-le en .xlsx ou en CSV UTF-8',
  },
  corrupt_zip: {
    en: 'a damaged zip archive: save or export the workbook again',
    fr: 'une archive zip endommagée : enregistrez ou exportez de nouveau le classeur',
  },
  encrypted: {
    en: 'protected by a password: remove it (File › Info › Protect Workbook › Encrypt with Password, empty the box), then save it as .xlsx',
    fr: 'protégé par un mot de passe : retirez-le (Fichier › Informations › Protéger le classeur › Chiffrer avec mot de passe, videz la case), puis enregistrez-le en .xlsx',
  },
  legacy_xls: {
    en: 'an Excel 97-2003 workbook (.xls): save it as .xlsx',
    fr: 'un classeur Excel 97-2003 (.xls) : enregistrez-le en .xlsx',
  },
  xlsb: {
    en: 'an Excel binary workbook (.xlsb): save it as .xlsx',
    fr: 'un classeur binaire Excel (.xlsb) : enregistrez-le en .xlsx',
  },
  not_xlsx: {
    en: 'a zip archive that is not an XLSX workbook, such as an OpenDocument .ods: save the spreadsheet as .xlsx',
    fr: "une archive zip qui n'est pas un classeur XLSX, comme un fichier OpenDocument .ods : enregistrez le classeur en .xlsx",
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
    en: 'it would expand past 200 MB: split its rows over several files',
    fr: 'il dépasserait 200 Mo une fois décompressé : répartissez ses lignes sur plusieurs fichiers',
  },
  too_many_cells: {
    en: 'more than 1,000,000 cells: split its rows over several files',
    fr: 'plus de 1 000 000 de cellules : répartissez ses lignes sur plusieurs fichiers',
  },
  bad_xml: {
    en: 'a part of the workbook is not well-formed XML: open it in Excel or LibreOffice and save it again as .xlsx',
    fr: "une partie du classeur n'est pas du XML bien formé : ouvrez-le dans Excel ou LibreOffice et enregistrez-le de nouveau en .xlsx",
  },
  too_many_sheets: {
    en: 'more than 1,000 sheets: copy the Passeport sheet into a workbook of its own',
    fr: 'plus de 1 000 feuilles : copiez la feuille du Passeport dans un classeur à part',
  },
  too_many_elements: {
    en: 'its XML holds more than 10,000,000 elements',
    fr: "son XML contient plus de 10 000 000 d'éléments",
  },
  too_deep: {
    en: 'its XML nests elements more than 64 deep, which no spreadsheet program writes',
    fr: "son XML imbrique des éléments sur plus de 64 niveaux, ce qu'aucun tableur n'écrit",
  },
  cell_too_long: {
    en: 'a cell holds more than 32,767 characters, the most a cell of Excel can hold',
    fr: "une cellule contient plus de 32 767 caractères, le maximum d'une cellule d'Excel",
  },
  xml_token_too_long: {
    en: 'its XML holds a name, an attribute or a run of text or spaces longer than 1 MiB',
    fr: "son XML contient un nom, un attribut ou une suite de texte ou d'espaces de plus de 1 Mio",
  },
  too_slow: {
    en: 'reading it took longer than the time allowed to one file (no spreadsheet program writes such a file): save it again as .xlsx or .csv',
    fr: "sa lecture a dépassé le temps accordé à un fichier (aucun tableur n'écrit un tel fichier) : enregistrez-le de nouveau en .xlsx ou .csv",
  },
  no_header_row: {
    en: 'no row among the first 20 has three recognizable column headers',
    fr: "aucune des 20 premières lignes n'a trois en-têtes de colonnes reconnaissables",
  },
  empty: {
    en: 'the file is empty',
    fr: 'le fichier est vide',
  },
} satisfies Record<string, Localized<string>>;
export type UnreadableReason = keyof typeof UNREADABLE_REASONS;

/**
 * Refusals of a file that is a readable spreadsheet, or no file at all: worded as a sentence of
 * their own, not as "not a readable XLSX or CSV spreadsheet" (issue 33). no_header_row's message is
 * made by the header search (header-search.ts), which says what it found.
 */
const OWN_SENTENCES: Partial<Record<UnreadableReason, Localized<string>>> = {
  empty: {
    en: 'The file is empty (0 bytes): export the spreadsheet again and send that file.',
    fr: 'Le fichier est vide (0 octet) : exportez de nouveau le classeur et envoyez ce fichier.',
  },
  no_header_row: {
    en: 'No header row: no row among the first 20 of a sheet has three recognizable column headers.',
    fr: "Aucune ligne d'en-têtes : aucune des 20 premières lignes d'une feuille n'a trois en-têtes de colonnes reconnaissables.",
  },
};

/**
 * 400 UNREADABLE_FILE, worded in the caller's language; details.reason is the machine-readable key
 * (the contract's error details take no other key: what else the refusal knows is in `message`).
 */
export function unreadable(reason: UnreadableReason, lang: Lang, message?: string): RequestError {
  const own = OWN_SENTENCES[reason];
  return new RequestError(
    'UNREADABLE_FILE',
    message ??
      (own
        ? localize(own, lang)
        : formatErrorMessage('UNREADABLE_FILE', lang, {
            detail: localize(UNREADABLE_REASONS[reason], lang),
          })),
    { reason },
  );
}

/**
 * What the reading of one file may still spend: inflated bytes and cells, shared by every part and
 * sheet read, with one rule for both readers (XLSX and CSV, ReadLimits.maxCells). Spending past a
 * bound throws UNREADABLE_FILE at once.
 */
export class ReadBudget {
  private bytes = 0;
  private cells = 0;
  private elements = 0;

  constructor(
    readonly lang: Lang,
    readonly limits: ReadLimits = SHEET_LIMITS,
  ) {}

  inflated(n: number): void {
    this.bytes += n;
    if (this.bytes > this.limits.maxExpandedBytes) throw unreadable('too_large_expanded', this.lang);
  }

  /** A cell the file holds: a workbook's cell element, a CSV's non-empty field. */
  cell(): void {
    if (++this.cells > this.limits.maxCells) throw unreadable('too_many_cells', this.lang);
  }

  /** An XML element opened at this depth (1: the root), in any part read. */
  element(depth: number): void {
    if (++this.elements > this.limits.maxElements) throw unreadable('too_many_elements', this.lang);
    if (depth > this.limits.maxDepth) throw unreadable('too_deep', this.lang);
  }

  /** A cell's text or a shared string, as it grows: at most maxCellChars characters. */
  cellText(text: string): string {
    if (text.length > this.limits.maxCellChars) throw unreadable('cell_too_long', this.lang);
    return text;
  }

  /** A workbook's shared-string table, as it grows: no more strings than maxCells. */
  sharedStrings(count: number): void {
    if (count > this.limits.maxCells) throw unreadable('too_many_cells', this.lang);
  }

  get cellsHeld(): number {
    return this.cells;
  }
}
