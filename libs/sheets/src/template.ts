import {
  resolveKind,
  type ColumnSpec,
  type Condition,
  type Declarant,
  type FileKind,
  type FileType,
  type Lang,
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
 * (INVALID_REQUEST, UNSUPPORTED_SPEC_VERSION) for a kind that does not exist.
 */
export function template(type: string, declarant: string, specVersion?: string, lang: Lang = 'en'): Buffer {
  return writeWorkbook(templateSheets(resolveKind({ type, declarant, spec_version: specVersion }, lang)));
}

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
    c.type === 'enum' &&
    c.values &&
    kind.spec.tables[kind.type].columns[i]!.presence[kind.declarant] !== 'never'
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

const WORDS = {
  fr: {
    title: (k: FileKind) =>
      `Modèle ppfile : ${k.type === 'adf' ? 'attestations de formation (ADF)' : 'justificatifs de réussite (JDR)'}, ${
        k.declarant === 'employer' ? 'employeur' : 'organisme de formation'
      }, format ${k.spec.version}`,
    general: [
      `Une ligne par titulaire, dans la feuille ${TEMPLATE_SHEET}, à partir de la ligne 3. Les lignes 1 (noms officiels des colonnes) et 2 (libellés) restent telles quelles.`,
      "Une déclaration = les lignes qui ont le même ID_DECLARATION. Ses colonnes de niveau déclaration (référence, formation, justificatif) doivent être identiques sur toutes ses lignes : c'est la première ligne qui compte.",
      'Dates : jj/mm/aaaa (cellules date). NIR, SIRET et codes : format texte, pour garder tous les chiffres. Listes déroulantes : les valeurs permises.',
      'Plusieurs codes dans une cellule : séparez-les par / (ou par , ; ou un retour à la ligne).',
      'Ensuite : npx ppfile import FICHIER.xlsx --type TYPE --declarant DECLARANT, ou POST /v1/declarations/import ; le corps obtenu va tel quel à POST /v1/files/generate.',
      'Colonnes :',
    ],
    required: 'obligatoire',
    optional: 'facultatif',
    never: 'à laisser vide pour ce déclarant',
    when: (p: string, cond: string) => `${p} si ${cond}, sinon vide`,
    text: (max?: number) => (max ? `texte, ${max} caractères au plus` : 'texte'),
    date: (notFuture?: boolean) => `date jj/mm/aaaa${notFuture ? ', pas dans le futur' : ''}`,
    list: (values: readonly string[]) => `une valeur de la liste : ${values.join(', ')}`,
    codes: (list: string, min: number, max: number) => `codes ${list} séparés par /, de ${min} à ${max}`,
    code: (list: string) => `un code ${list}`,
    nir: 'NIR de 13 caractères, sans la clé (une clé correcte est enlevée)',
    siret: 'SIRET de 14 chiffres',
    url: 'adresse complète http:// ou https://',
  },
  en: {
    title: (k: FileKind) =>
      `ppfile template: ${k.type === 'adf' ? 'training attestations (ADF)' : 'proofs of success (JDR)'}, ${
        k.declarant === 'employer' ? 'employer' : 'training organization'
      }, format ${k.spec.version}`,
    general: [
      `One holder per row, in sheet ${TEMPLATE_SHEET}, from row 3 on. Rows 1 (official column names) and 2 (labels) stay as they are.`,
      "One declaration = the rows sharing an ID_DECLARATION. Its declaration-level columns (reference, training, certificate) must be the same on all its rows: the first row's count.",
      'Dates: dd/mm/yyyy (date cells). NIR, SIRET and codes: text format, so that every digit is kept. Drop-down lists: the values allowed.',
      'Several codes in one cell: separate them with / (or , ; or a line break).',
      'Then: npx ppfile import FILE.xlsx --type TYPE --declarant DECLARANT, or POST /v1/declarations/import; the body you get goes as it is to POST /v1/files/generate.',
      'Columns:',
    ],
    required: 'required',
    optional: 'optional',
    never: 'leave empty for this declarant',
    when: (p: string, cond: string) => `${p} when ${cond}, else empty`,
    text: (max?: number) => (max ? `text, at most ${max} characters` : 'text'),
    date: (notFuture?: boolean) => `date dd/mm/yyyy${notFuture ? ', not in the future' : ''}`,
    list: (values: readonly string[]) => `one value of the list: ${values.join(', ')}`,
    codes: (list: string, min: number, max: number) => `${list} codes separated by /, ${min} to ${max}`,
    code: (list: string) => `one ${list} code`,
    nir: '13-character NIR, without the key (a correct key is removed)',
    siret: '14-digit SIRET',
    url: 'full http:// or https:// address',
  },
} as const;

const CONDITIONS: Record<Condition, Record<Lang, string>> = {
  training: { fr: 'PRESENCE_FORMATION = OUI', en: 'PRESENCE_FORMATION = OUI' },
  certifying: { fr: 'FORMATION_CERTIFIANTE = OUI', en: 'FORMATION_CERTIFIANTE = OUI' },
  not_certifying: { fr: 'FORMATION_CERTIFIANTE = NON', en: 'FORMATION_CERTIFIANTE = NON' },
  not_certifying_or_unset: {
    fr: "FORMATION_CERTIFIANTE n'est pas OUI",
    en: 'FORMATION_CERTIFIANTE is not OUI',
  },
  employer_present: { fr: 'PRESENCE_EMPLOYEUR = OUI', en: 'PRESENCE_EMPLOYEUR = OUI' },
};

const LIST_NAMES: Record<string, string> = { rome: 'ROME', formacode: 'Formacode', nsf: 'NSF', rs: 'RS' };

function instructions(kind: FileKind): string[] {
  const lines: string[] = [];
  for (const lang of ['fr', 'en'] as const) {
    const w = WORDS[lang];
    lines.push(w.title(kind), ...w.general);
    for (const c of kind.spec.tables[kind.type].columns) {
      const p = c.presence[kind.declarant];
      const presence =
        p === 'never'
          ? w.never
          : p.when
            ? w.when(p.required ? w.required : w.optional, CONDITIONS[p.when][lang])
            : p.required
              ? w.required
              : w.optional;
      lines.push(`${c.name} (${c.labels[lang]}): ${takes(c, kind.declarant, lang)}; ${presence}.`);
    }
    if (lang === 'fr') lines.push('');
  }
  return lines;
}

function takes(c: ColumnSpec, declarant: Declarant, lang: Lang): string {
  const w = WORDS[lang];
  switch (c.type) {
    case 'text':
      return w.text(c.maxLength);
    case 'date':
      return w.date(c.notFuture);
    case 'enum':
      return w.list(c.values ?? []);
    case 'codes': {
      const list = LIST_NAMES[c.list!] ?? c.list!;
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
