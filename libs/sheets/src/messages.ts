import { localize, type Lang, type MessageCatalogue, type MessageParams } from '@ppfile/rules';

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
};

export function sheetIssueMessage(code: SheetIssueCode, lang: Lang, params: SheetMessageParams): string {
  return localize(SHEET_MESSAGES[code], lang)(params);
}
