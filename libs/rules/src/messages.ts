import { localize, type Lang, type Localized } from './catalogue';
import type { FormatErrorCode, IssueCode } from './codes';
import type { ReferenceListName } from './references';
import { codePointName, type CharacterProblem } from './values/text';

/**
 * The format's message catalogue (English and French): its issues and the requests it refuses; the
 * HTTP contract (libs/contract) words its own codes with the same shape, `MessageCatalogue`, and the
 * same parameters. Templates take only non-personal parameters:
 * column names, limits, counts, list names, dates of deadlines. A NIR, a name or any other value of
 * a cell is never a parameter — messages cannot leak personal data by construction.
 */
export interface MessageParams {
  column?: string;
  max?: number;
  min?: number;
  count?: number;
  length?: number;
  list?: string;
  expected?: string;
  position?: number;
  deadline?: string;
  limit?: number;
  /** `test`: a test key's monthly allowance of rows, not a plan's units (libs/contract QUOTA_EXCEEDED). */
  mode?: 'live' | 'test';
  first_row?: number;
  detail?: string;
  /** A key of REASONS: why a value must be empty, or what is wrong with a NIR. */
  reason?: Reason;
  /** INVALID_CHARACTER: the code point of the character refused (never the value) and why. */
  code_point?: number;
  character?: CharacterProblem;
}

/** Short explanations inserted in some messages; keys, so that messages stay catalogued. */
const REASONS = {
  declarant: { en: 'not for this declarant', fr: 'pas pour ce déclarant' },
  training: { en: 'PRESENCE_FORMATION is not OUI', fr: "PRESENCE_FORMATION n'est pas OUI" },
  certifying: { en: 'FORMATION_CERTIFIANTE is not OUI', fr: "FORMATION_CERTIFIANTE n'est pas OUI" },
  not_certifying: { en: 'FORMATION_CERTIFIANTE is not NON', fr: "FORMATION_CERTIFIANTE n'est pas NON" },
  not_certifying_or_unset: { en: 'FORMATION_CERTIFIANTE is OUI', fr: 'FORMATION_CERTIFIANTE vaut OUI' },
  employer_present: { en: 'PRESENCE_EMPLOYEUR is not OUI', fr: "PRESENCE_EMPLOYEUR n'est pas OUI" },
  length: { en: 'it does not have 13 characters', fr: "il n'a pas 13 caractères" },
  sex: {
    en: 'the first digit is not 1, 2, 3, 4, 7 or 8',
    fr: "le premier chiffre n'est pas 1, 2, 3, 4, 7 ou 8",
  },
  month: { en: 'the month is impossible', fr: 'le mois est impossible' },
  department: { en: 'the département is impossible', fr: 'le département est impossible' },
  digits: {
    en: 'a character that must be a digit is not',
    fr: "un caractère qui doit être un chiffre n'en est pas un",
  },
  order: { en: 'the order number is 000', fr: "le numéro d'ordre vaut 000" },
  filename_length: { en: 'more than 200 characters', fr: 'plus de 200 caractères' },
  filename_character: { en: 'a forbidden character', fr: 'un caractère interdit' },
  filename_extension: { en: 'not a .csv file', fr: 'pas un fichier .csv' },
  bom: { en: 'a byte-order mark is present', fr: "une marque d'ordre des octets est présente" },
  utf8: { en: 'bytes that are not UTF-8', fr: 'des octets qui ne sont pas de l’UTF-8' },
  mixed: {
    en: 'this line holds bytes that are not UTF-8 while the rest of the file is UTF-8, as when text is pasted from another program: a file in two encodings is not read, its names would come out wrong; type that line’s accented letters again',
    fr: 'cette ligne contient des octets qui ne sont pas de l’UTF-8 alors que le reste du fichier en est, comme après un copier-coller depuis un autre logiciel : un fichier en deux encodages n’est pas lu, ses noms en sortiraient faux ; retapez les lettres accentuées de cette ligne',
  },
} as const;
export type Reason = keyof typeof REASONS;

function reason(p: MessageParams, lang: Lang, prefix: string, suffix = ''): string {
  return p.reason ? `${prefix}${REASONS[p.reason][lang]}${suffix}` : '';
}

/** One message of a catalogue: its parameters in, its text out. */
export type MessageTemplate = (p: MessageParams) => string;
/**
 * A catalogue of codes, this library's and the HTTP contract's (libs/contract): one template per
 * code, in every language (`Localized`, the one shape of ppfile's catalogues).
 */
export type MessageCatalogue<K extends string> = Record<K, Localized<MessageTemplate>>;

/** How messages and the spreadsheet template name the reference lists (`p.list`). */
export const REFERENCE_LIST_TITLES: Readonly<Record<ReferenceListName, Localized<string>>> = {
  rome: { en: 'ROME', fr: 'ROME' },
  formacode: { en: 'Formacode', fr: 'Formacode' },
  nsf: { en: 'NSF', fr: 'NSF' },
  rs: { en: 'RS (Répertoire spécifique)', fr: 'RS (Répertoire spécifique)' },
};

function listTitle(p: MessageParams, lang: Lang): string {
  const entry = REFERENCE_LIST_TITLES[p.list as ReferenceListName] as Localized<string> | undefined;
  return entry ? localize(entry, lang) : (p.list ?? '');
}

const ISSUE_MESSAGES: MessageCatalogue<IssueCode> = {
  EMPTY_FILE: {
    en: () => 'The file is empty: it has no header line.',
    fr: () => "Le fichier est vide : il n'a pas de ligne d'en-tête.",
  },
  INVALID_ENCODING: {
    en: (p) => `The file must be UTF-8 without a byte-order mark${reason(p, 'en', ' (', ')')}.`,
    fr: (p) => `Le fichier doit être en UTF-8 sans marque d'ordre des octets${reason(p, 'fr', ' (', ')')}.`,
  },
  INVALID_SEPARATOR: {
    en: () => 'The header line is not separated by "|".',
    fr: () => "La ligne d'en-tête n'est pas séparée par « | ».",
  },
  INVALID_HEADER: {
    en: (p) =>
      `The header does not match the official columns for this file kind (${p.count} columns expected${p.position ? `; first difference at column ${p.position}, expected ${p.expected}` : ''}).`,
    fr: (p) =>
      `L'en-tête ne correspond pas aux colonnes officielles de ce type de fichier (${p.count} colonnes attendues${p.position ? ` ; première différence en colonne ${p.position}, attendu ${p.expected}` : ''}).`,
  },
  INVALID_FILENAME: {
    en: (p) =>
      `The file name is refused by the portal${reason(p, 'en', ' (', ')')}: at most 200 characters, none of @ < > : " / \\ | ? * %, extension .csv.`,
    fr: (p) =>
      `Le nom du fichier est refusé par le portail${reason(p, 'fr', ' (', ')')} : 200 caractères au plus, aucun de @ < > : " / \\ | ? * %, extension .csv.`,
  },
  COLUMN_COUNT: {
    en: (p) => `The line has ${p.count} fields; the header has ${p.expected}.`,
    fr: (p) => `La ligne a ${p.count} champs ; l'en-tête en a ${p.expected}.`,
  },
  REQUIRED_FIELD: {
    en: (p) => `${p.column} is required here.`,
    fr: (p) => `${p.column} est obligatoire ici.`,
  },
  FIELD_NOT_ALLOWED: {
    en: (p) => `${p.column} must be empty here${reason(p, 'en', ' (', ')')}.`,
    fr: (p) => `${p.column} doit être vide ici${reason(p, 'fr', ' (', ')')}.`,
  },
  FIELD_TOO_LONG: {
    en: (p) =>
      `${p.column} has ${p.length} characters; at most ${p.max} are allowed (values are never truncated).`,
    fr: (p) =>
      `${p.column} compte ${p.length} caractères ; ${p.max} au plus sont admis (aucune valeur n'est tronquée).`,
  },
  INVALID_VALUE: {
    en: (p) => `${p.column} must be one of: ${p.expected}.`,
    fr: (p) => `${p.column} doit valoir l'une des valeurs : ${p.expected}.`,
  },
  VALUE_COUNT: {
    en: (p) => `${p.column} holds ${p.count} values; between ${p.min} and ${p.max} are expected.`,
    fr: (p) => `${p.column} contient ${p.count} valeurs ; entre ${p.min} et ${p.max} sont attendues.`,
  },
  INVALID_CHARACTER: {
    en: (p) => characterMessage(p, 'en'),
    fr: (p) => characterMessage(p, 'fr'),
  },
  INVALID_DATE: {
    en: (p) => `${p.column} is not a valid date in the format ${p.expected}.`,
    fr: (p) => `${p.column} n'est pas une date valide au format ${p.expected}.`,
  },
  FUTURE_DATE: {
    en: (p) =>
      `${p.column} is after today (${p.deadline}, Europe/Paris); training dates cannot be in the future.`,
    fr: (p) =>
      `${p.column} est postérieure à aujourd'hui (${p.deadline}, heure de Paris) ; une date de formation ne peut pas être future.`,
  },
  END_BEFORE_START: {
    en: () => 'DATE_FIN_FORMATION is before DATE_DEBUT_FORMATION.',
    fr: () => 'DATE_FIN_FORMATION est antérieure à DATE_DEBUT_FORMATION.',
  },
  VALIDITY_BEFORE_TRAINING_END: {
    en: () => 'DATE_DEBUT_VALIDITE is before DATE_FIN_FORMATION.',
    fr: () => 'DATE_DEBUT_VALIDITE est antérieure à DATE_FIN_FORMATION.',
  },
  VALIDITY_END_BEFORE_START: {
    en: () => 'DATE_FIN_VALIDITE is before DATE_DEBUT_VALIDITE.',
    fr: () => 'DATE_FIN_VALIDITE est antérieure à DATE_DEBUT_VALIDITE.',
  },
  INVALID_NIR: {
    en: (p) =>
      `${p.column} is not a possible NIR: 13 characters without the key (sex digit 1–4, 7 or 8, year, month, département incl. 2A/2B, commune, order number)${reason(p, 'en', ': ')}.`,
    fr: (p) =>
      `${p.column} n'est pas un NIR possible : 13 caractères sans la clé (sexe 1 à 4, 7 ou 8, année, mois, département dont 2A/2B, commune, numéro d'ordre)${reason(p, 'fr', ' : ')}.`,
  },
  INVALID_NIR_KEY: {
    en: () => 'The NIR was given with 15 characters and its key is wrong.',
    fr: () => 'Le NIR est donné sur 15 caractères et sa clé est fausse.',
  },
  INVALID_SIRET: {
    en: (p) => `${p.column} must be 14 digits.`,
    fr: (p) => `${p.column} doit compter 14 chiffres.`,
  },
  INVALID_SIRET_KEY: {
    en: (p) => `${p.column} fails the SIRET check key (Luhn; La Poste rule for SIREN 356000000).`,
    fr: (p) =>
      `${p.column} ne respecte pas la clé de contrôle du SIRET (Luhn ; règle La Poste pour le SIREN 356000000).`,
  },
  INVALID_FORMACODE: codeMessage(),
  INVALID_NSF_CODE: codeMessage(),
  INVALID_ROME_CODE: codeMessage(),
  INVALID_RS_CODE: codeMessage(),
  INVALID_URL: {
    en: (p) => `${p.column} must be an absolute http:// or https:// URL.`,
    fr: (p) => `${p.column} doit être une URL absolue en http:// ou https://.`,
  },
  FORMULA_NOT_ALLOWED: {
    en: (p) =>
      `${p.column} starts with =, +, - or @, which spreadsheets read as a formula (option formula_policy).`,
    fr: (p) =>
      `${p.column} commence par =, +, - ou @, qu'un tableur lit comme une formule (option formula_policy).`,
  },
  DUPLICATE_UNIQUE_ID: {
    en: (p) => `ID_UNIQUE_PARTENAIRE is already used on line ${p.first_row} of this file.`,
    fr: (p) => `ID_UNIQUE_PARTENAIRE est déjà utilisé à la ligne ${p.first_row} de ce fichier.`,
  },
  INCONSISTENT_DECLARATION: {
    en: (p) => `${p.column} differs from line ${p.first_row}, the first line of the same ID_DECLARATION.`,
    fr: (p) => `${p.column} diffère de la ligne ${p.first_row}, première ligne du même ID_DECLARATION.`,
  },
  DECLARATION_TOO_LARGE: {
    en: (p) =>
      `This declaration has ${p.count} holders; at most ${p.max} are allowed (option split_large_declarations).`,
    fr: (p) =>
      `Cette déclaration compte ${p.count} titulaires ; ${p.max} au plus sont admis (option split_large_declarations).`,
  },
  REFERENCE_NOT_VERIFIED: {
    en: (p) =>
      `${p.column}: a code is absent from ppfile's partial ${listTitle(p, 'en')} list and could not be verified; the portal will check it.`,
    fr: (p) =>
      `${p.column} : un code ${listTitle(p, 'fr')} absent de la liste partielle de ppfile n'a pas pu être vérifié ; le portail le contrôlera.`,
  },
  DUPLICATE_HOLDER: {
    en: (p) => `The same NIR already appears on line ${p.first_row} of this declaration.`,
    fr: (p) => `Le même NIR figure déjà à la ligne ${p.first_row} de cette déclaration.`,
  },
  LF_LINE_ENDINGS: {
    en: () => 'Lines end with LF only; the official format uses CRLF.',
    fr: () => 'Les lignes se terminent par LF seul ; le format officiel utilise CRLF.',
  },
  NIR_PROVISIONAL: {
    en: () =>
      'The NIR is a provisional or temporary number (first digit 3, 4, 7 or 8); the portal may not recognise it.',
    fr: () =>
      "Le NIR est un numéro provisoire ou d'attente (premier chiffre 3, 4, 7 ou 8) ; le portail peut ne pas le reconnaître.",
  },
  FILING_DEADLINE_PASSED: {
    en: (p) => `The legal filing deadline of this declaration (${p.deadline}) has passed.`,
    fr: (p) => `La date limite légale de déclaration (${p.deadline}) est dépassée.`,
  },
  NO_DATA_ROWS: {
    en: () => 'The file has a header but no data line.',
    fr: () => 'Le fichier a un en-tête mais aucune ligne de données.',
  },
};

/**
 * INVALID_CHARACTER, by kind of character (values/text.ts): the column, the code point and why the
 * file cannot hold it. Without a code point (a caller that has none), the general rule.
 */
const CHARACTER_MESSAGES: Record<
  CharacterProblem,
  { en: (c: string, cp: string) => string; fr: (c: string, cp: string) => string }
> = {
  separator: {
    en: (c, cp) => `${c} contains "|" (${cp}), the field separator of the file.`,
    fr: (c, cp) => `${c} contient « | » (${cp}), le séparateur des champs du fichier.`,
  },
  line_break: {
    en: (c, cp) => `${c} contains a line break (${cp}), which would split the line.`,
    fr: (c, cp) => `${c} contient un saut de ligne (${cp}), qui couperait la ligne.`,
  },
  control: {
    en: (c, cp) => `${c} contains ${cp}, a control character the file cannot hold.`,
    fr: (c, cp) => `${c} contient ${cp}, un caractère de contrôle que le fichier ne peut pas contenir.`,
  },
  invisible: {
    en: (c, cp) => `${c} contains ${cp}, an invisible or format character the file cannot hold.`,
    fr: (c, cp) =>
      `${c} contient ${cp}, un caractère invisible ou de mise en forme que le fichier ne peut pas contenir.`,
  },
  damaged: {
    en: (c, cp) =>
      `${c} contains ${cp}, the replacement character: the text was damaged before it reached ppfile (bytes that were not UTF-8); send the original text.`,
    fr: (c, cp) =>
      `${c} contient ${cp}, le caractère de remplacement : le texte a été abîmé avant d'arriver à ppfile (des octets qui n'étaient pas de l'UTF-8) ; envoyez le texte d'origine.`,
  },
  surrogate: {
    en: (c, cp) =>
      `${c} contains a lone surrogate (${cp}), half of a character: the text was damaged before it reached ppfile; send the original text.`,
    fr: (c, cp) =>
      `${c} contient un demi-codet isolé (${cp}), une moitié de caractère : le texte a été abîmé avant d'arriver à ppfile ; envoyez le texte d'origine.`,
  },
  noncharacter: {
    en: (c, cp) => `${c} contains ${cp}, a noncharacter the file cannot hold.`,
    fr: (c, cp) => `${c} contient ${cp}, un non-caractère que le fichier ne peut pas contenir.`,
  },
  private_use: {
    en: (c, cp) => `${c} contains ${cp}, a private-use character with no agreed meaning.`,
    fr: (c, cp) => `${c} contient ${cp}, un caractère à usage privé, sans signification convenue.`,
  },
  combining_start: {
    en: (c, cp) => `${c} starts with ${cp}, a combining mark with no letter before it.`,
    fr: (c, cp) => `${c} commence par ${cp}, un signe combinant sans lettre avant lui.`,
  },
};

function characterMessage(p: MessageParams, lang: Lang): string {
  if (p.code_point !== undefined && p.character !== undefined) {
    return CHARACTER_MESSAGES[p.character][lang](p.column ?? '', codePointName(p.code_point));
  }
  return lang === 'en'
    ? `${p.column} contains a character the file cannot hold ("|", a line break, a control, invisible or format character, or damaged text).`
    : `${p.column} contient un caractère que le fichier ne peut pas contenir (« | », un saut de ligne, un caractère de contrôle, invisible ou de mise en forme, ou un texte abîmé).`;
}

function codeMessage(): { en: MessageTemplate; fr: MessageTemplate } {
  return {
    en: (p) =>
      p.detail === 'format'
        ? `${p.column}: a code is malformed for the ${listTitle(p, 'en')} list (${p.expected}).`
        : `${p.column}: a code is absent from the ${listTitle(p, 'en')} reference list.`,
    fr: (p) =>
      p.detail === 'format'
        ? `${p.column} : un code n'a pas le format de la liste ${listTitle(p, 'fr')} (${p.expected}).`
        : `${p.column} : un code est absent de la liste de référence ${listTitle(p, 'fr')}.`,
  };
}

/** The requests the format refuses (FORMAT_ERROR_CODES); the HTTP contract words its own codes. */
const FORMAT_ERROR_MESSAGES: MessageCatalogue<FormatErrorCode> = {
  INVALID_JSON: {
    en: () => 'The request body is not valid JSON.',
    fr: () => "Le corps de la requête n'est pas du JSON valide.",
  },
  INVALID_REQUEST: {
    en: (p) =>
      `The request is malformed (${p.count} problem${p.count === 1 ? '' : 's'}; see details.fields).`,
    fr: (p) =>
      `La requête est mal formée (${p.count} problème${p.count === 1 ? '' : 's'} ; voir details.fields).`,
  },
  UNSUPPORTED_SPEC_VERSION: {
    en: (p) => `Unsupported spec_version; supported: ${p.expected}.`,
    fr: (p) => `spec_version non pris en charge ; versions prises en charge : ${p.expected}.`,
  },
  LINE_LIMIT_EXCEEDED: {
    en: (p) => `The request holds more than ${p.limit} rows, the limit for this key.`,
    fr: (p) => `La requête contient plus de ${p.limit} lignes, la limite de cette clé.`,
  },
  UNREADABLE_FILE: {
    en: (p) => `The file is not a readable XLSX or CSV spreadsheet${p.detail ? ` (${p.detail})` : ''}.`,
    fr: (p) => `Le fichier n'est pas un tableur XLSX ou CSV lisible${p.detail ? ` (${p.detail})` : ''}.`,
  },
  VALIDATION_FAILED: {
    en: (p) =>
      `No file was produced: ${p.count} row${p.count === 1 ? ' is' : 's are'} invalid (see details.errors).`,
    fr: (p) =>
      `Aucun fichier produit : ${p.count} ligne${p.count === 1 ? ' est invalide' : 's sont invalides'} (voir details.errors).`,
  },
};

const FILE_TOO_LARGE: Localized<(mb: number) => string> = {
  en: (mb) => `it is over ${mb} MB, the limit of one file`,
  fr: (mb) => `il dépasse ${mb} Mo, la limite d'un fichier`,
};

const MIXED_ENCODING: Localized<(line: number) => string> = {
  en: (line) =>
    `line ${line} holds bytes that are not UTF-8 while the rest of the file is UTF-8, as when text is pasted from another program: a file in two encodings is not read, its names would come out wrong; type that line’s accented letters again`,
  fr: (line) =>
    `la ligne ${line} contient des octets qui ne sont pas de l’UTF-8 alors que le reste du fichier en est, comme après un copier-coller depuis un autre logiciel : un fichier en deux encodages n’est pas lu, ses noms en sortiraient faux ; retapez les lettres accentuées de cette ligne`,
};

/** UNREADABLE_FILE's detail for a text file that mixes encodings (mixedEncodingError). */
export function mixedEncodingDetail(line: number, lang: Lang): string {
  return localize(MIXED_ENCODING, lang)(line);
}

/** UNREADABLE_FILE's detail for a file over the byte limit (checkFileSize). */
export function fileTooLargeDetail(limit: number, lang: Lang): string {
  return localize(FILE_TOO_LARGE, lang)(limit / 1024 / 1024);
}

export function issueMessage(code: IssueCode, lang: Lang, params: MessageParams): string {
  return localize(ISSUE_MESSAGES[code], lang)(params);
}

/** The message of a request the format refuses (libs/contract `requestErrorMessage` words them all). */
export function formatErrorMessage(code: FormatErrorCode, lang: Lang, params: MessageParams): string {
  return localize(FORMAT_ERROR_MESSAGES[code], lang)(params);
}

/** Picks the message language from an Accept-Language header or a --lang flag; English by default. */
export function pickLang(value: string | undefined | null): Lang {
  if (!value) return 'en';
  const first = value.split(',')[0]!.trim().toLowerCase();
  return first === 'fr' || first.startsWith('fr-') ? 'fr' : 'en';
}

/**
 * Messages for the structure problems of a body that the format finds, listed in details.fields of
 * INVALID_REQUEST; the HTTP contract adds those of headers, paths and forms (libs/contract
 * REQUEST_FIELD_PROBLEMS).
 */
export const FIELD_PROBLEMS = {
  required: { en: 'is required', fr: 'est obligatoire' },
  unknown: { en: 'is not a known field', fr: "n'est pas un champ connu" },
  type_string: { en: 'must be a string', fr: 'doit être une chaîne' },
  type_boolean: { en: 'must be a boolean', fr: 'doit être un booléen' },
  type_integer: { en: 'must be an integer', fr: 'doit être un entier' },
  type_object: { en: 'must be an object', fr: 'doit être un objet' },
  type_array: { en: 'must be an array', fr: 'doit être un tableau' },
  type_string_array: { en: 'must be an array of strings', fr: 'doit être un tableau de chaînes' },
  non_empty_array: { en: 'must be a non-empty array', fr: 'doit être un tableau non vide' },
  one_of: { en: 'must be one of', fr: "doit valoir l'une des valeurs" },
  /** Followed by `min to max` (`range_to` between them). */
  range: { en: 'must be an integer from', fr: 'doit être un entier de' },
  range_to: { en: 'to', fr: 'à' },
} as const;
export type FieldProblem = keyof typeof FIELD_PROBLEMS;
