/**
 * Workbooks written by LibreOffice Calc (issue 21: at least one made by another program than ours):
 * fixtures/libreoffice-1900.xlsx and -1904.xlsx, converted from the flat ODS sources beside them
 * (make-fods.py; `soffice --headless --convert-to xlsx`). The same data in both date systems.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generateFile } from '@ppfile/rules';
import { NIR_A, NIR_B, NIR_CORSICA } from '@ppfile/rules/testing/fixtures';
import { ENV, importOf } from '../src/testing/workbooks';

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name));
const env = { ...ENV, generationDay: 20261122, randomHex: () => '0a1b2c3d' };

/** What sheet Stagiaires holds, as the JSON body someone would have sent. */
const EXPECTED = {
  type: 'adf',
  declarant: 'employer',
  declarations: [
    {
      id: 'SST-2026-09',
      reference: 'Session SST septembre 2026',
      transferable_skills: ['115650', '121885', '400635'],
      training: {
        name: 'Sauveteur secouriste du travail',
        start_date: '2026-09-14',
        end_date: '2026-09-15',
        delivery_mode: 'PRESENTIEL',
        certifying: false,
        formacodes: ['42829', '42817'],
        nsf_codes: ['344r'],
      },
      holders: [
        [NIR_A, 'DUPONT', 'SST-2026-09-E1'],
        [NIR_B, 'BÉRANGER', 'SST-2026-09-E2'],
        [NIR_CORSICA, 'GARÇON', 'SST-2026-09-E3'],
      ].map(([nir, birth_name, unique_id]) => ({
        unique_id,
        nir,
        birth_name,
        validity_start: '2026-09-15',
        validity_end: '2028-09-14',
      })),
    },
    {
      id: 'HAB-2026-10',
      reference: 'Habilitation B0 octobre',
      transferable_skills: ['115650'],
      training: {
        name: 'Habilitation électrique B0',
        start_date: '2026-10-05',
        end_date: '2026-10-06',
        delivery_mode: 'A_DISTANCE',
        certifying: false,
        formacodes: ['42866'],
        nsf_codes: ['255s'],
      },
      holders: [
        { unique_id: 'HAB-2026-10-E1', nir: NIR_B, birth_name: 'MARTIN', validity_start: '2026-10-06' },
      ],
    },
  ],
};

describe.each(['libreoffice-1900.xlsx', 'libreoffice-1904.xlsx'])(
  '%s (written by LibreOffice Calc)',
  (name) => {
    it('finds sheet Stagiaires (Notes has no header) and imports it into the body that generates the JSON’s bytes', () => {
      const r = importOf(fixture(name), { filename: name });
      expect(r.sheet).toBe('Stagiaires');
      expect(r.header_row).toBe(1);
      expect(r.rows_read).toBe(4);
      expect(r.declarations).toBe(2);
      expect(r.unmapped_headers).toEqual(['Commentaire']);
      expect(r.issues).toEqual([]);
      expect(r.validation.errors).toEqual([]);
      const decl = r.body.declarations[0]!;
      // Date cells became their days, numbers in the NIR column their digits, a formula its cached value.
      expect(
        (decl.holders as Record<string, unknown>[]).map((h) => [h.nir, h.birth_name, h.validity_start]),
      ).toEqual([
        [NIR_A, 'DUPONT', '15/09/2026'],
        [NIR_B, 'BÉRANGER', '15/09/2026'],
        [NIR_CORSICA, 'GARÇON', '15/09/2026'],
      ]);
      expect(generateFile(r.body, env).content.equals(generateFile(EXPECTED, env).content)).toBe(true);
      // The lower-case delivery mode was the cell's own: normalized by the validation, at its cell.
      expect(r.validation.normalizations).toContainEqual(
        expect.objectContaining({ rule: 'ENUM_UPPERCASED', cell: 'Stagiaires!I6' }),
      );
    });

    it('names the cell of every issue and validation error of sheet Problèmes', () => {
      const r = importOf(fixture(name), { filename: name, sheet: 'Problèmes' });
      const prefix = 'Problèmes';
      expect(r.issues.map((i) => [i.cell, i.column, i.code])).toEqual([
        [`${prefix}!H2`, 'NOM_TITULAIRE', 'UNREADABLE_CELL'],
        [`${prefix}!G3`, 'NIR', 'UNREADABLE_NUMBER'],
        [`${prefix}!I4`, 'DATE_DEBUT_VALIDITE', 'UNREADABLE_DATE'],
        [`${prefix}!D5`, 'NOM_FORMATION', 'DECLARATION_VALUES_DIFFER'],
      ]);
      expect(r.issues[0]!.message).toContain('#N/A');
      expect(r.validation.errors.map((e) => [e.cell, e.code])).toEqual([
        [`${prefix}!H2`, 'REQUIRED_FIELD'],
        [`${prefix}!G3`, 'INVALID_NIR'],
        [`${prefix}!I4`, 'INVALID_DATE'],
      ]);
    });
  },
);
