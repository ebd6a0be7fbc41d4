/** OpenAPI description of the declaration body (SERVICE.md §2.1, API.md §2–§3); the rules library checks it. */
const dateString = { type: 'string', example: '2026-09-15', description: 'YYYY-MM-DD or dd/mm/yyyy' };

export const HOLDER_SCHEMA = {
  type: 'object',
  required: ['unique_id', 'nir', 'birth_name', 'validity_start'],
  properties: {
    unique_id: { type: 'string', maxLength: 255, description: 'ID_UNIQUE_PARTENAIRE: session id, hyphen, employee id' },
    nir: { type: 'string', description: 'NIR, 13 characters (15 with a correct key are accepted)' },
    birth_name: { type: 'string', maxLength: 30 },
    employer_siret: { type: 'string', description: 'training organization only' },
    employer_agreement: { type: 'boolean', description: 'training organization only; derived from employer_siret' },
    employer_reference: { type: 'string', maxLength: 255 },
    validity_start: dateString,
    validity_end: dateString,
    result: { type: 'string', maxLength: 1000, description: 'jdr only' },
    mention: { type: 'string', maxLength: 255, description: 'jdr only' },
    proof_url: { type: 'string', maxLength: 1000, description: 'jdr only, absolute http(s) URL' },
    proof_id: { type: 'string', maxLength: 255, description: 'jdr only' },
  },
  additionalProperties: false,
};

export const DECLARATION_BODY_SCHEMA = {
  type: 'object',
  required: ['type', 'declarant', 'declarations'],
  properties: {
    type: { type: 'string', enum: ['adf', 'jdr'] },
    declarant: { type: 'string', enum: ['employer', 'training_organization'] },
    spec_version: { type: 'string', example: '2026-02' },
    declarations: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        required: ['id', 'reference', 'holders'],
        properties: {
          id: { type: 'string', maxLength: 255 },
          reference: { type: 'string', maxLength: 280 },
          transferable_skills: { type: 'array', items: { type: 'string', example: '115650' }, maxItems: 10 },
          training: {
            type: 'object',
            properties: {
              name: { type: 'string', maxLength: 250 },
              start_date: dateString,
              end_date: dateString,
              delivery_mode: { type: 'string', enum: ['A_DISTANCE', 'PRESENTIEL', 'MIXTE'] },
              trainer_qualification: { type: 'string', description: 'see GET /v1/spec/2026-02' },
              certifying: { type: 'boolean' },
              certification_code: { type: 'string', example: 'RS6550' },
              formacodes: { type: 'array', items: { type: 'string' }, maxItems: 5 },
              nsf_codes: { type: 'array', items: { type: 'string' }, maxItems: 3 },
            },
          },
          certificate: {
            type: 'object',
            description: 'jdr only',
            properties: {
              type: { type: 'string', enum: ['DIPLOME', 'TITRE', 'HABILITATION', 'CERTIFICAT'] },
              name: { type: 'string', maxLength: 255 },
              option_specialty: { type: 'string', maxLength: 255 },
              obtention_mode: { type: 'string', enum: ['PAR_ADMISSION', 'PAR_SCORING'] },
            },
          },
          holders: { type: 'array', minItems: 1, items: HOLDER_SCHEMA },
        },
      },
    },
    options: {
      type: 'object',
      properties: {
        store: { type: 'boolean', default: true },
        retention_hours: { type: 'integer', minimum: 1, maximum: 24, default: 24 },
        strict_references: { type: 'boolean', default: true },
        formula_policy: { type: 'string', enum: ['reject', 'warn', 'allow'], default: 'reject' },
        split_large_declarations: { type: 'boolean', default: false },
      },
    },
  },
};
