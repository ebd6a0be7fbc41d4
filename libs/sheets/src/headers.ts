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

  match(header: string): { column: ColumnSpec; how: MatchHow } | undefined {
    return this.keys.get(headerKey(header));
  }
}
