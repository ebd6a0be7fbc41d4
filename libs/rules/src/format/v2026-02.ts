import type { ColumnSpec, Declarant, KindTable, Presence, SpecVersion } from './types';

/**
 * Format 2026-02: the official guides « Guide import en masse OF ADF », « OF JDR » (February 2026)
 * and the employer guide (27/02/2026), as decided in API.md §3–§3b. Both declarants share the
 * columns and their order; only presence rules and value counts differ.
 */

const REQ: Presence = { required: true };
const OPT: Presence = { required: false };
const both = (p: Presence): Record<Declarant, Presence> => ({ training_organization: p, employer: p });
const byDeclarant = (of: Presence, employer: Presence): Record<Declarant, Presence> => ({
  training_organization: of,
  employer,
});

export const DELIVERY_MODES = ['A_DISTANCE', 'PRESENTIEL', 'MIXTE'] as const;
export const TRAINER_QUALIFICATIONS = [
  'ENSEIGNANT',
  'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
  'INGENIEUR',
  'PREVENTEUR',
  'PSYCHOLOGUE',
  'RESPONSABLE_QHSE',
  'ANCIEN_PROFESSIONNEL',
] as const;
export const JDR_TYPES = ['DIPLOME', 'TITRE', 'HABILITATION', 'CERTIFICAT'] as const;
export const OBTENTION_MODES = ['PAR_ADMISSION', 'PAR_SCORING'] as const;
export const YES_NO = ['OUI', 'NON'] as const;

const ENUMERATIONS: SpecVersion['enumerations'] = {
  MODALITE_DISPENSE: [
    { code: 'PRESENTIEL', label: 'Présentiel' },
    { code: 'A_DISTANCE', label: 'À distance' },
    { code: 'MIXTE', label: 'Mixte' },
  ],
  QUALIFICATION_FORMATEUR: [
    { code: 'ENSEIGNANT', label: 'Enseignant (lycée, université)' },
    {
      code: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
      label: "Formateur d'adultes ayant suivi une formation spécialisée au domaine concerné",
    },
    { code: 'INGENIEUR', label: 'Ingénieur' },
    { code: 'PREVENTEUR', label: 'Préventeur' },
    { code: 'PSYCHOLOGUE', label: 'Psychologue' },
    { code: 'RESPONSABLE_QHSE', label: 'Responsable qualité-hygiène-sécurité-environnement' },
    { code: 'ANCIEN_PROFESSIONNEL', label: 'Ancien professionnel du secteur concerné' },
  ],
  TYPE_JDR: [
    { code: 'DIPLOME', label: 'Diplôme' },
    { code: 'TITRE', label: 'Titre' },
    { code: 'HABILITATION', label: 'Habilitation' },
    { code: 'CERTIFICAT', label: 'Certificat' },
  ],
  MODE_OBTENTION: [
    { code: 'PAR_ADMISSION', label: 'Par admission' },
    { code: 'PAR_SCORING', label: 'Par scoring' },
  ],
  OUI_NON: [
    { code: 'OUI', label: 'Oui' },
    { code: 'NON', label: 'Non' },
  ],
};

const ID_DECLARATION: ColumnSpec = {
  name: 'ID_DECLARATION',
  labels: { fr: 'Identifiant de la déclaration', en: 'Declaration ID' },
  level: 'declaration',
  type: 'text',
  json: { kind: 'string', path: 'id' },
  maxLength: 255,
  formula: true,
  presence: both(REQ),
};
const REFERENCE_DECLARATION: ColumnSpec = {
  name: 'REFERENCE_DECLARATION',
  labels: { fr: 'Référence de la déclaration', en: 'Declaration reference' },
  level: 'declaration',
  type: 'text',
  json: { kind: 'string', path: 'reference' },
  maxLength: 280,
  formula: true,
  presence: both(REQ),
};
const ID_UNIQUE_PARTENAIRE: ColumnSpec = {
  name: 'ID_UNIQUE_PARTENAIRE',
  labels: { fr: 'Identifiant unique partenaire', en: 'Partner unique ID' },
  level: 'holder',
  type: 'text',
  json: { kind: 'string', path: 'unique_id' },
  maxLength: 255,
  formula: true,
  presence: both(REQ),
};
const COMPETENCE_TRANSFERABLE: ColumnSpec = {
  name: 'COMPETENCE_TRANSFERABLE',
  labels: { fr: 'Compétences transférables (codes ROME)', en: 'Transferable skills (ROME codes)' },
  level: 'declaration',
  type: 'codes',
  json: { kind: 'codes', path: 'transferable_skills' },
  list: 'rome',
  maxLength: 70,
  count: { training_organization: [3, 10], employer: [0, 10] },
  presence: byDeclarant(REQ, OPT),
};

/** The training block; `inJdr` makes each column conditional on PRESENCE_FORMATION = OUI. */
function trainingColumns(inJdr: boolean): ColumnSpec[] {
  const t = (p: Presence): Presence => (inJdr && p !== 'never' && !p.when ? { ...p, when: 'training' } : p);
  const name: ColumnSpec = {
    name: 'NOM_FORMATION',
    labels: { fr: 'Intitulé de la formation', en: 'Training name' },
    level: 'declaration',
    type: 'text',
    json: { kind: 'string', path: 'training.name' },
    maxLength: 250,
    formula: true,
    presence: both(t(REQ)),
  };
  const start: ColumnSpec = {
    name: 'DATE_DEBUT_FORMATION',
    labels: { fr: 'Date de début de la formation', en: 'Training start date' },
    level: 'declaration',
    type: 'date',
    json: { kind: 'date', path: 'training.start_date' },
    notFuture: true,
    presence: both(t(REQ)),
  };
  const end: ColumnSpec = {
    ...start,
    name: 'DATE_FIN_FORMATION',
    labels: { fr: 'Date de fin de la formation', en: 'Training end date' },
    json: { kind: 'date', path: 'training.end_date' },
  };
  const mode: ColumnSpec = {
    name: 'MODALITE_DISPENSE',
    labels: { fr: 'Modalité de dispense', en: 'Delivery mode' },
    level: 'declaration',
    type: 'enum',
    json: { kind: 'enum', path: 'training.delivery_mode' },
    values: DELIVERY_MODES,
    presence: both(t(OPT)),
  };
  const qualification: ColumnSpec = {
    name: 'QUALIFICATION_FORMATEUR',
    labels: { fr: 'Qualification du formateur', en: 'Trainer qualification' },
    level: 'declaration',
    type: 'enum',
    json: { kind: 'enum', path: 'training.trainer_qualification' },
    values: TRAINER_QUALIFICATIONS,
    presence: both(t(OPT)),
  };
  const certifying: ColumnSpec = {
    name: 'FORMATION_CERTIFIANTE',
    labels: { fr: 'Formation certifiante', en: 'Certifying training' },
    level: 'declaration',
    type: 'enum',
    json: { kind: 'boolean', path: 'training.certifying' },
    values: YES_NO,
    presence: byDeclarant(t(REQ), t(OPT)),
  };
  const certification: ColumnSpec = {
    name: 'CERTIFICATION_VISEE',
    labels: { fr: 'Certification visée (code RS)', en: 'Target certification (RS code)' },
    level: 'declaration',
    type: 'codes',
    json: { kind: 'codes', path: 'training.certification_code' },
    list: 'rs',
    maxLength: 9,
    presence: byDeclarant({ required: true, when: 'certifying' }, { required: false, when: 'certifying' }),
  };
  const domains: ColumnSpec = {
    name: 'DOMAINE_FORMATION',
    labels: { fr: 'Domaines de formation (Formacodes)', en: 'Training domains (Formacodes)' },
    level: 'declaration',
    type: 'codes',
    json: { kind: 'codes', path: 'training.formacodes' },
    list: 'formacode',
    maxLength: 30,
    count: { training_organization: [1, 5], employer: [0, 5] },
    presence: byDeclarant(
      { required: true, when: 'not_certifying' },
      { required: false, when: 'not_certifying_or_unset' },
    ),
  };
  const specialties: ColumnSpec = {
    ...domains,
    name: 'SPECIALITE_FORMATION',
    labels: { fr: 'Spécialités de formation (codes NSF)', en: 'Training specialties (NSF codes)' },
    json: { kind: 'codes', path: 'training.nsf_codes' },
    list: 'nsf',
    maxLength: 15,
    count: { training_organization: [1, 3], employer: [0, 3] },
  };
  return inJdr
    ? [name, start, end, mode, qualification, certifying, certification, domains, specialties]
    : [
        name,
        start,
        end,
        mode,
        COMPETENCE_TRANSFERABLE,
        qualification,
        certifying,
        certification,
        domains,
        specialties,
      ];
}

const HOLDER_COLUMNS: readonly ColumnSpec[] = [
  {
    name: 'NIR',
    labels: { fr: 'Numéro de sécurité sociale (NIR)', en: 'Social security number (NIR)' },
    level: 'holder',
    type: 'nir',
    json: { kind: 'nir', path: 'nir' },
    maxLength: 13,
    presence: both(REQ),
  },
  {
    name: 'NOM_TITULAIRE',
    labels: { fr: 'Nom de naissance du titulaire', en: "Holder's birth name" },
    level: 'holder',
    type: 'text',
    json: { kind: 'string', path: 'birth_name' },
    maxLength: 30,
    formula: true,
    presence: both(REQ),
  },
  {
    name: 'PRESENCE_EMPLOYEUR',
    labels: { fr: "Accord de l'employeur", en: "Employer's agreement" },
    level: 'holder',
    type: 'enum',
    json: { kind: 'employer_presence', path: 'employer_agreement' },
    values: YES_NO,
    presence: byDeclarant(REQ, 'never'),
  },
  {
    name: 'SIRET_EMPLOYEUR',
    labels: { fr: "SIRET de l'employeur", en: "Employer's SIRET" },
    level: 'holder',
    type: 'siret',
    json: { kind: 'siret', path: 'employer_siret' },
    maxLength: 14,
    presence: byDeclarant({ required: true, when: 'employer_present' }, 'never'),
  },
  {
    name: 'REFERENCE_EMPLOYEUR',
    labels: { fr: 'Référence employeur', en: 'Employer reference' },
    level: 'holder',
    type: 'text',
    json: { kind: 'string', path: 'employer_reference' },
    maxLength: 255,
    formula: true,
    presence: byDeclarant({ required: false, when: 'employer_present' }, OPT),
  },
  {
    name: 'DATE_DEBUT_VALIDITE',
    labels: { fr: 'Date de début de validité', en: 'Validity start date' },
    level: 'holder',
    type: 'date',
    json: { kind: 'date', path: 'validity_start' },
    presence: both(REQ),
  },
  {
    name: 'DATE_FIN_VALIDITE',
    labels: { fr: 'Date de fin de validité', en: 'Validity end date' },
    level: 'holder',
    type: 'date',
    json: { kind: 'date', path: 'validity_end' },
    presence: both(OPT),
  },
];

const JDR_RESULT_COLUMNS: readonly ColumnSpec[] = [
  {
    name: 'RESULTAT_OBTENU',
    labels: { fr: 'Résultat obtenu', en: 'Result obtained' },
    level: 'holder',
    type: 'text',
    json: { kind: 'string', path: 'result' },
    maxLength: 1000,
    formula: true,
    presence: both(OPT),
  },
  {
    name: 'MENTION_OBTENUE',
    labels: { fr: 'Mention obtenue', en: 'Distinction obtained' },
    level: 'holder',
    type: 'text',
    json: { kind: 'string', path: 'mention' },
    maxLength: 255,
    formula: true,
    presence: both(OPT),
  },
  {
    name: 'LIEN_PREUVE',
    labels: { fr: 'Lien vers la preuve', en: 'Proof link' },
    level: 'holder',
    type: 'url',
    json: { kind: 'string', path: 'proof_url' },
    maxLength: 1000,
    presence: both(OPT),
  },
  {
    name: 'IDENTIFIANT_PREUVE',
    labels: { fr: 'Identifiant de la preuve', en: 'Proof ID' },
    level: 'holder',
    type: 'text',
    json: { kind: 'string', path: 'proof_id' },
    maxLength: 255,
    formula: true,
    presence: both(OPT),
  },
];

const CERTIFICATE_COLUMNS: readonly ColumnSpec[] = [
  {
    name: 'TYPE_JDR',
    labels: { fr: 'Type de justificatif de réussite', en: 'Type of proof of success' },
    level: 'declaration',
    type: 'enum',
    json: { kind: 'enum', path: 'certificate.type' },
    values: JDR_TYPES,
    presence: both(REQ),
  },
  {
    name: 'NOM_JDR',
    labels: { fr: 'Intitulé du justificatif de réussite', en: 'Name of the proof of success' },
    level: 'declaration',
    type: 'text',
    json: { kind: 'string', path: 'certificate.name' },
    maxLength: 255,
    formula: true,
    presence: both(REQ),
  },
  {
    name: 'NOM_OPTION_SPECIALITE',
    labels: { fr: 'Option ou spécialité', en: 'Option or specialty' },
    level: 'declaration',
    type: 'text',
    json: { kind: 'string', path: 'certificate.option_specialty' },
    maxLength: 255,
    formula: true,
    presence: both(OPT),
  },
  {
    name: 'MODE_OBTENTION',
    labels: { fr: "Mode d'obtention", en: 'Obtention mode' },
    level: 'declaration',
    type: 'enum',
    json: { kind: 'enum', path: 'certificate.obtention_mode' },
    values: OBTENTION_MODES,
    presence: both(OPT),
  },
];

const PRESENCE_FORMATION: ColumnSpec = {
  name: 'PRESENCE_FORMATION',
  labels: { fr: 'Formation suivie', en: 'Training attended' },
  level: 'declaration',
  type: 'enum',
  json: { kind: 'training_presence', path: 'training' },
  values: YES_NO,
  // The official JDR guide marks it optional: an empty cell reads as NON.
  presence: both(OPT),
};

const ADF: KindTable = {
  type: 'adf',
  columns: [
    ID_DECLARATION,
    REFERENCE_DECLARATION,
    ID_UNIQUE_PARTENAIRE,
    ...trainingColumns(false),
    ...HOLDER_COLUMNS,
  ],
  deadlineColumn: 'DATE_FIN_FORMATION',
};

const JDR: KindTable = {
  type: 'jdr',
  columns: [
    ID_DECLARATION,
    REFERENCE_DECLARATION,
    ID_UNIQUE_PARTENAIRE,
    ...CERTIFICATE_COLUMNS,
    COMPETENCE_TRANSFERABLE,
    PRESENCE_FORMATION,
    ...trainingColumns(true),
    ...HOLDER_COLUMNS,
    ...JDR_RESULT_COLUMNS,
  ],
  deadlineColumn: 'DATE_DEBUT_VALIDITE',
};

export const SPEC_2026_02: SpecVersion = {
  version: '2026-02',
  tables: { adf: ADF, jdr: JDR },
  enumerations: ENUMERATIONS,
  limits: {
    maxHoldersPerDeclaration: 500,
    maxErrorsListed: 1000,
    maxRowsLive: 50_000,
    maxRowsTest: 50,
    maxBytes: 20 * 1024 * 1024,
    maxRetentionHours: 24,
  },
};
