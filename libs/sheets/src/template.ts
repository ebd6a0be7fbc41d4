import {
  CONDITION_WORDS,
  inLanguage,
  localize,
  REFERENCE_LIST_TITLES,
  resolveKind,
  type ColumnSpec,
  type Declarant,
  type FileKind,
  type FileType,
  type Lang,
  type InLanguage,
  type Localized,
} from '@ppfile/rules';
import { columnLetters } from './cells';
import { writeWorkbook, type ColumnFormat, type WorkbookInput } from './xlsx-writer';

/** The sheet people fill, and the one that tells them how (API.md §14 "Template"). */
export const TEMPLATE_SHEET = 'Declarations';
export const INSTRUCTIONS_SHEET = 'Instructions';
/** Rows offered a drop-down below the two header rows: the 50,000 rows a request may hold. */
const LIST_ROWS = 50_000;
export const TEMPLATE_CONTENT_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function templateFileName(type: FileType, declarant: Declarant, version: string): string {
  return `ppfile_template_${type}_${declarant}_${version}.xlsx`;
}

/**
 * GET /v1/spec/{version}/template: the XLSX template of one kind of file. Throws RequestError
 * (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION, worded in `lang`) for a kind that does not exist.
 * The bytes are a function of the spec version and the kind alone (both languages are in the
 * workbook, and its zip entries carry a fixed date), so each is built once per process and kept:
 * a handful of kinds per version, tens of KB each. Every call answers its own copy.
 */
export function template(type: string, declarant: string, specVersion?: string, lang: Lang = 'en'): Buffer {
  const kind = resolveKind({ type, declarant, spec_version: specVersion }, lang);
  const key = `${kind.spec.version}|${kind.type}|${kind.declarant}`;
  let bytes = TEMPLATES.get(key);
  if (!bytes) {
    bytes = writeWorkbook(templateSheets(kind));
    TEMPLATES.set(key, bytes);
  }
  return Buffer.from(bytes);
}
const TEMPLATES = new Map<string, Buffer>();

/**
 * The template as data: sheet `Declarations` (row 1 the official names in order, row 2 their French
 * labels, data from row 3; a drop-down for every enumeration; dates dd/mm/yyyy; NIR, SIRET and code
 * columns text) and sheet `Instructions` (French, then English). Tests append rows to fill it.
 */
export function templateSheets(kind: FileKind): WorkbookInput {
  const columns = kind.spec.tables[kind.type].columns;
  const formats: ColumnFormat[] = columns.map((c) => ({
    width: Math.max(14, Math.min(40, c.labels.fr.length + 2)),
    format: c.type === 'date' ? 'date' : TEXT_TYPES.has(c.type) ? 'text' : undefined,
  }));
  const lists = columns.flatMap((c, i) =>
    c.type === 'enum' && c.values && c.presence[kind.declarant] !== 'never'
      ? [{ range: `${columnLetters(i)}3:${columnLetters(i)}${LIST_ROWS + 2}`, values: c.values }]
      : [],
  );
  return {
    sheets: [
      {
        name: TEMPLATE_SHEET,
        rows: [columns.map((c) => c.name), columns.map((c) => c.labels.fr)],
        columns: formats,
        lists,
        frozenRows: 2,
        boldRows: 2,
      },
      {
        name: INSTRUCTIONS_SHEET,
        rows: instructions(kind).map((line) => [line]),
        columns: [{ width: 160 }],
        boldRows: 1,
      },
    ],
  };
}

/** Typed as text so that a spreadsheet keeps every digit (a NIR is not a number). */
const TEXT_TYPES = new Set<ColumnSpec['type']>(['nir', 'siret', 'codes']);

/** The Instructions sheet's words, each entry in both languages (libs/rules `Localized`). */
const WORDS = {
  title: {
    fr: (k: FileKind) =>
      `Modèle ppfile : ${k.type === 'adf' ? 'attestations de formation (ADF)' : 'justificatifs de réussite (JDR)'}, ${
        k.declarant === 'employer' ? 'employeur' : 'organisme de formation'
      }, format ${k.spec.version}`,
    en: (k: FileKind) =>
      `ppfile template: ${k.type === 'adf' ? 'training attestations (ADF)' : 'proofs of success (JDR)'}, ${
        k.declarant === 'employer' ? 'employer' : 'training organization'
      }, format ${k.spec.version}`,
  },
  general: {
    fr: [
      `Une ligne par titulaire, dans la feuille ${TEMPLATE_SHEET}, à partir de la ligne 3. Les lignes 1 (noms officiels des colonnes) et 2 (libellés) restent telles quelles.`,
      "Une déclaration = les lignes qui ont le même ID_DECLARATION. Ses colonnes de niveau déclaration (référence, formation, justificatif) doivent être identiques sur toutes ses lignes : c'est la première ligne qui compte.",
      'Dates : jj/mm/aaaa (cellules date). NIR, SIRET et codes : format texte, pour garder tous les chiffres. Listes déroulantes : les valeurs permises.',
      'Plusieurs codes dans une cellule : séparez-les par / (ou par , ; ou un retour à la ligne).',
      'Ensuite : npx ppfile import FICHIER.xlsx --type TYPE --declarant DECLARANT, ou POST /v1/declarations/import ; le corps obtenu va tel quel à POST /v1/files/generate.',
      'Colonnes :',
    ],
    en: [
      `One holder per row, in sheet ${TEMPLATE_SHEET}, from row 3 on. Rows 1 (official column names) and 2 (labels) stay as they are.`,
      "One declaration = the rows sharing an ID_DECLARATION. Its declaration-level columns (reference, training, certificate) must be the same on all its rows: the first row's count.",
      'Dates: dd/mm/yyyy (date cells). NIR, SIRET and codes: text format, so that every digit is kept. Drop-down lists: the values allowed.',
      'Several codes in one cell: separate them with / (or , ; or a line break).',
      'Then: npx ppfile import FILE.xlsx --type TYPE --declarant DECLARANT, or POST /v1/declarations/import; the body you get goes as it is to POST /v1/files/generate.',
      'Columns:',
    ],
  },
  required: { fr: 'obligatoire', en: 'required' },
  optional: { fr: 'facultatif', en: 'optional' },
  never: { fr: 'à laisser vide pour ce déclarant', en: 'leave empty for this declarant' },
  when: {
    fr: (p: string, cond: string) => `${p} si ${cond}, sinon vide`,
    en: (p: string, cond: string) => `${p} when ${cond}, else empty`,
  },
  text: {
    fr: (max?: number) => (max ? `texte, ${max} caractères au plus` : 'texte'),
    en: (max?: number) => (max ? `text, at most ${max} characters` : 'text'),
  },
  date: {
    fr: (notFuture?: boolean) => `date jj/mm/aaaa${notFuture ? ', pas dans le futur' : ''}`,
    en: (notFuture?: boolean) => `date dd/mm/yyyy${notFuture ? ', not in the future' : ''}`,
  },
  list: {
    fr: (values: readonly string[]) => `une valeur de la liste : ${values.join(', ')}`,
    en: (values: readonly string[]) => `one value of the list: ${values.join(', ')}`,
  },
  codes: {
    fr: (list: string, min: number, max: number) => `codes ${list} séparés par /, de ${min} à ${max}`,
    en: (list: string, min: number, max: number) => `${list} codes separated by /, ${min} to ${max}`,
  },
  code: { fr: (list: string) => `un code ${list}`, en: (list: string) => `one ${list} code` },
  nir: {
    fr: 'NIR de 13 caractères, sans la clé (une clé correcte est enlevée)',
    en: '13-character NIR, without the key (a correct key is removed)',
  },
  siret: { fr: 'SIRET de 14 chiffres', en: '14-digit SIRET' },
  url: { fr: 'adresse complète http:// ou https://', en: 'full http:// or https:// address' },
} satisfies Record<string, Localized<unknown>>;

function instructions(kind: FileKind): string[] {
  const lines: string[] = [];
  for (const lang of ['fr', 'en'] as const) {
    const w = inLanguage(WORDS, lang);
    lines.push(w.title(kind), ...w.general);
    for (const c of kind.spec.tables[kind.type].columns) {
      const p = c.presence[kind.declarant];
      const presence =
        p === 'never'
          ? w.never
          : p.when
            ? w.when(p.required ? w.required : w.optional, localize(CONDITION_WORDS[p.when], lang))
            : p.required
              ? w.required
              : w.optional;
      lines.push(
        `${c.name} (${localize(c.labels, lang)}): ${takes(c, kind.declarant, lang, w)}; ${presence}.`,
      );
    }
    if (lang === 'fr') lines.push('');
  }
  return lines;
}

function takes(c: ColumnSpec, declarant: Declarant, lang: Lang, w: InLanguage<typeof WORDS>): string {
  switch (c.type) {
    case 'text':
      return w.text(c.maxLength);
    case 'date':
      return w.date(c.notFuture);
    case 'enum':
      return w.list(c.values ?? []);
    case 'codes': {
      const list = localize(REFERENCE_LIST_TITLES[c.list!], lang);
      if (!c.count) return w.code(list);
      const [min, max] = c.count[declarant];
      return w.codes(list, min, max);
    }
    case 'nir':
      return w.nir;
    case 'siret':
      return w.siret;
    case 'url':
      return w.url;
  }
}
