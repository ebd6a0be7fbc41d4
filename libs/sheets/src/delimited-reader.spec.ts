import { NIR_A, NIR_B } from '@ppfile/rules/testing/fixtures';
import { readDelimited, sniffDelimited } from './delimited-reader';
import { ReadBudget, SHEET_LIMITS } from './unreadable';
import { importOf } from './testing/workbooks';

const HEADER = [
  'Session',
  'Référence',
  'ID unique',
  'Formation',
  'Date de début',
  'Date de fin',
  'NIR',
  'Nom de naissance',
  'Début de validité',
];
const ROW_A = ['S1', 'Session 1', 'U1', 'SST', '14/09/2026', '15/09/2026', NIR_A, 'BÉRANGER', '15/09/2026'];
const ROW_B = ['S1', 'Session 1', 'U2', 'SST', '14/09/2026', '15/09/2026', NIR_B, 'GARÇON', '15/09/2026'];

const csv = (sep: string, rows: string[][], eol = '\r\n') => rows.map((r) => r.join(sep)).join(eol) + eol;
const windows1252 = (text: string) => Buffer.from([...text].map((c) => c.charCodeAt(0)));

describe('import of CSV and TSV (API.md §14)', () => {
  it.each([
    [',', 'comma'],
    [';', 'semicolon'],
    ['|', 'pipe'],
    ['\t', 'tab'],
  ])('detects the separator %j (%s) and reads the rows', (sep) => {
    const text = csv(sep, [HEADER, ROW_A, ROW_B]);
    expect(sniffDelimited(Buffer.from(text)).separator).toBe(sep);
    const r = importOf(Buffer.from(text), { filename: 'stagiaires.csv' });
    expect(r.sheet).toBe('stagiaires.csv');
    expect(r.rows_read).toBe(2);
    expect(r.validation.valid).toBe(true);
    const holders = r.body.declarations[0]!.holders as Record<string, string>[];
    expect(holders.map((h) => h.birth_name)).toEqual(['BÉRANGER', 'GARÇON']);
  });

  it('detects UTF-8 with a BOM and Windows-1252', () => {
    const text = csv(';', [HEADER, ROW_A]);
    for (const bytes of [
      Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]),
      windows1252(text),
    ]) {
      const r = importOf(bytes, { filename: 'export.csv' });
      expect((r.body.declarations[0]!.holders as Record<string, string>[])[0]!.birth_name).toBe('BÉRANGER');
      expect(r.mapping[0]).toMatchObject({ header: 'Session', column: 'ID_DECLARATION', cell: 'A1' });
    }
    expect(sniffDelimited(windows1252(text)).encoding).toBe('windows-1252');
  });

  it('reads quoted fields (separators, quotes and line breaks inside) and names cells after the file', () => {
    const header = [...HEADER, 'Codes ROME'];
    const rows = [
      header.join(','),
      [...ROW_A.slice(0, 3), '"SST, recyclage ""2026"""', ...ROW_A.slice(4), '"115650\n121885"'].join(','),
      [...ROW_B.slice(0, 6), '9550814168025', ...ROW_B.slice(7), ''].join(','),
    ].join('\r\n');
    const r = importOf(Buffer.from(rows), { filename: 'stagiaires 2026.csv' });
    const decl = r.body.declarations[0]!;
    expect((decl.training as Record<string, string>).name).toBe('SST, recyclage "2026"');
    expect(decl.transferable_skills).toEqual(['115650', '121885']);
    expect(r.issues).toEqual([
      expect.objectContaining({ cell: "'stagiaires 2026.csv'!D3", code: 'DECLARATION_VALUES_DIFFER' }),
    ]);
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({
        cell: "'stagiaires 2026.csv'!G3",
        row: 3,
        column: 'NIR',
        code: 'INVALID_NIR',
      }),
    );
  });

  it('with `|` (the official format), a quote is an ordinary character', () => {
    const r = importOf(Buffer.from(csv('|', [HEADER, ['"S1"', ...ROW_A.slice(1)]])), { filename: 'f.csv' });
    expect(r.body.declarations[0]!.id).toBe('"S1"');
  });

  it('counts the non-empty fields of a CSV as its cells (an empty field stores nothing)', () => {
    const text = `a;b;;;;;;;;;\n;;;;;;;;c;;\n${';'.repeat(5000)}\n`;
    const read = (maxCells: number) => {
      const rows: number[] = [];
      readDelimited(
        sniffDelimited(Buffer.from(text)),
        new ReadBudget('en', { ...SHEET_LIMITS, maxCells }),
        (r) => {
          rows.push(r.cells.length);
          return true;
        },
      );
      return rows;
    };
    expect(read(3)).toEqual([2, 1, 0]);
    expect(() => read(2)).toThrow(
      expect.objectContaining({ code: 'UNREADABLE_FILE', details: { reason: 'too_many_cells' } }),
    );
  });

  it('refuses a CSV of more than 1,000,000 non-empty fields, as a workbook of as many cells', () => {
    const text = `${HEADER.join(';')}\r\n${ROW_A.join(';')}\r\n${'x;'.repeat(SHEET_LIMITS.maxCells)}\r\n`;
    expect(() => importOf(Buffer.from(text), { filename: 'f.csv' })).toThrow(
      expect.objectContaining({ code: 'UNREADABLE_FILE', details: { reason: 'too_many_cells' } }),
    );
  });

  it('imports a full 50,000-row official file (1,000,000 fields and its header): the limit of a live key', () => {
    const header =
      'ID_DECLARATION|REFERENCE_DECLARATION|ID_UNIQUE_PARTENAIRE|NOM_FORMATION|DATE_DEBUT_FORMATION|DATE_FIN_FORMATION|MODALITE_DISPENSE|COMPETENCE_TRANSFERABLE|QUALIFICATION_FORMATEUR|FORMATION_CERTIFIANTE|CERTIFICATION_VISEE|DOMAINE_FORMATION|SPECIALITE_FORMATION|NIR|NOM_TITULAIRE|PRESENCE_EMPLOYEUR|SIRET_EMPLOYEUR|REFERENCE_EMPLOYEUR|DATE_DEBUT_VALIDITE|DATE_FIN_VALIDITE';
    const lines = [header];
    for (let i = 0; i < 50_000; i++) {
      lines.push(
        `S${Math.floor(i / 500)}|R|U${i}|SST|14/09/2026|15/09/2026|PRESENTIEL||||||344r|${NIR_A}|DUPONT||||15/09/2026|`,
      );
    }
    const r = importOf(Buffer.from(lines.join('\r\n')), { filename: 'full.csv' }, { maxRows: 50_000 });
    expect(r.rows_read).toBe(50_000);
    expect(r.declarations).toBe(100);
    expect(r.validation.valid).toBe(true);
  });

  it('sniffs `|` as the reader splits it: a quote is an ordinary character there (API.md §4)', () => {
    // Each row holds a comma, then a quote that never closes: were `"` quoting with `|`, the rows
    // would split into fewer fields than the header and the comma would look like the separator.
    const third = ROW_A.map((v, i) => (i === 2 ? 'U3' : v));
    const rows = [
      HEADER,
      ...[ROW_A, ROW_B, third].map((r) => r.map((v, i) => (i === 1 ? `${v}, lot A` : i === 3 ? `"${v}` : v))),
    ];
    const text = csv('|', rows);
    expect(sniffDelimited(Buffer.from(text)).separator).toBe('|');
    const r = importOf(Buffer.from(text), { filename: 'officiel.csv' });
    expect(r.rows_read).toBe(3);
    expect((r.body.declarations[0]!.training as Record<string, string>).name).toBe('"SST');
  });

  it('keeps the first header of a Windows-1252 file opened by a UTF-8 BOM', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), windows1252(csv(';', [HEADER, ROW_A]))]);
    const r = importOf(bytes, { filename: 'export.csv' });
    expect(r.mapping[0]).toMatchObject({ header: 'Session', column: 'ID_DECLARATION', cell: 'A1' });
    expect(r.unmapped_headers).toEqual([]);
  });
});

describe('a CSV whose bytes mix UTF-8 and Windows-1252 (issue 32)', () => {
  // UTF-8 names, and on line 3 a "Référence" typed in another program: its é is the byte E9.
  const NAMES = ['HÉLÈNE-ŒUVRE', 'LEFÈVRE', 'NOËL'];
  const rows = NAMES.map((name, i) => {
    const r = [...ROW_A];
    r[2] = `U${i + 1}`;
    r[7] = name;
    return r;
  });
  const text = csv(';', [HEADER, ...rows]);
  const mixed = (): Buffer => {
    const [before, ...after] = text.split('Session 1');
    return Buffer.concat([
      Buffer.from(`${before}Session 1${after[0]}`),
      windows1252('Séance 1'),
      Buffer.from(after.slice(1).join('Session 1')),
    ]);
  };

  it('is refused before any row is read: UNREADABLE_FILE mixed_encoding, naming the line, not its content', () => {
    expect(sniffDelimited(mixed())).toEqual({ text: '', encoding: 'mixed', separator: ';', line: 3 });
    let err: unknown;
    try {
      importOf(mixed(), { filename: 'export.csv' });
    } catch (e) {
      err = e;
    }
    expect(err).toMatchObject({ code: 'UNREADABLE_FILE' });
    expect((err as { details: unknown }).details).toEqual({ reason: 'mixed_encoding' });
    const message = (err as Error).message;
    expect(message).toBe(
      'The file is not a readable XLSX or CSV spreadsheet (line 3 holds bytes that are not UTF-8 while the rest of the file is UTF-8, as when text is pasted from another program: a file in two encodings is not read, its names would come out wrong; type that line’s accented letters again).',
    );
    for (const name of [...NAMES, 'Séance', 'HÃ']) expect(message).not.toContain(name);
    expect(() => importOf(mixed(), { filename: 'export.csv' }, { lang: 'fr' })).toThrow(
      /la ligne 3 contient des octets qui ne sont pas de l’UTF-8/,
    );
  });

  it('a file in UTF-8 or in Windows-1252 throughout still imports, every name itself', () => {
    const latin = text.replace('Œ', 'OE');
    for (const [bytes, names] of [
      [Buffer.from(text), NAMES],
      [windows1252(latin), ['HÉLÈNE-OEUVRE', 'LEFÈVRE', 'NOËL']],
    ] as const) {
      const r = importOf(bytes, { filename: 'export.csv' });
      const holders = r.body.declarations[0]!.holders as Record<string, string>[];
      expect(holders.map((h) => h.birth_name)).toEqual(names);
    }
  });
});

describe('an enumeration cell takes the case of a–z only (issue 32)', () => {
  it.each(['PRESENTıEL', 'preſentiel'])('%j stays itself and an error, not a change of case', (mode) => {
    const rows = [
      [...HEADER, 'Modalité'],
      [...ROW_A, mode],
    ];
    const r = importOf(Buffer.from(csv(';', rows)), { filename: 'export.csv' });
    expect((r.body.declarations[0]!.training as Record<string, string>).delivery_mode).toBe(mode);
    expect(r.validation.normalizations.map((n) => n.rule)).not.toContain('ENUM_UPPERCASED');
    expect(r.validation.errors).toContainEqual(
      expect.objectContaining({ column: 'MODALITE_DISPENSE', code: 'INVALID_VALUE' }),
    );
    // Its lower-case ASCII spelling is still upper-cased, and listed.
    const ascii = importOf(Buffer.from(csv(';', [rows[0]!, [...ROW_A, 'presentiel']])), {
      filename: 'e.csv',
    });
    expect(ascii.validation.normalizations.map((n) => n.rule)).toContain('ENUM_UPPERCASED');
  });
});
