/**
 * The request examples of the OpenAPI document: real declarations that the server accepts as they
 * are (test/openapi.e2e-spec.ts sends each one). The people are fictitious; their NIRs have the
 * right shape and key, the SIRET its Luhn check digit, the codes exist in the shipped lists.
 */
const training = {
  name: 'Sauveteur secouriste du travail',
  start_date: '2026-09-14',
  end_date: '2026-09-15',
  // Any case: the server normalizes enumerated values (normalizations tell what it changed).
  delivery_mode: 'presentiel',
  trainer_qualification: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
  certifying: false,
  formacodes: ['42829'],
  nsf_codes: ['344r'],
};

export const OPENAPI_EXAMPLES = {
  employerAdf: {
    type: 'adf',
    declarant: 'employer',
    spec_version: '2026-02',
    declarations: [
      {
        id: 'SST-2026-09',
        reference: 'Session SST septembre 2026',
        transferable_skills: ['115650', '121885'],
        training,
        holders: [
          {
            unique_id: 'SST-2026-09-001',
            nir: '1870975115042',
            birth_name: 'EXEMPLE',
            validity_start: '2026-09-15',
            validity_end: '2028-09-14',
            employer_reference: 'RH-7',
          },
          {
            unique_id: 'SST-2026-09-002',
            nir: '2910369123017',
            birth_name: 'MODELE',
            validity_start: '2026-09-15',
            validity_end: '2028-09-14',
            employer_reference: 'RH-8',
          },
        ],
      },
    ],
  },
  trainingOrganizationJdr: {
    type: 'jdr',
    declarant: 'training_organization',
    spec_version: '2026-02',
    options: { store: true, retention_hours: 24 },
    declarations: [
      {
        id: 'SST-2026-10',
        reference: 'Session SST octobre 2026',
        transferable_skills: ['115650', '121885', '400635'],
        training: {
          ...training,
          delivery_mode: 'PRESENTIEL',
          start_date: '2026-10-05',
          end_date: '2026-10-06',
        },
        certificate: {
          type: 'CERTIFICAT',
          name: 'Sauveteur secouriste du travail',
          obtention_mode: 'PAR_ADMISSION',
        },
        holders: [
          {
            unique_id: 'SST-2026-10-001',
            nir: '1870975115042',
            birth_name: 'EXEMPLE',
            validity_start: '2026-10-06',
            validity_end: '2028-10-05',
            employer_siret: '44123456700010',
            employer_reference: 'CLIENT-42',
            result: 'Admis',
            proof_url: 'https://certificats.example.org/sst/2026-10-001',
          },
        ],
      },
    ],
  },
};
