/** The generated file's bytes (SERVICE.md §2.5, API.md §3): compared as bytes, not parsed values. */
import { generateFile } from './api';
import { CsvWriter, writeCsv } from './csv-writer';
import { SPEC_2026_02 } from './format/v2026-02';
import { body, columnsOf, holders, testEnv } from './testing/format-helpers';

describe('writeCsv', () => {
  it('writes the header alone with its CRLF for no rows', () => {
    expect(writeCsv(SPEC_2026_02.tables.adf, []).toString('utf8')).toBe(`${columnsOf('adf').join('|')}\r\n`);
  });

  it('joins cells with | and ends every line, the last included, with CRLF', () => {
    const table = SPEC_2026_02.tables.adf;
    const row = columnsOf('adf').map((_, i) => (i === 0 ? 'É' : String(i)));
    const bytes = writeCsv(table, [row, row]);
    const line = row.join('|');
    expect(bytes.equals(Buffer.from(`${columnsOf('adf').join('|')}\r\n${line}\r\n${line}\r\n`, 'utf8'))).toBe(
      true,
    );
  });
});

describe('CsvWriter', () => {
  it('writes the same bytes whatever it was told of the row count (its buffer grows when told wrong)', () => {
    const table = SPEC_2026_02.tables.adf;
    const header = columnsOf('adf').join('|');
    // Rows that grow longer and wider (multi-byte) as they come: the first lines understate the size.
    const rows = Array.from({ length: 1000 }, (_, i) =>
      columnsOf('adf').map((_, c) =>
        c === 3 ? `Formation ${'é€😀'.repeat(Math.floor(i / 10))}` : `${i}-${c}`,
      ),
    );
    const expected = Buffer.from(
      [header, ...rows.map((r) => r.join('|'))].map((l) => `${l}\r\n`).join(''),
      'utf8',
    );
    for (const told of [0, 1, rows.length, 10 * rows.length]) {
      const writer = new CsvWriter(table, told);
      for (const row of rows) writer.add(row);
      expect(writer.toBuffer().equals(expected)).toBe(true);
    }
    expect(writeCsv(table, rows).equals(expected)).toBe(true);
  });
});

describe('a generated file', () => {
  it('is exactly these bytes (adf, employer, one holder)', () => {
    const b = body('adf', 'employer', 1);
    Object.assign(holders(b)[0]!, { birth_name: 'DUPONT-LÉGER', nir: '2 55 08 14 168 025' });
    const expected =
      'ID_DECLARATION|REFERENCE_DECLARATION|ID_UNIQUE_PARTENAIRE|NOM_FORMATION|DATE_DEBUT_FORMATION|DATE_FIN_FORMATION|MODALITE_DISPENSE|COMPETENCE_TRANSFERABLE|QUALIFICATION_FORMATEUR|FORMATION_CERTIFIANTE|CERTIFICATION_VISEE|DOMAINE_FORMATION|SPECIALITE_FORMATION|NIR|NOM_TITULAIRE|PRESENCE_EMPLOYEUR|SIRET_EMPLOYEUR|REFERENCE_EMPLOYEUR|DATE_DEBUT_VALIDITE|DATE_FIN_VALIDITE\r\n' +
      'SST-2026-09|Session SST septembre 2026|SST-2026-09-E0|Sauveteur secouriste du travail|14/09/2026|15/09/2026|PRESENTIEL|115650/121885/400635|FORMATEUR_D_ADULTES_FORMATION_SPECIALISEE|NON||42829/42817|344r/344p|2550814168025|DUPONT-LÉGER|||RH-7|15/09/2026|14/09/2028\r\n';
    const content = generateFile(b, testEnv()).content;
    expect(content.equals(Buffer.from(expected, 'utf8'))).toBe(true);
  });

  it('has no BOM, no quotation mark, no bare LF', () => {
    const b = body('jdr', 'training_organization', 3);
    holders(b)[1]!.mention = 'Très "bien"';
    const content = generateFile(b, testEnv()).content;
    expect([...content.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    const text = content.toString('utf8');
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n')).toHaveLength(5);
    // A quotation mark in a value is written as it is, never used to quote.
    expect(text).toContain('|Très "bien"|');
  });
});
