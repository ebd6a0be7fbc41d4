/**
 * Real workbooks that were refused, or read wrong (issue 33, "Spreadsheets"): each case as the
 * program that writes it does, deflated as every program writes. The workbooks of the producers
 * themselves are in test/producers.spec.ts.
 */
import { resolveKind } from '@ppfile/rules';
import { NIR_A, NIR_A_KEY, NIR_B } from '@ppfile/rules/testing/fixtures';
import { editDistanceWithin, headerCore, HeaderMatcher } from './headers';
import { hasEncryptedPackage } from './ole';
import { midnightDay } from './read-cell';
import { templateSheets } from './template';
import { importOf, minimalParts, sheet, zipOf } from './testing/workbooks';
import { ReadBudget } from './unreadable';
import { decodeXString, XlsxWorkbook } from './xlsx-reader';
import { writeWorkbook, type CellInput } from './xlsx-writer';
import { expandedSize, ZipArchive } from './zip';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const inline = (ref: string, text: string) => `<c r="${ref}" t="inlineStr"><is><t>${text}</t></is></c>`;
const HEADER = `<row r="1">${inline('A1', 'ID_DECLARATION')}${inline('B1', 'NIR')}${inline('C1', 'NOM_TITULAIRE')}</row>`;
const ROW2 = `<row r="2">${inline('A2', 'S1')}${inline('B2', NIR_A + NIR_A_KEY)}${inline('C2', 'DUPONT')}</row>`;

type Holder = Record<string, unknown>;
const holdersOf = (r: ReturnType<typeof importOf>): Holder[] =>
  r.body.declarations.flatMap((d) => d.holders as Holder[]);

/** The UNREADABLE_FILE an import throws: its reason and message (fails when the file is imported). */
function refusal(bytes: Uint8Array, req: Parameters<typeof importOf>[1] = {}, lang: 'en' | 'fr' = 'en') {
  try {
    importOf(bytes, req, { lang });
  } catch (e) {
    const error = e as { code?: string; message: string; details?: { reason?: string } };
    expect(error.code).toBe('UNREADABLE_FILE');
    expect(Object.keys(error.details ?? {})).toEqual(['reason']);
    return { reason: error.details?.reason, message: error.message };
  }
  throw new Error('the file was imported');
}

function withRels(
  parts: Record<string, string | Uint8Array>,
  rels: string,
): Record<string, string | Uint8Array> {
  parts['xl/_rels/workbook.xml.rels'] = (parts['xl/_rels/workbook.xml.rels'] as string).replace(
    '</Relationships>',
    `${rels}</Relationships>`,
  );
  return parts;
}

const data: CellInput[][] = [
  ['ID_DECLARATION', 'NIR', 'NOM_TITULAIRE'],
  ['S1', NIR_A + NIR_A_KEY, 'DUPONT'],
];

describe('sheets passed over in a deflated workbook (item 1: "a damaged zip archive")', () => {
  it('the template with its Instructions sheet dragged first', () => {
    const input = templateSheets(resolveKind({ type: 'adf', declarant: 'employer' }, 'en'));
    const [declarations, instructions] = input.sheets;
    expect(instructions!.rows.length).toBeGreaterThan(20);
    const names = declarations!.rows[0] as string[];
    declarations!.rows.push(
      names.map((n) => ({ ID_DECLARATION: 'S1', NIR: NIR_B, NOM_TITULAIRE: 'DUPONT' })[n] ?? null),
    );
    const bytes = writeWorkbook({ sheets: [instructions!, declarations!] });
    expect(bytes.readUInt16LE(8)).toBe(8);
    const r = importOf(bytes);
    expect([r.sheet, r.header_row, r.rows_read]).toEqual(['Declarations', 1, 1]);
  });

  it('a sheet of 21 rows or more that is not a Passeport sheet, first: passed over', () => {
    const other = {
      name: 'Planning',
      rows: Array.from({ length: 21 }, (_, i) => [`semaine ${i}`, 'salle B']),
    };
    const r = importOf(writeWorkbook({ sheets: [other, { name: 'Stagiaires', rows: data }] }));
    expect([r.sheet, r.rows_read]).toEqual(['Stagiaires', 1]);
  });

  it('a hidden Declarations sheet: refused, naming the hidden sheet and what to do; read when named', () => {
    const notes = { name: 'Notes', rows: Array.from({ length: 30 }, (_, i) => [`note ${i}`]) };
    const bytes = writeWorkbook({ sheets: [notes, { name: 'Declarations', rows: data, hidden: true }] });
    const { reason, message } = refusal(bytes);
    expect(reason).toBe('no_header_row');
    expect(message).toBe(
      'The headers are on sheet Declarations (row 1), which is hidden: show it (right-click a sheet tab › Unhide) or name it (the sheet field, --sheet on the command line).',
    );
    expect(refusal(bytes, {}, 'fr').message).toContain('qui est masquée');
    expect(importOf(bytes, { sheet: 'Declarations' }).rows_read).toBe(1);
  });
});

describe('macros, decided on the workbook part (item 2)', () => {
  const sheetJsTypes =
    '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
    '<Default Extension="xml" ContentType="application/xml"/>' +
    '<Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/>' +
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>';

  it('a SheetJS workbook (a Default for .bin saying macroEnabled) is imported', () => {
    const parts = minimalParts(HEADER + ROW2);
    parts['[Content_Types].xml'] = sheetJsTypes;
    expect(importOf(zipOf(parts)).rows_read).toBe(1);
  });

  it('a workbook part of content type .xlsm, or relating to a vbaProject.bin, is macros', () => {
    const xlsm = minimalParts(HEADER + ROW2);
    xlsm['[Content_Types].xml'] = sheetJsTypes.replace(
      'openxmlformats-officedocument.spreadsheetml.sheet.main+xml',
      'ms-excel.sheet.macroEnabled.main+xml',
    );
    expect(refusal(zipOf(xlsm)).reason).toBe('macros');
    const related = withRels(
      minimalParts(HEADER + ROW2, { 'xl/vbaProject.bin': new Uint8Array([1, 2, 3]) }),
      '<Relationship Id="rId5" Type="http://schemas.microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>',
    );
    expect(refusal(zipOf(related)).reason).toBe('macros');
    // A vbaProject.bin no part relates to is never run: the workbook is read.
    const orphan = minimalParts(HEADER + ROW2, { 'xl/vbaProject.bin': new Uint8Array([1, 2, 3]) });
    expect(importOf(zipOf(orphan)).rows_read).toBe(1);
  });

  it('an .xlsb is an Excel binary workbook: "save it as .xlsx"', () => {
    const parts = minimalParts('');
    delete parts['xl/workbook.xml'];
    parts['xl/workbook.bin'] = new Uint8Array([0x83, 0x01, 0x00]);
    parts['_rels/.rels'] = (parts['_rels/.rels'] as string).replace('xl/workbook.xml', 'xl/workbook.bin');
    parts['[Content_Types].xml'] = sheetJsTypes.replace(/<Override[^>]*>/, '');
    const { reason, message } = refusal(zipOf(parts));
    expect(reason).toBe('xlsb');
    expect(message).toBe(
      'The file is not a readable XLSX or CSV spreadsheet (an Excel binary workbook (.xlsb): save it as .xlsx).',
    );
  });
});

describe('_xHHHH_ escapes (item 3, ECMA-376 ST_Xstring)', () => {
  it('decodes each escape once, _x005F_ being an underscore; anything else stays', () => {
    expect(decodeXString('115650_x000D_\n121885')).toBe('115650\r\n121885');
    expect(decodeXString('a_x005F_x000D_b')).toBe('a_x000D_b');
    expect(decodeXString('_x000d_ and _x00e9_')).toBe('\r and é');
    expect(decodeXString('_x00G1_ _x12_ _x0041 x0041_ __x0041_')).toBe('_x00G1_ _x12_ _x0041 x0041_ _A');
    expect(decodeXString('_xD83D__xDE00_')).toBe('😀');
    expect(decodeXString('no escape')).toBe('no escape');
  });

  it('in linear time: a million "_x" of nothing', () => {
    const started = Date.now();
    expect(decodeXString('_x'.repeat(1_000_000)).length).toBe(2_000_000);
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('in shared strings, inline strings and formula strings', () => {
    const parts = withRels(
      minimalParts(
        `<row r="1">${inline('A1', 'ID_DECLARATION')}${inline('B1', 'NIR')}${inline('C1', 'NOM_TITULAIRE')}${inline('D1', 'Codes ROME')}${inline('E1', 'REFERENCE_DECLARATION')}</row>` +
          `<row r="2">${inline('A2', 'S1')}${inline('B2', NIR_A)}<c r="C2" t="s"><v>0</v></c>${inline('D2', '115650_x000D_\n121885')}<c r="E2" t="str"><f>"x"</f><v>R_x005F_x000D_</v></c></row>`,
        { 'xl/sharedStrings.xml': `<sst xmlns="${MAIN}"><si><t>DU_x000D_PONT</t></si></sst>` },
      ),
      `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/>`,
    );
    const r = importOf(zipOf(parts));
    const decl = r.body.declarations[0]!;
    expect(decl.transferable_skills).toEqual(['115650', '121885']);
    expect(decl.reference).toBe('R_x000D_');
    expect(holdersOf(r)[0]!.birth_name).toBe('DU\rPONT');
  });
});

describe('a formula saved without its result (item 4)', () => {
  const withDate = (cells: string) =>
    zipOf(
      minimalParts(
        `<row r="1">${inline('A1', 'ID_DECLARATION')}${inline('B1', 'NIR')}${inline('C1', 'NOM_TITULAIRE')}${inline('D1', 'DATE_DEBUT_VALIDITE')}${inline('E1', 'REFERENCE_DECLARATION')}</row>` +
          `<row r="2">${inline('A2', 'S1')}${inline('B2', NIR_A)}${cells}</row>`,
      ),
    );

  it('is UNCOMPUTED_FORMULA at its cell (an empty or absent <v>), not #VALUE!, in English and French', () => {
    const r = importOf(withDate('<c r="C2"><f>UPPER("x")</f><v></v></c><c r="D2" s="1"><f>TODAY()</f></c>'));
    expect(r.issues.map((i) => [i.cell, i.code])).toEqual([
      ['Declarations!C2', 'UNCOMPUTED_FORMULA'],
      ['Declarations!D2', 'UNCOMPUTED_FORMULA'],
    ]);
    expect(r.issues[0]!.message).toContain('open and save the file in Excel or LibreOffice');
    expect(JSON.stringify(r)).not.toContain('#VALUE!');
    const fr = importOf(withDate('<c r="C2"><f>1</f></c>'), {}, { lang: 'fr' });
    expect(fr.issues[0]!.message).toContain("une formule qui n'a jamais été calculée");
  });

  it('a formula whose result is empty text, and an empty <v/> without formula, are empty cells', () => {
    const r = importOf(
      withDate(`<c r="C2" t="str"><f>""</f><v></v></c><c r="D2"><v/></c>${inline('E2', 'R')}`),
    );
    expect(r.issues).toEqual([]);
    expect(holdersOf(r)[0]).toEqual({ nir: NIR_A });
  });
});

/** A compound file of 512-byte sectors: FAT in sector 0, the directory from sector 1 (`names`, 4 a sector). */
function compoundFile(names: string[], fat: (n: number) => number[] = (n) => chain(n)): Buffer {
  const dirSectors = Math.ceil((names.length + 1) / 4);
  const out = Buffer.alloc(512 * (2 + dirSectors));
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(out);
  out.writeUInt16LE(0x3e, 0x18);
  out.writeUInt16LE(3, 0x1a);
  out.writeUInt16LE(0xfffe, 0x1c);
  out.writeUInt16LE(9, 0x1e);
  out.writeUInt16LE(6, 0x20);
  out.writeUInt32LE(1, 0x2c);
  out.writeUInt32LE(1, 0x30);
  out.writeUInt32LE(4096, 0x38);
  out.writeUInt32LE(0xfffffffe, 0x3c);
  out.writeUInt32LE(0xfffffffe, 0x44);
  for (let i = 0; i < 109; i++) out.writeUInt32LE(i === 0 ? 0 : 0xffffffff, 0x4c + i * 4);
  const fatSector = 512;
  for (let i = 0; i < 128; i++) out.writeUInt32LE(0xffffffff, fatSector + i * 4);
  out.writeUInt32LE(0xfffffffd, fatSector);
  fat(dirSectors).forEach((next, i) => out.writeUInt32LE(next, fatSector + (i + 1) * 4));
  ['Root Entry', ...names].forEach((name, i) => {
    const entry = 1024 + i * 128;
    out.write(name, entry, 'utf16le');
    out.writeUInt16LE((name.length + 1) * 2, entry + 64);
    out[entry + 66] = i === 0 ? 5 : 2;
  });
  return out;
}
/** The FAT entries of directory sectors 1…n chained in order. */
const chain = (n: number) => Array.from({ length: n }, (_, i) => (i === n - 1 ? 0xfffffffe : i + 2));

describe('OLE files and part names (item 5)', () => {
  it('an OLE file holding EncryptedPackage is a workbook protected by a password, distinct from an .xls', () => {
    const encrypted = compoundFile(['EncryptionInfo', 'EncryptedPackage']);
    expect(hasEncryptedPackage(encrypted)).toBe(true);
    const { reason, message } = refusal(encrypted);
    expect(reason).toBe('encrypted');
    expect(message).toContain('protected by a password: remove it (File › Info › Protect Workbook');
    const xls = compoundFile(['Workbook', 'SummaryInformation']);
    expect(hasEncryptedPackage(xls)).toBe(false);
    expect(refusal(xls)).toEqual({
      reason: 'legacy_xls',
      message:
        'The file is not a readable XLSX or CSV spreadsheet (an Excel 97-2003 workbook (.xls): save it as .xlsx).',
    });
  });

  it('follows the directory through the FAT, and stops on a chain that loops', () => {
    const names = ['Workbook', 'A', 'B', 'C', 'D', 'E', 'EncryptedPackage'];
    expect(hasEncryptedPackage(compoundFile(names))).toBe(true);
    // The second directory sector never reached: its chain loops on the first.
    expect(hasEncryptedPackage(compoundFile(names, () => [1, 0xfffffffe]))).toBe(false);
    expect(hasEncryptedPackage(compoundFile(['EncryptedPackage']).subarray(0, 600))).toBe(false);
  });

  it('reads part names written with backslashes (xl\\worksheets\\sheet1.xml)', () => {
    const parts: Record<string, string | Uint8Array> = {};
    for (const [name, content] of Object.entries(minimalParts(HEADER + ROW2))) {
      parts[name.startsWith('xl/') ? name.replaceAll('/', '\\') : name] = content;
    }
    expect(Object.keys(parts)).toContain('xl\\worksheets\\sheet1.xml');
    expect(importOf(zipOf(parts)).rows_read).toBe(1);
  });
});

describe('refusals that say what was found (item 6)', () => {
  it('the no-header refusal names the sheets read, the closest row, what it names and what is missing', () => {
    const notes = { name: 'Notes', rows: [['Suivi 2026']] };
    const feuil = {
      name: 'Feuil1',
      rows: [
        ['Nom de naissance', 'NIR', 'Sesion', 'Prénom'],
        ['DUPONT', NIR_A, 'S1', 'Jean'],
      ],
    };
    const { reason, message } = refusal(writeWorkbook({ sheets: [notes, feuil] }));
    expect(reason).toBe('no_header_row');
    expect(message).toBe(
      'No header row: no row among the first 20 of a sheet has three recognizable column headers. Sheets read: Notes, Feuil1. ' +
        'Sheet Feuil1, row 1: NIR and NOM_TITULAIRE recognized; ID_DECLARATION, REFERENCE_DECLARATION, ID_UNIQUE_PARTENAIRE, NOM_FORMATION, DATE_DEBUT_FORMATION, DATE_FIN_FORMATION, … missing. ' +
        '"Sesion" looks like ID_DECLARATION. ' +
        'Name the columns as the template does (row 1: ID_DECLARATION, NIR, …), or say which column each header is (mapping, --mapping).',
    );
    // Never a data cell: the names and numbers of row 2 are not quoted.
    for (const cell of ['DUPONT', NIR_A, 'Jean']) expect(message).not.toContain(cell);
    const fr = refusal(writeWorkbook({ sheets: [notes, feuil] }), {}, 'fr').message;
    expect(fr).toContain('Feuille Feuil1, ligne 1 : NIR et NOM_TITULAIRE reconnus ; manquent ID_DECLARATION');
    expect(fr).toContain('« Sesion » ressemble à ID_DECLARATION');
  });

  it('a CSV with no recognizable header says so without naming a sheet; a data row is never quoted', () => {
    const csv = Buffer.from('DUPONT;2550814168025;Mention\r\nMARTIN;1850578006084;Menton\r\n');
    const { message } = refusal(csv, { filename: 'export.csv' });
    expect(message).toContain('No header names an official column');
    expect(message).not.toContain('Sheets read');
    for (const cell of ['DUPONT', 'MARTIN', 'Menton', '2550814168025']) expect(message).not.toContain(cell);
  });

  it('an empty file (0 bytes, or only a BOM and line breaks) is "the file is empty"', () => {
    expect(refusal(Buffer.alloc(0))).toEqual({
      reason: 'empty',
      message: 'The file is empty (0 bytes): export the spreadsheet again and send that file.',
    });
    expect(refusal(Buffer.from('\ufeff\r\n\r\n'), { filename: 'x.csv' }).reason).toBe('empty');
  });

  it('an .ods, a UTF-16 text export: each refusal says what to save the file as', () => {
    const ods = zipOf({ mimetype: 'application/vnd.oasis.opendocument.spreadsheet', 'content.xml': '<x/>' });
    expect(refusal(ods)).toEqual({
      reason: 'not_xlsx',
      message:
        'The file is not a readable XLSX or CSV spreadsheet (a zip archive that is not an XLSX workbook, such as an OpenDocument .ods: save the spreadsheet as .xlsx).',
    });
    const unicodeText = Buffer.from('\ufeffID_DECLARATION\tNIR\tNOM_TITULAIRE\r\n', 'utf16le');
    const { reason, message } = refusal(unicodeText, { filename: 'export.txt' });
    expect(reason).toBe('not_a_spreadsheet');
    expect(message).toContain('save it as .xlsx or as CSV UTF-8');
  });

  it('UTF-16 parts (with a byte-order mark, little or big endian) are read', () => {
    const utf16 = (text: string, le: boolean) => {
      const body = Buffer.from(`\ufeff${text}`, 'utf16le');
      if (!le) body.swap16();
      return new Uint8Array(body);
    };
    for (const le of [true, false]) {
      const parts = minimalParts(HEADER + ROW2);
      for (const name of ['xl/workbook.xml', 'xl/worksheets/sheet1.xml', '[Content_Types].xml']) {
        parts[name] = utf16(
          (parts[name] as string).replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="UTF-16"?>'),
          le,
        );
      }
      expect(holdersOf(importOf(zipOf(parts)))[0]!.birth_name).toBe('DUPONT');
    }
  });

  it('reads a zip whose directory uses zip64 fields for a small workbook', () => {
    const zip = zipOf(minimalParts(HEADER + ROW2));
    // Rewrite each central entry with its sizes and offset in a zip64 extra field.
    let eocd = zip.length - 22;
    while (zip.readUInt32LE(eocd) !== 0x06054b50) eocd--;
    const count = zip.readUInt16LE(eocd + 10);
    let p = zip.readUInt32LE(eocd + 16);
    const central: Buffer[] = [];
    for (let i = 0; i < count; i++) {
      const n = zip.readUInt16LE(p + 28);
      const size = 46 + n + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
      const entry = Buffer.from(zip.subarray(p, p + 46 + n));
      const extra = Buffer.alloc(28);
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(entry.readUInt32LE(24)), 4);
      extra.writeBigUInt64LE(BigInt(entry.readUInt32LE(20)), 12);
      extra.writeBigUInt64LE(BigInt(entry.readUInt32LE(42)), 20);
      for (const at of [20, 24, 42]) entry.writeUInt32LE(0xffffffff, at);
      entry.writeUInt16LE(28, 30);
      entry.writeUInt16LE(0, 32);
      central.push(entry, extra);
      p += size;
    }
    const cd = Buffer.concat(central);
    const end = Buffer.from(zip.subarray(eocd, eocd + 22));
    end.writeUInt32LE(cd.length, 12);
    end.writeUInt32LE(zip.readUInt32LE(eocd + 16), 16);
    const rebuilt = Buffer.concat([zip.subarray(0, zip.readUInt32LE(eocd + 16)), cd, end]);
    expect(() => new ZipArchive(rebuilt, new ReadBudget('en'))).not.toThrow();
    expect(expandedSize(rebuilt)).toBe(expandedSize(zip));
    expect(importOf(rebuilt).rows_read).toBe(1);
  });

  it('a workbook listing no sheet is not an XLSX workbook', () => {
    const parts = minimalParts(HEADER);
    parts['xl/workbook.xml'] = `<workbook xmlns="${MAIN}"><sheets/></workbook>`;
    expect(() => new XlsxWorkbook(zipOf(parts), new ReadBudget('en'))).toThrow(
      expect.objectContaining({ details: { reason: 'not_xlsx' } }),
    );
  });
});

describe('headers as people write them (item 7)', () => {
  it('strips required-markers, trailing colons and notes in parentheses before matching', () => {
    expect(headerCore('Session *')).toBe('Session');
    expect(headerCore('Nom de naissance*')).toBe('Nom de naissance');
    expect(headerCore('NIR (13 chiffres)')).toBe('NIR');
    expect(headerCore('Date début :')).toBe('Date début');
    expect(headerCore('* N° SIRET (14 chiffres) [obligatoire] :')).toBe('N° SIRET');
    expect(headerCore('(NIR)')).toBe('(NIR)');
    expect(headerCore('a'.repeat(300) + ' *')).toBe('a'.repeat(300) + ' *');
    const matcher = new HeaderMatcher(
      resolveKind({ type: 'adf', declarant: 'employer' }, 'en').spec.tables.adf,
    );
    const of = (h: string) => matcher.match(h)?.column.name;
    expect(['Session *', 'Nom de naissance*', 'NIR (13 chiffres)', 'Date début :'].map(of)).toEqual([
      'ID_DECLARATION',
      'NOM_TITULAIRE',
      'NIR',
      'DATE_DEBUT_FORMATION',
    ]);
    // A label holding parentheses still matches as written.
    expect(of('Compétences transférables (codes ROME)')).toBe('COMPETENCE_TRANSFERABLE');
  });

  it('finds near misses within one or two edits, in time linear in the text', () => {
    expect(editDistanceWithin('iddeclartion', 'iddeclaration', 2)).toBe(1);
    expect(editDistanceWithin('kitten', 'sitting', 2)).toBeNull();
    expect(editDistanceWithin('abc', 'abc', 1)).toBe(0);
    const matcher = new HeaderMatcher(
      resolveKind({ type: 'adf', declarant: 'employer' }, 'en').spec.tables.adf,
    );
    expect(matcher.nearMiss('ID_DECLARTION')?.name).toBe('ID_DECLARATION');
    expect(matcher.nearMiss('Date de naissance')).toBeUndefined();
    expect(matcher.nearMiss('Nom')).toBeUndefined();
  });

  it('a header row written so is found, and imports', () => {
    const r = importOf(
      sheet([
        ['Session *', 'NIR (13 chiffres)', 'Nom de naissance*', 'Date début :'],
        ['S1', NIR_A, 'DUPONT', '14/09/2026'],
      ]),
    );
    expect(r.mapping.map((m) => m.column)).toEqual([
      'ID_DECLARATION',
      'NIR',
      'NOM_TITULAIRE',
      'DATE_DEBUT_FORMATION',
    ]);
  });

  it('date-times at midnight exactly are dates; any other time stays UNREADABLE_DATE', () => {
    expect(midnightDay('2026-10-12 0:00:00')).toBe('12/10/2026');
    expect(midnightDay('2026-10-12T00:00:00')).toBe('12/10/2026');
    expect(midnightDay('12/10/2026 00:00')).toBe('12/10/2026');
    expect(midnightDay('2/9/2026 0:00')).toBe('02/09/2026');
    expect(midnightDay('2026-10-12 00:00:00.000')).toBe('12/10/2026');
    expect(midnightDay('2026-10-12 00:00:01')).toBeNull();
    expect(midnightDay('2026-10-12 12:00')).toBeNull();
    expect(midnightDay('12 octobre 2026 0:00')).toBeNull();
    const csv = Buffer.from(
      'ID_DECLARATION;NIR;NOM_TITULAIRE;DATE_DEBUT_VALIDITE;DATE_FIN_VALIDITE\r\n' +
        `S1;${NIR_A};DUPONT;2026-10-12 0:00:00;12/10/2028 13:30\r\n`,
    );
    const r = importOf(csv, { filename: 'x.csv' });
    expect(holdersOf(r)[0]).toMatchObject({ validity_start: '12/10/2026', validity_end: '12/10/2028 13:30' });
    expect(r.issues.map((i) => [i.cell, i.code])).toEqual([["'x.csv'!E2", 'UNREADABLE_DATE']]);
    expect(r.validation.normalizations).toContainEqual(
      expect.objectContaining({ cell: "'x.csv'!D2", rule: 'DATE_REFORMATTED' }),
    );
  });
});
