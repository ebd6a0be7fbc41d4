/**
 * Issue 32 (4): a UTF-8 file with one Windows-1252 byte in it (a `café` pasted from another
 * program) was read whole as Windows-1252 by the fix: every accented name turned into mojibake
 * (`HÉLÈNE-ŒUVRE` → `HÃ‰LÃˆNE-Å’UVRE`) and the answer said valid. The encoding is one per file or
 * the file is refused: INVALID_ENCODING on the first line holding a byte that is not UTF-8.
 */
import { validateCsv } from './api';
import { fixCsv, fixCsvFile } from './csv-fixer';
import { findSpec } from './format';
import { adfRow } from './testing/format-helpers';
import { testReferences } from './testing/fixtures';
import { decodeText, decodeWindows1252, textEncoding } from './text-decoding';

const env = { refs: testReferences(), today: 20261122 };
const req = { type: 'adf', declarant: 'training_organization' };
const HEADER = findSpec('2026-02')!
  .tables.adf.columns.map((c) => c.name)
  .join('|');

/** Windows-1252 bytes of a text (Œ is 0x8C, ’ 0x92, € 0x80, É 0xC9…). */
const ENCODE_1252 = new Map<string, number>(
  Array.from({ length: 256 }, (_, b) => [decodeWindows1252(Buffer.from([b])), b] as [string, number]),
);
function cp1252(text: string): Buffer {
  return Buffer.from(
    [...text].map((c) => {
      const b = ENCODE_1252.get(c);
      if (b === undefined) throw new Error(`no Windows-1252 byte for ${c}`);
      return b;
    }),
  );
}
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');

const NAMES = ['HÉLÈNE-ŒUVRE', 'BÉRANGER', 'LEFÈVRE', 'NOËL', 'FRANÇOIS', 'CŒUR'];
const rows = NAMES.map((name, i) =>
  adfRow({ ID_UNIQUE_PARTENAIRE: `SST-2026-09-E${i + 1}`, NOM_TITULAIRE: name }),
);
const lines = (list: string[]): string => [HEADER, ...list].map((l) => `${l}\r\n`).join('');

/** The names as UTF-8, and the 4th row's REFERENCE_EMPLOYEUR `café` pasted as Windows-1252 (line 5). */
function mixedFile(): Buffer {
  const [before, after] = lines(
    rows.map((r, i) => (i === 3 ? r.replace('CLIENT-42', 'CAFE-MARK') : r)),
  ).split('CAFE-MARK');
  return Buffer.concat([utf8(before!), cp1252('café'), utf8(after!)]);
}

describe('textEncoding: one encoding per file, or mixed', () => {
  it('UTF-8 throughout (with or without a BOM), Windows-1252 throughout', () => {
    expect(textEncoding(utf8('HÉLÈNE-ŒUVRE\n')).encoding).toBe('utf-8');
    expect(textEncoding(utf8('\ufeffHÉLÈNE-ŒUVRE\n')).encoding).toBe('utf-8-bom');
    expect(textEncoding(cp1252('HÉLÈNE-ŒUVRE\ncafé’ 5 €\n')).encoding).toBe('windows-1252');
    expect(textEncoding(Buffer.concat([utf8('\ufeff'), cp1252('Libellé')])).encoding).toBe('windows-1252');
  });

  it('valid multi-byte UTF-8 and a byte outside it: mixed, naming the first line holding such a byte', () => {
    expect(textEncoding(mixedFile())).toMatchObject({ encoding: 'mixed', line: 5 });
    // The byte that is not UTF-8 may come before the UTF-8 ones, and on the first line.
    const first = Buffer.concat([cp1252('café\n'), utf8('HÉLÈNE\n')]);
    expect(textEncoding(first)).toMatchObject({ encoding: 'mixed', line: 1 });
    // After a BOM, lines are still counted from the first (the BOM is no line).
    const bom = Buffer.concat([utf8('\ufeffa\nÉ\nb\n'), cp1252('é')]);
    expect(textEncoding(bom)).toMatchObject({ encoding: 'mixed', line: 4 });
  });

  it.each([
    ['a lead byte cut by the end of the file', [0xc3]],
    ['a lead byte followed by ASCII', [0xc3, 0x41]],
    ['an overlong form', [0xc0, 0xaf]],
    ['a surrogate', [0xed, 0xa0, 0x80]],
    ['past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
    ['a stray continuation byte', [0x80]],
  ])('%s next to UTF-8 is mixed; alone, Windows-1252', (_name, bytes) => {
    const odd = Buffer.from(bytes);
    expect(textEncoding(Buffer.concat([utf8('É\n'), odd]))).toMatchObject({ encoding: 'mixed', line: 2 });
    expect(textEncoding(Buffer.concat([utf8('a\n'), odd])).encoding).toBe('windows-1252');
  });

  it('decodeText reads a mixed file a line at a time (libs/refdata), each line as what it is', () => {
    const bytes = Buffer.concat([utf8('HÉLÈNE-ŒUVRE\n'), cp1252('café\n'), utf8('NOËL')]);
    expect(decodeText(bytes)).toEqual({ text: 'HÉLÈNE-ŒUVRE\ncafé\nNOËL', encoding: 'mixed', line: 2 });
  });
});

describe('fixCsv: a file that mixes encodings is refused, as validate refuses it', () => {
  it('no content, no change, INVALID_ENCODING on the line, nothing of the line quoted', () => {
    const bytes = mixedFile();
    const fixed = fixCsv(bytes, req, env);
    expect(fixed.content).toBeUndefined();
    expect(fixed.changes).toEqual([]);
    expect(fixed.change_count).toBe(0);
    expect(fixed.validation.valid).toBe(false);
    expect(fixed.validation.file_rejected).toBe(true);
    expect(fixed.validation.errors).toEqual([
      {
        row: 5,
        column: null,
        code: 'INVALID_ENCODING',
        message:
          'The file must be UTF-8 without a byte-order mark (this line holds bytes that are not UTF-8 while the rest of the file is UTF-8, as when text is pasted from another program: a file in two encodings is not read, its names would come out wrong; type that line’s accented letters again).',
      },
    ]);
    const json = JSON.stringify(fixed);
    for (const name of [...NAMES, 'café', 'caf', 'HÃ']) expect(json).not.toContain(name);
    // validate refuses the same bytes for their encoding.
    const validation = validateCsv(bytes, req, env);
    expect(validation.file_rejected).toBe(true);
    expect(validation.errors.map((e) => e.code)).toEqual(['INVALID_ENCODING']);
  });

  it('in French too', () => {
    const fixed = fixCsv(mixedFile(), req, { ...env, lang: 'fr' as const });
    expect(fixed.validation.errors[0]!.message).toContain('cette ligne contient des octets');
  });

  it('through a sink (ppfile fix -o): not mended, the sink given nothing', () => {
    const chunks: Buffer[] = [];
    const fixed = fixCsvFile(mixedFile(), req, env, (b) => chunks.push(Buffer.from(b)));
    expect(fixed.mended).toBe(false);
    expect(chunks).toEqual([]);
    expect(fixed.validation.errors.map((e) => [e.row, e.code])).toEqual([[5, 'INVALID_ENCODING']]);
  });

  it('a BOM before a mixed body: refused the same way', () => {
    const fixed = fixCsv(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), mixedFile()]), req, env);
    expect(fixed.content).toBeUndefined();
    expect(fixed.validation.errors.map((e) => [e.row, e.code])).toEqual([[5, 'INVALID_ENCODING']]);
  });

  it('a file in Windows-1252 throughout is still re-encoded, every name itself', () => {
    const fixed = fixCsv(cp1252(lines(rows)), req, env);
    expect(fixed.content).toBe(lines(rows));
    expect(fixed.changes).toEqual([{ row: null, column: null, rule: 'REENCODED_AS_UTF8' }]);
    expect(fixed.validation.valid).toBe(true);
  });

  it('a file in UTF-8 throughout is still its own bytes, every name itself', () => {
    const bytes = utf8(lines(rows));
    const fixed = fixCsv(bytes, req, env);
    expect(fixed.content).toBe(lines(rows));
    expect(fixed.change_count).toBe(0);
    expect(fixed.validation.valid).toBe(true);
  });
});
