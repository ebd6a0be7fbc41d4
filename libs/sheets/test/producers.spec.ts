/**
 * Workbooks from several producers (issue 33, "done when": no valid workbook refused, every refusal
 * naming its cause and what to do). fixtures/producers/ holds one workbook of the same data
 * (corpus.json) written by each of openpyxl, exceljs, SheetJS and LibreOffice Calc, LibreOffice's
 * CSV exports (`;`, and `|` with every text quoted), and the workbook saved by LibreOffice with a
 * password; make.sh remakes them all. Each has a notes sheet of 25 rows before the Passeport sheet
 * (deflated, as every program writes), a cell with a line break (SheetJS writes it `_x000d_`), a
 * formula (left without its result by openpyxl, exceljs and SheetJS), date cells, the NIR as a number
 * and as text, and headers as people write them (`Session *`, `NIR (13 chiffres)`, `Date début :`).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { generateFile } from '@ppfile/rules';
import { NIR_A, NIR_B, NIR_CORSICA } from '@ppfile/rules/testing/fixtures';
import { ENV, importOf } from '../src/testing/workbooks';

const fixture = (name: string) => readFileSync(path.join(__dirname, 'fixtures', 'producers', name));
const env = { ...ENV, generationDay: 20261122, randomHex: () => '0a1b2c3d' };

const sst = {
  id: 'SST-2026-09',
  reference: 'Session SST septembre 2026',
  transferable_skills: ['115650', '121885'],
  training: {
    name: 'Sauveteur secouriste du travail',
    start_date: '14/09/2026',
    end_date: '15/09/2026',
    delivery_mode: 'PRESENTIEL',
    certifying: false,
    formacodes: ['42829'],
    nsf_codes: ['344r'],
  },
};
const validity = { validity_start: '15/09/2026', validity_end: '14/09/2028' };

/** The body of sheet Stagiaires; `computed`: whether the file holds the result of C2's formula. */
function expectedBody(computed: boolean) {
  return {
    type: 'adf',
    declarant: 'employer',
    spec_version: '2026-02',
    declarations: [
      {
        ...sst,
        holders: [
          {
            ...(computed ? { unique_id: 'SST-2026-09-E1' } : {}),
            nir: NIR_A,
            birth_name: 'DUPONT',
            ...validity,
          },
          { unique_id: 'SST-2026-09-E2', nir: NIR_B, birth_name: 'BÉRANGER', ...validity },
        ],
      },
      {
        id: 'HAB-2026-10',
        reference: 'Habilitation B0 octobre',
        transferable_skills: ['115650'],
        training: {
          name: 'Habilitation électrique B0',
          start_date: '05/10/2026',
          end_date: '06/10/2026',
          delivery_mode: 'A_DISTANCE',
          certifying: false,
          formacodes: ['42866'],
          nsf_codes: ['255s'],
        },
        holders: [
          {
            unique_id: 'HAB-2026-10-E1',
            nir: NIR_CORSICA,
            birth_name: 'GARÇON',
            validity_start: '06/10/2026',
          },
        ],
      },
    ],
  };
}

const MAPPING = [
  ['Session *', 'ID_DECLARATION'],
  ['Référence', 'REFERENCE_DECLARATION'],
  ['ID stagiaire', 'ID_UNIQUE_PARTENAIRE'],
  ['Intitulé de la formation', 'NOM_FORMATION'],
  ['Date début :', 'DATE_DEBUT_FORMATION'],
  ['Date de fin', 'DATE_FIN_FORMATION'],
  ['Modalité', 'MODALITE_DISPENSE'],
  ['Codes ROME', 'COMPETENCE_TRANSFERABLE'],
  ['Certifiante', 'FORMATION_CERTIFIANTE'],
  ['Formacodes', 'DOMAINE_FORMATION'],
  ['Codes NSF', 'SPECIALITE_FORMATION'],
  ['NIR (13 chiffres)', 'NIR'],
  ['Nom de naissance*', 'NOM_TITULAIRE'],
  ['Début de validité', 'DATE_DEBUT_VALIDITE'],
  ['Fin de validité', 'DATE_FIN_VALIDITE'],
];

describe.each([
  { file: 'libreoffice.xlsx', computed: true },
  { file: 'openpyxl.xlsx', computed: false },
  { file: 'exceljs.xlsx', computed: false },
  { file: 'sheetjs.xlsx', computed: false },
])('$file', ({ file, computed }) => {
  const r = importOf(fixture(file), { filename: file });

  it('is a deflated workbook of a few KB, its Passeport sheet after a notes sheet of 25 rows', () => {
    const bytes = fixture(file);
    expect(bytes.length).toBeLessThan(16 * 1024);
    // Method 8 (deflate) in the first local header: the header search stops a deflated sheet early.
    expect(bytes.readUInt16LE(8)).toBe(8);
    expect([r.sheet, r.header_row, r.rows_read, r.declarations]).toEqual(['Stagiaires', 1, 3, 2]);
  });

  it('imports to the expected body: line breaks split, date cells their days, the NIR as number and as text', () => {
    expect(r.body).toEqual(expectedBody(computed));
    expect(r.mapping.map((m) => [m.header, m.column])).toEqual(MAPPING);
    expect(r.unmapped_headers).toEqual(['Commentaire']);
    expect(r.missing_columns).toEqual([]);
  });

  it(
    computed
      ? 'reads the formula LibreOffice computed, and the body is valid'
      : 'names the formula saved without its result (UNCOMPUTED_FORMULA), not #VALUE!',
    () => {
      if (computed) {
        expect(r.issues).toEqual([]);
        expect(r.validation.errors).toEqual([]);
        expect(generateFile(r.body, env).content.equals(generateFile(expectedBody(true), env).content)).toBe(
          true,
        );
        return;
      }
      expect(r.issues).toEqual([
        {
          cell: 'Stagiaires!C2',
          row: 2,
          column: 'ID_UNIQUE_PARTENAIRE',
          code: 'UNCOMPUTED_FORMULA',
          message:
            'ID_UNIQUE_PARTENAIRE: a formula that was never computed (the file holds no result for it): open and save the file in Excel or LibreOffice; the cell is read as empty.',
        },
      ]);
      expect(r.validation.errors.map((e) => [e.cell, e.code])).toEqual([['Stagiaires!C2', 'REQUIRED_FIELD']]);
    },
  );
});

describe('LibreOffice CSV exports', () => {
  it('with ;: date cells written with their time at midnight are dates (issue 33, item 7)', () => {
    const file = 'libreoffice-semicolon.csv';
    const r = importOf(fixture(file), { filename: file });
    expect(r.body).toEqual(expectedBody(true));
    expect(r.issues).toEqual([]);
    expect(r.validation.errors).toEqual([]);
    expect(r.validation.normalizations).toContainEqual(
      expect.objectContaining({ rule: 'DATE_REFORMATTED', cell: "'libreoffice-semicolon.csv'!E2" }),
    );
  });

  it('with | and every text quoted: refused, saying the headers are inside quotes and what to do', () => {
    const file = 'libreoffice-pipe-quoted.csv';
    let error: { code?: string; message?: string; details?: unknown } = {};
    try {
      importOf(fixture(file), { filename: file });
    } catch (e) {
      error = e as typeof error;
    }
    expect(error.code).toBe('UNREADABLE_FILE');
    expect(error.details).toEqual({ reason: 'no_header_row' });
    expect(error.message).toContain('Row 1 holds the headers inside quotes');
    expect(error.message).toContain('Quote all text cells');
    expect(error.message).not.toContain('not a readable');
  });
});

describe('libreoffice-password.xlsx (saved by LibreOffice with a password)', () => {
  it('is refused as protected by a password, saying how to remove it, not as an .xls', () => {
    for (const lang of ['en', 'fr'] as const) {
      let error: { code?: string; message?: string; details?: unknown } = {};
      try {
        importOf(fixture('libreoffice-password.xlsx'), {}, { lang });
      } catch (e) {
        error = e as typeof error;
      }
      expect(error.code).toBe('UNREADABLE_FILE');
      expect(error.details).toEqual({ reason: 'encrypted' });
      expect(error.message).toContain(
        lang === 'en' ? 'protected by a password' : 'protégé par un mot de passe',
      );
      expect(error.message).toContain(lang === 'en' ? 'Protect Workbook' : 'Protéger le classeur');
      expect(error.message).not.toContain('.xls)');
    }
  });
});
