import type { ColumnSpec, KindTable } from '@ppfile/rules';

/**
 * The headers people write above their columns, for each official column (API.md §14: "a synonym
 * the service documents" — docs/spreadsheets.md prints this table). Matched like names, JSON fields
 * and labels: without case, accents, spaces, `_`, `-` or `.`. A synonym names one column only; a
 * column absent from the kind being imported is never matched.
 */
export const HEADER_SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  ID_DECLARATION: [
    'ID déclaration',
    'Identifiant déclaration',
    'N° de déclaration',
    'Numéro de déclaration',
    'Session',
    'N° de session',
    'ID session',
    'Code session',
    'Identifiant de session',
  ],
  REFERENCE_DECLARATION: ['Référence', 'Référence déclaration', 'Réf. déclaration', 'Référence de session'],
  ID_UNIQUE_PARTENAIRE: [
    'ID unique',
    'Identifiant unique',
    'ID unique partenaire',
    'Identifiant partenaire',
    'Identifiant stagiaire',
    'ID stagiaire',
  ],
  TYPE_JDR: ['Type de justificatif', 'Type JDR', 'Type de JDR'],
  NOM_JDR: ['Justificatif', 'Nom du justificatif', 'Intitulé du justificatif', 'Nom JDR'],
  NOM_OPTION_SPECIALITE: ['Option', 'Spécialité', 'Option / spécialité'],
  MODE_OBTENTION: ["Mode d'obtention", 'Obtention'],
  COMPETENCE_TRANSFERABLE: ['Compétences', 'Compétences transférables', 'Codes ROME', 'ROME', 'Code ROME'],
  PRESENCE_FORMATION: ['Présence formation', 'Avec formation'],
  NOM_FORMATION: [
    'Formation',
    'Intitulé',
    'Intitulé formation',
    'Intitulé de formation',
    'Nom de la formation',
    'Nom formation',
    'Titre de la formation',
  ],
  DATE_DEBUT_FORMATION: [
    'Date de début',
    'Date début',
    'Début',
    'Début de formation',
    'Début formation',
    'Date début formation',
    'Date de début de formation',
  ],
  DATE_FIN_FORMATION: [
    'Date de fin',
    'Date fin',
    'Fin',
    'Fin de formation',
    'Fin formation',
    'Date fin formation',
    'Date de fin de formation',
  ],
  MODALITE_DISPENSE: ['Modalité', 'Modalité de formation', 'Mode de dispense', 'Présentiel / distance'],
  QUALIFICATION_FORMATEUR: ['Qualification formateur', 'Formateur', 'Qualification'],
  FORMATION_CERTIFIANTE: ['Certifiante', 'Formation certifiante ?'],
  CERTIFICATION_VISEE: ['Code RS', 'Certification', 'Certification visée', 'RS'],
  DOMAINE_FORMATION: ['Formacode', 'Formacodes', 'Domaine', 'Domaines', 'Domaine de formation'],
  SPECIALITE_FORMATION: ['NSF', 'Code NSF', 'Codes NSF', 'Spécialité NSF', 'Spécialité de formation'],
  NIR: [
    'N° de sécurité sociale',
    'Numéro de sécurité sociale',
    'N° sécurité sociale',
    'N° sécu',
    'N° de sécu',
    'Numéro de sécu',
    'Sécurité sociale',
    'N° SS',
    'Numéro SS',
    'N° INSEE',
    'Numéro INSEE',
    'Social security number',
  ],
  NOM_TITULAIRE: [
    'Nom de naissance',
    'Nom',
    'Nom de famille',
    'Nom patronymique',
    'Nom du stagiaire',
    'Nom du salarié',
    'Nom du titulaire',
    'Birth name',
  ],
  PRESENCE_EMPLOYEUR: ['Accord employeur', 'Présence employeur', "Accord de l'employeur"],
  SIRET_EMPLOYEUR: ["SIRET de l'employeur", 'SIRET employeur', 'SIRET', 'N° SIRET', 'Numéro SIRET'],
  REFERENCE_EMPLOYEUR: ['Référence employeur', "Référence chez l'employeur"],
  DATE_DEBUT_VALIDITE: ['Début de validité', 'Date de validité', 'Valable du', 'Valide du', 'Validité début'],
  DATE_FIN_VALIDITE: [
    'Fin de validité',
    "Date d'expiration",
    'Expiration',
    "Valable jusqu'au",
    'Valide jusqu’au',
    'Validité fin',
  ],
  RESULTAT_OBTENU: ['Résultat', 'Score', 'Note'],
  MENTION_OBTENUE: ['Mention'],
  LIEN_PREUVE: ['Lien', 'URL', 'Lien preuve', 'Lien de la preuve'],
  IDENTIFIANT_PREUVE: ['ID preuve', 'Identifiant preuve', 'N° de preuve', 'Numéro de preuve'],
};

/** How a header matched: the column's name, its JSON field, a label, a synonym, or the caller's mapping. */
export type MatchHow = 'name' | 'field' | 'label' | 'synonym' | 'given';

/** Case, accents, spaces, `_`, `-` and `.` removed (API.md §14); apostrophes folded to one. */
export function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\s_.-]/g, '')
    .replace(/[’‘`´]/g, "'");
}

/** A header longer than this is no header: it is not stripped, nor compared for a near miss. */
const MAX_HEADER_CHARS = 255;

/**
 * A header as people write it, without what is not its name (issue 33): required-markers (`*`,
 * before or after), a trailing colon or question mark, and parenthesized or bracketed notes at its
 * end — `Session *`, `Nom de naissance*`, `NIR (13 chiffres)`, `Date début :`. Each step shortens
 * the text, so the work is linear in its length (at most 255 characters).
 */
export function headerCore(text: string): string {
  let t = text.trim();
  if (t.length > MAX_HEADER_CHARS) return t;
  let start = 0;
  while (start < t.length && (t[start] === '*' || /\s/.test(t[start]!))) start++;
  let end = t.length;
  for (;;) {
    while (end > start && /\s/.test(t[end - 1]!)) end--;
    const last = t[end - 1];
    if (last === '*' || last === ':' || last === '?' || last === '\uff1a') {
      end--;
      continue;
    }
    if (last === ')' || last === ']') {
      const open = t.lastIndexOf(last === ')' ? '(' : '[', end - 1);
      // A text that is all note (`(NIR)`) keeps it: nothing would be left to match.
      if (open > start) {
        end = open;
        continue;
      }
    }
    break;
  }
  t = t.slice(start, end);
  return t;
}

/** A header that names no column but is one or two typing slips away from one (a near miss). */
export interface NearMiss {
  header: string;
  column: string;
}

/** The headers of one kind of file, matched against names, JSON fields, labels and synonyms. */
export class HeaderMatcher {
  private readonly keys = new Map<string, { column: ColumnSpec; how: MatchHow }>();

  constructor(table: KindTable) {
    const add = (text: string, column: ColumnSpec, how: MatchHow) => {
      const key = headerKey(text);
      const known = this.keys.get(key);
      // The earlier kind of match wins (a name before a label); within one kind, the table is tested
      // to have no key of two columns (headers.spec.ts).
      if (!known) this.keys.set(key, { column, how });
    };
    for (const c of table.columns) add(c.name, c, 'name');
    for (const c of table.columns) {
      if (c.json.kind !== 'training_presence') add(c.json.path, c, 'field');
    }
    for (const c of table.columns) {
      add(c.labels.fr, c, 'label');
      add(c.labels.en, c, 'label');
    }
    for (const c of table.columns) for (const s of HEADER_SYNONYMS[c.name] ?? []) add(s, c, 'synonym');
  }

  /** As written, else without its required-marker, trailing colon or note (headerCore). */
  match(header: string): { column: ColumnSpec; how: MatchHow } | undefined {
    const exact = this.keys.get(headerKey(header));
    if (exact) return exact;
    const core = headerCore(header);
    return core === header.trim() ? undefined : this.keys.get(headerKey(core));
  }

  /**
   * The column a header that matches nothing was probably meant for: the one whose name, field,
   * label or synonym is one edit away (two for a key of 12 characters or more), compared as headers
   * are. Undefined when none is, or when the header is too short or too long to judge.
   */
  nearMiss(header: string): ColumnSpec | undefined {
    if (header.length > MAX_HEADER_CHARS) return undefined;
    const key = headerKey(headerCore(header));
    if (key.length < 5) return undefined;
    const bound = key.length >= 12 ? 2 : 1;
    let best: { column: ColumnSpec; distance: number } | undefined;
    for (const [known, { column }] of this.keys) {
      if (known.length < 5) continue;
      const d = editDistanceWithin(key, known, bound);
      if (d !== null && (best === undefined || d < best.distance)) best = { column, distance: d };
    }
    return best?.column;
  }
}

/**
 * Levenshtein distance of a and b when it is at most `bound`, else null: only the diagonal band of
 * width 2 × bound + 1 is computed (linear in the length for a fixed bound).
 */
export function editDistanceWithin(a: string, b: string, bound: number): number | null {
  if (Math.abs(a.length - b.length) > bound) return null;
  const n = b.length;
  const far = bound + 1;
  let prev = new Array<number>(n + 2).fill(far);
  let cur = new Array<number>(n + 2).fill(far);
  for (let j = 0; j <= Math.min(n, bound); j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const from = Math.max(1, i - bound);
    const to = Math.min(n, i + bound);
    cur[from - 1] = from === 1 && i <= bound ? i : far;
    cur[to + 1] = far;
    let rowMin = cur[from - 1]!;
    for (let j = from; j <= to; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const d = Math.min(prev[j - 1]! + cost, prev[j]! + 1, cur[j - 1]! + 1, far);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > bound) return null;
    [prev, cur] = [cur, prev];
  }
  const d = prev[n]!;
  return d <= bound ? d : null;
}
