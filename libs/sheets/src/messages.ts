import {
  localize,
  type Lang,
  type Localized,
  type MessageCatalogue,
  type MessageParams,
} from '@ppfile/rules';

/**
 * Codes of the problems an import finds in the cells themselves (API.md §14 `issues`), before the
 * validation of the body. More may be added; codes are never renamed.
 */
export const SHEET_ISSUE_CODES = [
  'UNREADABLE_DATE',
  'UNREADABLE_NUMBER',
  'UNREADABLE_CELL',
  'DECLARATION_VALUES_DIFFER',
  'CELL_IGNORED',
  'UNCOMPUTED_FORMULA',
] as const;
export type SheetIssueCode = (typeof SHEET_ISSUE_CODES)[number];

/**
 * An issue's parameters: its column; UNREADABLE_CELL's `detail`, an error value (`#N/A`) or `boolean`
 * for a cell that is not a yes/no; DECLARATION_VALUES_DIFFER's `first_row`.
 */
export type SheetMessageParams = Pick<MessageParams, 'column' | 'detail' | 'first_row'> & { column: string };

/**
 * The catalogue of the import's issues, English and French. Parameters are column names, rows and
 * spreadsheet error values (`#N/A`) — never a value of a cell: a NIR or a name cannot appear here.
 */
const SHEET_MESSAGES: MessageCatalogue<SheetIssueCode> = {
  UNREADABLE_DATE: {
    en: (p) =>
      `${p.column}: not a date (a date cell, or text dd/mm/yyyy, d/m/yyyy or yyyy-mm-dd); the text is kept as it is.`,
    fr: (p) =>
      `${p.column} : ce n'est pas une date (une cellule date, ou un texte jj/mm/aaaa, j/m/aaaa ou aaaa-mm-jj) ; le texte est gardé tel quel.`,
  },
  UNREADABLE_NUMBER: {
    en: (p) =>
      `${p.column}: a number with a decimal part cannot be read as digits; format the column as text and type the value again.`,
    fr: (p) =>
      `${p.column} : un nombre à virgule ne peut pas être lu comme des chiffres ; mettez la colonne au format texte et saisissez à nouveau la valeur.`,
  },
  UNREADABLE_CELL: {
    en: (p) =>
      p.detail === 'boolean'
        ? `${p.column}: not a yes/no value (OUI/NON, yes/no, true/false, 1/0, x); the cell is ignored.`
        : `${p.column}: the cell holds the error value ${p.detail ?? ''}; it is read as empty.`,
    fr: (p) =>
      p.detail === 'boolean'
        ? `${p.column} : ce n'est pas un oui/non (OUI/NON, yes/no, true/false, 1/0, x) ; la cellule est ignorée.`
        : `${p.column} : la cellule contient la valeur d'erreur ${p.detail ?? ''} ; elle est lue comme vide.`,
  },
  DECLARATION_VALUES_DIFFER: {
    en: (p) =>
      `${p.column} differs from the first row of this declaration (row ${p.first_row}), whose value is kept: rows sharing ID_DECLARATION must agree on it.`,
    fr: (p) =>
      `${p.column} diffère de la première ligne de cette déclaration (ligne ${p.first_row}), dont la valeur est gardée : les lignes d'un même ID_DECLARATION doivent s'accorder.`,
  },
  CELL_IGNORED: {
    en: (p) => `${p.column} is ignored: PRESENCE_FORMATION is NON for this declaration.`,
    fr: (p) => `${p.column} est ignorée : PRESENCE_FORMATION vaut NON pour cette déclaration.`,
  },
  UNCOMPUTED_FORMULA: {
    en: (p) =>
      `${p.column}: a formula that was never computed (the file holds no result for it): open and save the file in Excel or LibreOffice; the cell is read as empty.`,
    fr: (p) =>
      `${p.column} : une formule qui n'a jamais été calculée (le fichier n'en contient pas le résultat) : ouvrez et enregistrez le fichier dans Excel ou LibreOffice ; la cellule est lue comme vide.`,
  },
};

export function sheetIssueMessage(code: SheetIssueCode, lang: Lang, params: SheetMessageParams): string {
  return localize(SHEET_MESSAGES[code], lang)(params);
}

/** What the header search found in one sheet (or a CSV), for the no_header_row refusal. */
export interface HeaderSearch {
  /** The sheet's name; for a CSV, the file's name. */
  sheet: string;
  /** A CSV or TSV: its rows are named without a sheet. */
  csv?: boolean;
  hidden: boolean;
  /** Set when this (hidden) sheet has a header row: the default reads visible sheets only. */
  headerRow?: number;
  /** A row that is a header row once the quotes around its texts are taken off. */
  quotedRow?: number;
  /** The row that came closest: the columns it names, and its other header-like texts. */
  best?: { row: number; recognized: string[]; unmatched: string[] };
}

const SHEETS_NAMED = 5;
const MISSING_NAMED = 6;
const NEAR_MISSES_LISTED = 5;
const HEADER_CHARS = 40;

/** A text echoed back, cut to `max` characters (an ellipsis marks the cut). */
export const cutText = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}…`;

/** `A`, `A and B`, `A, B and C` (`et` in French). */
function andList(items: string[], lang: Lang): string {
  const and = lang === 'fr' ? ' et ' : ' and ';
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')}${and}${items.at(-1)}`;
}

/** The first `max` items, then `…` when there are more. */
export function someOf(items: string[], max: number): string {
  return items.length <= max ? items.join(', ') : `${items.slice(0, max).join(', ')}, …`;
}

const NO_HEADER: Localized<{
  lead: string;
  hidden: (sheet: string, row: number) => string;
  quoted: (where: string) => string;
  read: (sheets: string) => string;
  where: (sheet: string | null, row: number) => string;
  found: (where: string, recognized: string, missing: string) => string;
  nothing: string;
  near: (pairs: string) => string;
  nearPair: (header: string, column: string) => string;
  hiddenMark: string;
  advice: string;
}> = {
  en: {
    lead: 'No header row: no row among the first 20 of a sheet has three recognizable column headers.',
    hidden: (sheet, row) =>
      `The headers are on sheet ${sheet} (row ${row}), which is hidden: show it (right-click a sheet tab › Unhide) or name it (the sheet field, --sheet on the command line).`,
    quoted: (where) =>
      `${where} holds the headers inside quotes: with | as the separator a quote is part of the text, as in the official format. Export the file again without quotes around texts (LibreOffice: untick "Quote all text cells"), or with ; as the separator.`,
    read: (sheets) => `Sheets read: ${sheets}.`,
    where: (sheet, row) => (sheet === null ? `Row ${row}` : `Sheet ${sheet}, row ${row}`),
    found: (where, recognized, missing) =>
      `${where}: ${recognized} recognized${missing ? `; ${missing} missing` : ''}.`,
    nothing:
      'No header names an official column (headers are compared with the columns’ names, labels and the synonyms of the documentation).',
    near: (pairs) => `${pairs}.`,
    nearPair: (header, column) => `"${header}" looks like ${column}`,
    hiddenMark: ' (hidden)',
    advice:
      'Name the columns as the template does (row 1: ID_DECLARATION, NIR, …), or say which column each header is (mapping, --mapping).',
  },
  fr: {
    lead: "Aucune ligne d'en-têtes : aucune des 20 premières lignes d'une feuille n'a trois en-têtes de colonnes reconnaissables.",
    hidden: (sheet, row) =>
      `Les en-têtes sont sur la feuille ${sheet} (ligne ${row}), qui est masquée : affichez-la (clic droit sur un onglet › Afficher) ou nommez-la (champ sheet, --sheet en ligne de commande).`,
    quoted: (where) =>
      `${where} porte les en-têtes entre guillemets : avec le séparateur | un guillemet fait partie du texte, comme dans le format officiel. Exportez de nouveau le fichier sans guillemets autour des textes (LibreOffice : décochez « Mettre entre guillemets toutes les cellules de texte »), ou avec le séparateur ;.`,
    read: (sheets) => `Feuilles lues : ${sheets}.`,
    where: (sheet, row) => (sheet === null ? `Ligne ${row}` : `Feuille ${sheet}, ligne ${row}`),
    found: (where, recognized, missing) =>
      `${where} : ${recognized} reconnu${recognized.includes(',') || recognized.includes(' et ') ? 's' : ''}${missing ? ` ; manquent ${missing}` : ''}.`,
    nothing:
      'Aucun en-tête ne nomme une colonne officielle (les en-têtes sont comparés aux noms des colonnes, à leurs libellés et aux synonymes de la documentation).',
    near: (pairs) => `${pairs}.`,
    nearPair: (header, column) => `« ${header} » ressemble à ${column}`,
    hiddenMark: ' (masquée)',
    advice:
      'Nommez les colonnes comme le modèle (ligne 1 : ID_DECLARATION, NIR, …), ou indiquez la colonne de chaque en-tête (mapping, --mapping).',
  },
};

/**
 * The message of UNREADABLE_FILE `no_header_row` (issue 33): which sheets were read, the row that
 * came closest with the columns it names and the required ones it lacks, near misses, a hidden sheet
 * that has the headers, headers found inside quotes. It quotes header texts only (a near miss is one
 * or two typing slips from a column's name, label or synonym), never a data cell.
 */
export function noHeaderRowMessage(
  searched: HeaderSearch[],
  required: readonly string[],
  nearMiss: (header: string) => string | undefined,
  lang: Lang,
): string {
  const m = localize(NO_HEADER, lang);
  const workbook = !searched.some((s) => s.csv);
  const name = (s: HeaderSearch) => cutText(s.sheet, 31);
  const hidden = searched.find((s) => s.headerRow !== undefined);
  if (hidden) return m.hidden(name(hidden), hidden.headerRow!);
  const out: string[] = [];
  const quoted = searched.find((s) => s.quotedRow !== undefined);
  if (quoted) return m.quoted(m.where(workbook ? name(quoted) : null, quoted.quotedRow!));
  out.push(m.lead);
  if (workbook && searched.length) {
    const names = searched.map((s) => `${name(s)}${s.hidden ? m.hiddenMark : ''}`);
    out.push(m.read(someOf(names, SHEETS_NAMED)));
  }
  let best: HeaderSearch | undefined;
  const score = (s: HeaderSearch) => s.best?.recognized.length ?? 0;
  for (const s of searched) if (score(s) > 0 && (best === undefined || score(s) > score(best))) best = s;
  if (best?.best && best.best.recognized.length) {
    const { row, recognized, unmatched } = best.best;
    const nearMisses: { header: string; column: string }[] = [];
    for (const header of unmatched) {
      const column = nearMiss(header);
      if (column !== undefined && !recognized.includes(column)) nearMisses.push({ header, column });
      if (nearMisses.length >= NEAR_MISSES_LISTED) break;
    }
    const missing = required.filter((c) => !recognized.includes(c));
    out.push(
      m.found(
        m.where(workbook ? name(best) : null, row),
        andList(recognized, lang),
        someOf(missing, MISSING_NAMED),
      ),
    );
    if (nearMisses.length) {
      out.push(
        m.near(nearMisses.map((n) => m.nearPair(cutText(n.header, HEADER_CHARS), n.column)).join('; ')),
      );
    }
  } else {
    out.push(m.nothing);
  }
  out.push(m.advice);
  return out.join(' ');
}
