import { FORMACODES, NSF_CODES, ROME_CODES, SIRET_A } from '@ppfile/rules/testing/fixtures';
import { nirKey } from '@ppfile/rules/values/nir';

const PER_DECLARATION = 500;

/**
 * The benchmarks' large body: a training organization's adf of `rows` holders in declarations of
 * 500, long-ish texts (50,000 rows weigh about 15 MB). Each declaration names 3 to 2 + `romeSpread`
 * ROME codes (the CLI's benchmark keeps to those the shipped list holds).
 */
export function largeAdfBody(rows: number, romeSpread: number): Record<string, unknown> {
  const declarations = [];
  let n = 0;
  for (let d = 0; d < rows / PER_DECLARATION; d++) {
    const holders = [];
    for (let h = 0; h < PER_DECLARATION; h++, n++) {
      const nir13 = `${1 + (n % 2)}${String(60 + (n % 40)).padStart(2, '0')}${String(1 + (n % 12)).padStart(2, '0')}75${String(100 + (n % 800)).padStart(3, '0')}${String(1 + (n % 998)).padStart(3, '0')}`;
      holders.push({
        unique_id: `S2026-${String(d).padStart(4, '0')}-E${String(n).padStart(6, '0')}`,
        nir: n % 10 === 0 ? `${nir13}${nirKey(nir13)}` : nir13,
        birth_name: `NOM-${n % 997}`,
        employer_siret: SIRET_A,
        employer_reference: `CLIENT-${String(n % 3000).padStart(5, '0')}`,
        validity_start: '2026-09-15',
        validity_end: '15/09/2028',
      });
    }
    declarations.push({
      id: `SESSION-2026-${String(d).padStart(4, '0')}`,
      reference: `Session SST groupe ${d}`,
      transferable_skills: ROME_CODES.slice(0, 3 + (d % romeSpread)),
      training: {
        name: `Sauveteur secouriste du travail — session ${d}`,
        start_date: '2026-09-14',
        end_date: '2026-09-15',
        delivery_mode: 'PRESENTIEL',
        trainer_qualification: 'FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE',
        certifying: false,
        formacodes: FORMACODES.slice(0, 1 + (d % 5)),
        nsf_codes: NSF_CODES.slice(1, 2 + (d % 3)),
      },
      holders,
    });
  }
  return { type: 'adf', declarant: 'training_organization', declarations };
}
