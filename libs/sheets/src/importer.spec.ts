import { findSpec, generateFile, RequestError, type ColumnSpec } from '@ppfile/rules';
import { NIR_A, NIR_A_KEY, NIR_B, SIRET_A, validBody } from '@ppfile/rules/testing/fixtures';
import { dayToSerial } from './cells';
import { ENV, importOf, sheet } from './testing/workbooks';
import type { CellInput } from './xlsx-writer';

const fixedFile = { ...ENV, generationDay: 20261122, randomHex: () => '0a1b2c3d' };
const bytesOf = (body: unknown) => generateFile(body, fixedFile).content;
const serial = (iso: string) => dayToSerial(Number(iso.replaceAll('-', '')));

/** What a person keeps: French headers in their own order, dates as date cells, NIRs typed as numbers. */
const FRENCH_HEADERS = [
  'Nom de naissance',
  'N° de sécurité sociale',
  'Session',
  'Référence',
  'ID unique',
  'Intitulé de la formation',
  'Date de début',
  'Date de fin',
  'Modalité',
  'Codes ROME',
  'Qualification du formateur',
  'Certifiante',
  'Formacodes',
  'Codes NSF',
  'Référence employeur',
  'Début de validité',
  'Fin de validité',
  'Commentaire',
];

describe('importSheet: a spreadsheet as people keep it (issue 21, "done when")', () => {
  it('imports French headers in any order, date cells, numeric NIRs and one session over several rows into the body that generates the same bytes as the JSON', () => {
    const json = validBody('adf', 'employer', 3);
    const decl = (json.declarations as Record<string, unknown>[])[0]!;
    const training = decl.training as Record<string, unknown>;
    const rows: CellInput[][] = [FRENCH_HEADERS];
    for (const h of decl.holders as Record<string, string>[]) {
      rows.push([
        h.birth_name,
        Number(h.nir),
        decl.id as string,
        decl.reference as string,
        h.unique_id,
        training.name as string,
        { date: serial(training.start_date as string) },
        { date: serial(training.end_date as string) },
        (training.delivery_mode as string).toLowerCase(),
        (decl.transferable_skills as string[]).join(', '),
        training.trainer_qualification as string,
        'non',
        (training.formacodes as string[]).join('/'),
        (training.nsf_codes as string[]).join(';'),
        h.employer_reference,
        { date: serial(h.validity_start!) },
        { date: serial(h.validity_end!) },
        'à relancer',
      ]);
    }
    const result = importOf(sheet(rows));
    expect(result.issues).toEqual([]);
    expect(result.validation.valid).toBe(true);
    expect(result.header_row).toBe(1);
    expect(result.rows_read).toBe(3);
    expect(result.declarations).toBe(1);
    expect(result.unmapped_headers).toEqual(['Commentaire']);
    expect(result.missing_columns).toEqual([]);
    expect(result.mapping[1]).toEqual({
      header: 'N° de sécurité sociale',
      column: 'NIR',
      cell: 'B1',
      how: 'synonym',
    });
    expect(result.mapping[10]).toEqual({
      header: 'Qualification du formateur',
      column: 'QUALIFICATION_FORMATEUR',
      cell: 'K1',
      how: 'label',
    });
    expect(bytesOf(result.body).equals(bytesOf(json))).toBe(true);
    // The lower-case delivery mode is the cell's own: the validation lists its normalization, with its cell.
    expect(result.validation.normalizations).toContainEqual({
      field: 'declarations[0].training.delivery_mode',
      column: 'MODALITE_DISPENSE',
      rule: 'ENUM_UPPERCASED',
      cell: 'Declarations!I2',
    });
  });
});

/** A sheet of the official names and one data row per entry; every other cell valid. */
function officialRows(overrides: Record<string, CellInput>[], declarant = 'employer'): CellInput[][] {
  const base: Record<string, CellInput> = {
    ID_DECLARATION: 'S1',
    REFERENCE_DECLARATION: 'Session 1',
    NOM_FORMATION: 'SST',
    DATE_DEBUT_FORMATION: '14/09/2026',
    DATE_FIN_FORMATION: '15/09/2026',
    FORMATION_CERTIFIANTE: 'NON',
    NOM_TITULAIRE: 'DUPONT',
    DATE_DEBUT_VALIDITE: '15/09/2026',
    ...(declarant === 'training_organization'
      ? {
          COMPETENCE_TRANSFERABLE: '115650/121885/400635',
          DOMAINE_FORMATION: '42829',
          SPECIALITE_FORMATION: '344r',
          SIRET_EMPLOYEUR: SIRET_A,
        }
      : {}),
  };
  const names = Object.keys({ ...base, ID_UNIQUE_PARTENAIRE: 1, NIR: 1, ...Object.assign({}, ...overrides) });
  return [
    names,
    ...overrides.map((o, i) => {
      const row: Record<string, CellInput> = { ...base, ID_UNIQUE_PARTENAIRE: `U${i}`, NIR: NIR_A, ...o };
      return names.map((n) => row[n]);
    }),
  ];
}

const holderOf = (r: { body: { declarations: Record<string, unknown>[] } }, d = 0, h = 0) =>
  (r.body.declarations[d]!.holders as Record<string, unknown>[])[h]!;

describe('importSheet: cells (API.md §14)', () => {
  it('reads a date cell as its calendar day in the 1900 and the 1904 date systems', () => {
    const day = 20260915;
    for (const date1904 of [false, true]) {
      const bytes = sheet(officialRows([{ DATE_DEBUT_VALIDITE: { date: dayToSerial(day, date1904) } }]), {
        date1904,
      });
      expect(holderOf(importOf(bytes)).validity_start).toBe('15/09/2026');
    }
    // The same serial means another day in the other system: the workbook's flag is what is read.
    const shifted = sheet(officialRows([{ DATE_DEBUT_VALIDITE: { date: dayToSerial(day, true) } }]));
    expect(holderOf(importOf(shifted)).validity_start).toBe('14/09/2022');
  });

  it('reads text dates dd/mm/yyyy, d/m/yyyy and yyyy-mm-dd; anything else is UNREADABLE_DATE at its cell', () => {
    const r = importOf(
      sheet(
        officialRows([
          { DATE_DEBUT_VALIDITE: '15/09/2026' },
          { DATE_DEBUT_VALIDITE: '5/9/2026' },
          { DATE_DEBUT_VALIDITE: '2026-09-15' },
          { DATE_DEBUT_VALIDITE: '15 septembre 2026' },
          { DATE_DEBUT_VALIDITE: 46280 },
        ]),
      ),
    );
    expect([0, 1, 2, 3, 4].map((h) => holderOf(r, 0, h).validity_start)).toEqual([
      '15/09/2026',
      '05/09/2026',
      '2026-09-15',
      '15 septembre 2026',
      '46280',
    ]);
    const col = 'H'; // DATE_DEBUT_VALIDITE is the 8th official name of officialRows
    expect(r.issues).toEqual([
      expect.objectContaining({
        cell: `Declarations!${col}5`,
        row: 5,
        column: 'DATE_DEBUT_VALIDITE',
        code: 'UNREADABLE_DATE',
      }),
      expect.objectContaining({ cell: `Declarations!${col}6`, row: 6, code: 'UNREADABLE_DATE' }),
    ]);
    // The text is kept: the validation also names the cell (INVALID_DATE), and the ISO date is rewritten.
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({
        row: 5,
        cell: `Declarations!${col}5`,
        column: 'DATE_DEBUT_VALIDITE',
        code: 'INVALID_DATE',
      }),
    );
    expect(r.validation.normalizations).toContainEqual(
      expect.objectContaining({ rule: 'DATE_REFORMATTED', cell: `Declarations!${col}4` }),
    );
  });

  it('lists d/m/yyyy written dd/mm/yyyy as DATE_REFORMATTED at its cell (API.md §5: no change unlisted)', () => {
    const r = importOf(
      sheet(
        officialRows([
          { DATE_DEBUT_FORMATION: '1/9/2026', DATE_DEBUT_VALIDITE: '15/09/2026' },
          { DATE_DEBUT_FORMATION: '01/09/2026', DATE_DEBUT_VALIDITE: '5/10/2026' },
          { ID_DECLARATION: 'S2', DATE_DEBUT_VALIDITE: '2026-09-15' },
        ]),
      ),
    );
    expect(r.issues).toEqual([]);
    expect((r.body.declarations[0]!.training as Record<string, string>).start_date).toBe('01/09/2026');
    expect(holderOf(r, 0, 1).validity_start).toBe('05/10/2026');
    // D: DATE_DEBUT_FORMATION, H: DATE_DEBUT_VALIDITE; in the body's order, among the validation's own.
    expect(r.validation.normalizations).toEqual([
      {
        field: 'declarations[0].training.start_date',
        column: 'DATE_DEBUT_FORMATION',
        rule: 'DATE_REFORMATTED',
        cell: 'Declarations!D2',
      },
      {
        field: 'declarations[0].holders[1].validity_start',
        column: 'DATE_DEBUT_VALIDITE',
        rule: 'DATE_REFORMATTED',
        cell: 'Declarations!H3',
      },
      {
        field: 'declarations[1].holders[0].validity_start',
        column: 'DATE_DEBUT_VALIDITE',
        rule: 'DATE_REFORMATTED',
        cell: 'Declarations!H4',
      },
    ]);
    expect(r.validation.normalization_count).toBe(3);
    expect(r.validation.valid).toBe(true);
  });

  it('reads a number in a NIR, SIRET or code column as its digits; a decimal part is UNREADABLE_NUMBER', () => {
    const r = importOf(
      sheet(
        officialRows(
          [
            { NIR: Number(NIR_A + NIR_A_KEY), SIRET_EMPLOYEUR: Number(SIRET_A), DOMAINE_FORMATION: 42829 },
            { NIR: 1850578006084.5 },
          ],
          'training_organization',
        ),
      ),
      { declarant: 'training_organization' },
    );
    const h = holderOf(r);
    expect(h.nir).toBe(NIR_A + NIR_A_KEY);
    expect(h.employer_siret).toBe(SIRET_A);
    expect((r.body.declarations[0]!.training as Record<string, unknown>).formacodes).toEqual(['42829']);
    expect(r.issues).toEqual([expect.objectContaining({ row: 3, column: 'NIR', code: 'UNREADABLE_NUMBER' })]);
    // NIR_KEY_REMOVED: the key of the 15-digit number is right, the validation removes and lists it.
    expect(r.validation.normalizations).toContainEqual(expect.objectContaining({ rule: 'NIR_KEY_REMOVED' }));
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({ row: 3, column: 'NIR', code: 'INVALID_NIR' }),
    );
  });

  it('reads OUI/NON, yes/no, true/false, 1/0, x and boolean cells; another word is UNREADABLE_CELL', () => {
    const words: CellInput[] = [
      'OUI',
      'non',
      'Yes',
      'no',
      'TRUE',
      'false',
      '1',
      0,
      'x',
      true,
      false,
      'peut-être',
    ];
    const r = importOf(
      sheet(officialRows(words.map((w, i) => ({ ID_DECLARATION: `S${i}`, FORMATION_CERTIFIANTE: w })))),
    );
    const certifying = r.body.declarations.map((d) => (d.training as Record<string, unknown>).certifying);
    expect(certifying).toEqual([
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      false,
      true,
      true,
      false,
      undefined,
    ]);
    expect(r.issues).toEqual([
      expect.objectContaining({ row: 13, column: 'FORMATION_CERTIFIANTE', code: 'UNREADABLE_CELL' }),
    ]);
  });

  it('splits multi-valued cells on / , ; and line breaks', () => {
    const r = importOf(
      sheet(officialRows([{ COMPETENCE_TRANSFERABLE: '115650 / 121885, 400635;114955\n120864\r\n400610' }])),
    );
    expect(r.body.declarations[0]!.transferable_skills).toEqual([
      '115650',
      '121885',
      '400635',
      '114955',
      '120864',
      '400610',
    ]);
  });

  it("reads a formula's cached value; an error value is UNREADABLE_CELL and read as empty", () => {
    const r = importOf(
      sheet(
        officialRows([
          {
            NOM_TITULAIRE: { formula: 'UPPER("dupont")', value: 'DUPONT' },
            NIR: { formula: 'A1', value: Number(NIR_B) },
            DATE_DEBUT_VALIDITE: { formula: 'DATE(2026,9,15)', value: { date: serial('2026-09-15') } },
            FORMATION_CERTIFIANTE: { formula: '1=2', value: false },
          },
          {
            NOM_TITULAIRE: { formula: 'VLOOKUP(A3,B:C,2,0)', value: { error: '#N/A' } },
            ID_UNIQUE_PARTENAIRE: 'U9',
          },
          { NOM_TITULAIRE: { error: '#REF!' }, ID_UNIQUE_PARTENAIRE: 'U10' },
          // An "error" whose value is not an error value is named #VALUE!: a cell's text is never quoted.
          { NOM_TITULAIRE: { error: NIR_A }, ID_UNIQUE_PARTENAIRE: 'U11' },
        ]),
      ),
    );
    expect(holderOf(r)).toMatchObject({ birth_name: 'DUPONT', nir: NIR_B, validity_start: '15/09/2026' });
    expect(holderOf(r, 0, 1).birth_name).toBeUndefined();
    expect(r.issues.map((i) => [i.cell, i.code])).toEqual([
      ['Declarations!G3', 'UNREADABLE_CELL'],
      ['Declarations!G4', 'UNREADABLE_CELL'],
      ['Declarations!G5', 'UNREADABLE_CELL'],
    ]);
    expect(r.issues[0]!.message).toContain('#N/A');
    expect(r.issues[2]!.message).toContain('#VALUE!');
    expect(JSON.stringify(r.issues)).not.toContain(NIR_A);
    // The empty birth name is then a validation error at the same cell.
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({ cell: 'Declarations!G3', column: 'NOM_TITULAIRE', code: 'REQUIRED_FIELD' }),
    );
  });

  it('reads inline strings and text-formatted cells', () => {
    const r = importOf(sheet(officialRows([{ NOM_TITULAIRE: { inline: 'MARTIN' }, NIR: { text: NIR_B } }])));
    expect(holderOf(r)).toMatchObject({ birth_name: 'MARTIN', nir: NIR_B });
  });
});

describe('importSheet: declarations', () => {
  it('groups rows by ID_DECLARATION in order of first appearance; a differing declaration-level cell is DECLARATION_VALUES_DIFFER', () => {
    const r = importOf(
      sheet(
        officialRows([
          { ID_DECLARATION: 'S1' },
          { ID_DECLARATION: 'S2' },
          { ID_DECLARATION: 'S1', NOM_FORMATION: 'SST recyclage' },
          {},
        ]),
      ),
    );
    expect(r.declarations).toBe(2);
    expect(r.body.declarations.map((d) => [d.id, (d.holders as unknown[]).length])).toEqual([
      ['S1', 3],
      ['S2', 1],
    ]);
    expect(r.issues).toEqual([
      expect.objectContaining({
        cell: 'Declarations!C4',
        row: 4,
        column: 'NOM_FORMATION',
        code: 'DECLARATION_VALUES_DIFFER',
      }),
    ]);
    expect(r.issues[0]!.message).toContain('row 2');
    // The first row's value is kept.
    expect((r.body.declarations[0]!.training as Record<string, unknown>).name).toBe('SST');
  });

  it('groups and compares on the cleaned value (trim + NFC, libs/rules): "S1" and "S1 " are one declaration, a trailing space differs in nothing', () => {
    const r = importOf(
      sheet(
        officialRows([
          { ID_DECLARATION: 'S1', NOM_FORMATION: 'Sécurité' },
          { ID_DECLARATION: 'S1 ', NOM_FORMATION: 'Se\u0301curite\u0301 ' },
          { ID_DECLARATION: ' S1', NOM_FORMATION: ' Sécurité' },
        ]),
      ),
    );
    expect(r.declarations).toBe(1);
    expect(r.issues).toEqual([]);
    expect((r.body.declarations[0]!.holders as unknown[]).length).toBe(3);
    expect(r.validation.valid).toBe(true);
  });

  it('skips empty rows and rows whose only cells are under unmapped headers', () => {
    const rows = officialRows([{}, {}]);
    rows[0]!.push('Notes');
    rows.splice(
      2,
      0,
      [],
      [null, null, null],
      rows[0]!.map((_, i) => (i === rows[0]!.length - 1 ? 'à voir' : null)),
    );
    const r = importOf(sheet(rows));
    expect(r.rows_read).toBe(2);
    expect(r.validation.valid).toBe(true);
  });

  it('maps every validation error to its cell, and a missing column to its row', () => {
    const rows = officialRows([{}, { NIR: '9550814168025' }]);
    const r = importOf(
      sheet(rows.map((row) => row.filter((_, i) => rows[0]![i] !== 'REFERENCE_DECLARATION'))),
    );
    expect(r.missing_columns).toEqual(['REFERENCE_DECLARATION']);
    expect(r.validation.errors.map((e) => [e.cell, e.row, e.column, e.code])).toEqual([
      ['Declarations!2:2', 2, 'REFERENCE_DECLARATION', 'REQUIRED_FIELD'],
      ['Declarations!I3', 3, 'NIR', 'INVALID_NIR'],
    ]);
    expect(r.validation.errors.every((e) => typeof e.cell === 'string')).toBe(true);
  });
});

describe('importSheet: headers', () => {
  it('finds the header row below title rows (among the first 20), by names, JSON fields, labels and synonyms', () => {
    const rows: CellInput[][] = [
      ['Export RH — sessions 2026'],
      [],
      [
        'ID_DECLARATION',
        'reference',
        'holders.unique_id',
        'Identifiant unique partenaire',
        'training.name',
        'Début',
        'Fin',
        'training.certifying',
        'NIR',
        'birth_name',
        'Début de validité',
      ],
      [
        'S1',
        'R',
        'U1',
        'ignored: second ID column',
        'SST',
        '14/09/2026',
        '15/09/2026',
        'NON',
        NIR_A,
        'DUPONT',
        '15/09/2026',
      ],
    ];
    const r = importOf(sheet(rows));
    expect(r.header_row).toBe(3);
    const how = Object.fromEntries(r.mapping.map((m) => [m.column, m.how]));
    expect(how).toMatchObject({
      ID_DECLARATION: 'name',
      REFERENCE_DECLARATION: 'field',
      NOM_FORMATION: 'field',
      DATE_DEBUT_FORMATION: 'synonym',
      NOM_TITULAIRE: 'field',
      DATE_DEBUT_VALIDITE: 'synonym',
    });
    // "holders.unique_id" is not a JSON field name (unique_id is); the label names ID_UNIQUE_PARTENAIRE.
    expect(r.unmapped_headers).toEqual(['holders.unique_id']);
    expect(r.validation.valid).toBe(true);
  });

  it('needs three different columns in the header row: three headers naming one column are not a header row', () => {
    const rows: CellInput[][] = [
      ['Nom', 'Nom de famille', 'NOM_TITULAIRE', 'Commentaire'],
      ['DUPONT', 'DUPONT', 'DUPONT', 'x'],
    ];
    expect(() => importOf(sheet(rows))).toThrow(
      expect.objectContaining({ code: 'UNREADABLE_FILE', details: { reason: 'no_header_row' } }),
    );
    // Two of them with a third column is one.
    const three: CellInput[][] = [
      ['Nom', 'Nom de famille', 'NIR', 'Session'],
      ['DUPONT', 'DUPONT', NIR_A, 'S1'],
    ];
    expect(importOf(sheet(three)).header_row).toBe(1);
  });

  it('lets an explicit mapping override detection, and ignore a header with null', () => {
    const rows = officialRows([{}]);
    rows[0] = rows[0]!.map((h) => (h === 'NOM_TITULAIRE' ? 'Salarié' : h === 'NOM_FORMATION' ? 'Nom' : h));
    const detected = importOf(sheet(rows));
    expect(detected.mapping.find((m) => m.header === 'Nom')?.column).toBe('NOM_TITULAIRE');
    const given = importOf(sheet(rows), {
      mapping: { Salarié: 'NOM_TITULAIRE', nom: 'NOM_FORMATION', NIR: null },
    });
    expect(given.mapping.filter((m) => m.how === 'given').map((m) => [m.header, m.column])).toEqual([
      ['Nom', 'NOM_FORMATION'],
      ['Salarié', 'NOM_TITULAIRE'],
    ]);
    expect(given.unmapped_headers).toEqual(['NIR']);
    expect(given.missing_columns).toEqual(['NIR']);
    // As a multipart form sends it: JSON text.
    const text = importOf(sheet(rows), {
      mapping: JSON.stringify({ Salarié: 'NOM_TITULAIRE', nom: 'NOM_FORMATION', NIR: null }),
    });
    expect(text.mapping).toEqual(given.mapping);
    expect(() => importOf(sheet(rows), { mapping: '{"Nom":' })).toThrow(
      expect.objectContaining({
        code: 'INVALID_REQUEST',
        details: expect.objectContaining({ fields: [expect.objectContaining({ field: 'mapping' })] }),
      }),
    );
  });

  it('refuses a mapping to an unknown column (INVALID_REQUEST) and a sheet without a header row (UNREADABLE_FILE)', () => {
    const rows = officialRows([{}]);
    expect(() => importOf(sheet(rows), { mapping: { Nom: 'NAME' } })).toThrow(
      expect.objectContaining({
        code: 'INVALID_REQUEST',
        details: expect.objectContaining({ field_count: 1 }),
      }),
    );
    expect(() =>
      importOf(
        sheet([
          ['Nom', 'Prénom'],
          ['DUPONT', 'Jean'],
        ]),
      ),
    ).toThrow(expect.objectContaining({ code: 'UNREADABLE_FILE', details: { reason: 'no_header_row' } }));
    const low: CellInput[][] = [...Array.from({ length: 20 }, () => ['titre']), ...rows];
    expect(() => importOf(sheet(low))).toThrow(RequestError);
  });
});

describe('importSheet: limits', () => {
  it('refuses more data rows than the key may send (413 LINE_LIMIT_EXCEEDED)', () => {
    const rows = officialRows(Array.from({ length: 51 }, (_, i) => ({ ID_UNIQUE_PARTENAIRE: `U${i}` })));
    expect(() => importOf(sheet(rows), {}, { maxRows: 50 })).toThrow(
      expect.objectContaining({ code: 'LINE_LIMIT_EXCEEDED', details: { limit: 50, rows: 51 } }),
    );
    expect(importOf(sheet(rows.slice(0, 51)), {}, { maxRows: 50 }).rows_read).toBe(50);
  });

  it('refuses a file over the 20 MB of API.md §14 before reading it (UNREADABLE_FILE, reason too_large)', () => {
    const limit = 20 * 1024 * 1024;
    // What it holds does not matter: it is not looked at (these bytes would be "not a spreadsheet").
    const err = (() => {
      try {
        importOf(Buffer.alloc(limit + 1), {}, { lang: 'fr' });
      } catch (e) {
        return e as RequestError;
      }
    })();
    expect(err).toBeInstanceOf(RequestError);
    expect(err).toMatchObject({ code: 'UNREADABLE_FILE', details: { reason: 'too_large', limit } });
    expect(err!.message).toContain('20 Mo');
  });

  it('refuses a fully filled 50,000-row jdr sheet (29 columns: 1,450,000 cells, API.md §14: 1,000,000), as XLSX and as CSV; 34,000 rows pass', () => {
    const columns = findSpec('2026-02')!.tables.jdr.columns;
    const valueOf = (c: ColumnSpec, i: number): string => {
      const holder = c.level === 'holder';
      switch (c.type) {
        case 'date':
          return c.name.startsWith('DATE_FIN') ? '15/09/2026' : '14/09/2026';
        case 'enum':
          return c.values![0]!;
        case 'codes':
          return c.list === 'rome' ? '115650/121885/400635' : c.list === 'nsf' ? '344r' : '42829';
        case 'nir':
          return NIR_A;
        case 'siret':
          return SIRET_A;
        case 'url':
          return `https://preuves.example.fr/${i}`;
        default:
          return c.name === 'ID_DECLARATION' ? `S${Math.floor(i / 500)}` : holder ? `${c.name}-${i}` : 'x';
      }
    };
    const rows: string[][] = [columns.map((c) => c.name)];
    for (let i = 0; i < 50_000; i++) rows.push(columns.map((c) => valueOf(c, i)));
    const tooMany = expect.objectContaining({
      code: 'UNREADABLE_FILE',
      details: { reason: 'too_many_cells' },
    });
    expect(rows.slice(1).every((r) => r.every((v) => v !== ''))).toBe(true);
    const req = { type: 'jdr', declarant: 'training_organization' };
    expect(() => importOf(sheet(rows), req, { maxRows: 50_000 })).toThrow(tooMany);
    const csvOf = (r: string[][]) => Buffer.from(r.map((x) => x.join(';')).join('\r\n'));
    expect(() => importOf(csvOf(rows), { ...req, filename: 'jdr.csv' }, { maxRows: 50_000 })).toThrow(
      tooMany,
    );
    // 34,000 rows of 29 cells and the header: 986,029 cells.
    const fits = importOf(csvOf(rows.slice(0, 34_001)), { ...req, filename: 'jdr.csv' }, { maxRows: 50_000 });
    expect([fits.rows_read, fits.declarations]).toEqual([34_000, 68]);
  }, 120_000);
});
