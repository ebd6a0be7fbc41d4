/**
 * Test helpers: small reference lists and valid bodies for the four kinds. Used by the unit tests
 * of libs/rules and by the CLI and e2e tests; never by production code.
 */
import { createReferenceLists, type ReferenceLists } from '../references';

/** NIRs with their keys (computed, fictitious): 2550814168025 key 38, 1850578006084 key 91. */
export const NIR_A = '2550814168025';
export const NIR_A_KEY = '38';
export const NIR_B = '1850578006084';
export const NIR_B_KEY = '91';
export const NIR_CORSICA = '180122B012345';
export const NIR_CORSICA_KEY = '75';
/** Valid SIRETs (Luhn): 20005667900018, 44123456700010; La Poste: 35600000000048. */
export const SIRET_A = '20005667900018';
export const SIRET_B = '44123456700010';

export const ROME_CODES = [
  '115650',
  '121885',
  '400635',
  '114955',
  '120864',
  '400610',
  '103885',
  '102382',
  '496733',
  '121831',
  '119571',
];
export const FORMACODES = ['42829', '42817', '42866', '42875', '42819'];
export const NSF_CODES = ['344', '344r', '344p', '311u', '230r', '255s'];
/** The three-digit groups of NSF_CODES: a letter code needs its group in the list. */
export const NSF_GROUPS = ['311', '230', '255'];
export const RS_CODES = ['RS6550', 'RS5635'];

export function testReferences(opts: { complete?: boolean } = {}): ReferenceLists {
  const complete = opts.complete ?? true;
  const list = (codes: string[]) => ({
    source: 'test',
    version: 'test',
    complete,
    entries: codes.map((c) => [c, `label ${c}`] as const),
  });
  return createReferenceLists({
    rome: list(ROME_CODES),
    formacode: list(FORMACODES),
    nsf: { ...list([...NSF_CODES, ...NSF_GROUPS]), complete: false },
    rs: list(RS_CODES),
  });
}

type Json = Record<string, unknown>;

export function adfTraining(overrides: Json = {}): Json {
  return {
    name: 'Sauveteur secouriste du travail',
    start_date: '2026-09-14',
    end_date: '2026-09-15',
    delivery_mode: 'PRESENTIEL',
    trainer_qualification: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
    certifying: false,
    formacodes: ['42829', '42817'],
    nsf_codes: ['344r', '344p'],
    ...overrides,
  };
}

export function holder(i: number, overrides: Json = {}): Json {
  return {
    unique_id: `SST-2026-09-E${i}`,
    nir: i % 2 === 0 ? NIR_A : NIR_B,
    birth_name: i % 2 === 0 ? 'DUPONT' : 'MARTIN',
    validity_start: '2026-09-15',
    validity_end: '2028-09-14',
    ...overrides,
  };
}

/** A valid body of any kind, `holders` holders in one declaration. */
export function validBody(
  type: 'adf' | 'jdr',
  declarant: 'employer' | 'training_organization',
  holders = 2,
): Json {
  const isOf = declarant === 'training_organization';
  const declaration: Json = {
    id: 'SST-2026-09',
    reference: 'Session SST septembre 2026',
    transferable_skills: ['115650', '121885', '400635'],
    training: adfTraining(),
    holders: Array.from({ length: holders }, (_, i) =>
      holder(
        i,
        isOf ? { employer_siret: SIRET_A, employer_reference: 'CLIENT-42' } : { employer_reference: 'RH-7' },
      ),
    ),
  };
  if (type === 'jdr') {
    declaration.certificate = {
      type: 'CERTIFICAT',
      name: 'Sauveteur secouriste du travail',
      obtention_mode: 'PAR_ADMISSION',
    };
    (declaration.holders as Json[]).forEach((h) => {
      h.result = 'Admis';
      h.proof_url = 'https://certificats.example.org/sst/1';
    });
  }
  return { type, declarant, spec_version: '2026-02', declarations: [declaration] };
}
