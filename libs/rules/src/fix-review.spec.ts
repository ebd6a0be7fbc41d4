import { createCsvValidator } from './api';
import { fixCsv, fixCsvFile } from './csv-fixer';
import type { FileValidationResponse } from './csv-validator';
import { CsvWriter, writeCsv } from './csv-writer';
import { findSpec } from './format';
import { adfRow } from './testing/format-helpers';
import { testReferences } from './testing/fixtures';

/**
 * Review of the one-pass fix (fixed-file.ts, the validator's 64 KiB slices, csv-writer.ts): the
 * fixed file's bytes are those of the former implementation (the input's lines, each without one
 * trailing CR, changed rows replaced, joined by CRLF, a final CRLF; nothing after the last LF is a
 * line), and one write() of a file answers as one decoding of it did.
 */
const env = { refs: testReferences(), today: 20261122 };
const req = { type: 'adf', declarant: 'training_organization' };
const table = findSpec('2026-02')!.tables.adf;
const COLUMNS = table.columns.map((c) => c.name);
const HEADER = COLUMNS.join('|');

const row = adfRow;

/** The fixed file in memory, through a sink (blocks copied) and as fixCsv's string: one file. */
function fixedThreeWays(bytes: Buffer): { text: string; sinkCalls: number; changes: string[] } {
  const inMemory = fixCsvFile(bytes, req, env);
  expect(inMemory.mended).toBe(true);
  const chunks: Buffer[] = [];
  const sunk = fixCsvFile(bytes, req, env, (b) => chunks.push(Buffer.from(b)));
  expect(sunk.mended).toBe(true);
  expect(sunk.fixed).toBeUndefined();
  expect(Buffer.concat(chunks).equals(inMemory.fixed!)).toBe(true);
  const text = inMemory.fixed!.toString('utf8');
  expect(fixCsv(bytes, req, env).content).toBe(text);
  const changes = inMemory.changes.map((c) => `${c.row ?? '-'}:${c.column ?? '-'}:${c.rule}`);
  return { text, sinkCalls: chunks.length, changes };
}

/** Windows-1252 bytes of a text whose characters are all in Latin-1 (É, é…). */
const cp1252 = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('the fixed file: a lone CR after the last LF is no line (as before the one-pass fix)', () => {
  const R = row();
  it.each([
    ['CRLF file', `${HEADER}\r\n${R}\r\n\r`, `${HEADER}\r\n${R}\r\n`],
    ['LF file', `${HEADER}\n${R}\n\r`, `${HEADER}\r\n${R}\r\n`],
    ['header alone', `${HEADER}\r\n\r`, `${HEADER}\r\n`],
    [
      'a changed row before it',
      `${HEADER}\r\n${row({ MODALITE_DISPENSE: 'presentiel' })}\r\n\r`,
      `${HEADER}\r\n${R}\r\n`,
    ],
  ])('%s', (_name, input, expected) => {
    const { text, changes } = fixedThreeWays(Buffer.from(input, 'utf8'));
    expect(text).toBe(expected);
    expect(changes).toContain('-:-:CRLF_LINE_ENDINGS');
    // The fixed file needs no fixing again.
    expect(fixCsvFile(Buffer.from(text), req, env).change_count).toBe(0);
  });

  it('Windows-1252 (every line encoded, no source bytes)', () => {
    const holder = row({ NOM_TITULAIRE: 'LÉON' });
    const { text } = fixedThreeWays(cp1252(`${HEADER}\r\n${holder}\r\n\r`));
    expect(text).toBe(`${HEADER}\r\n${holder}\r\n`);
  });

  it('an empty line ended by CRLF or LF before the end stays a line, written CRLF (as before)', () => {
    expect(fixedThreeWays(Buffer.from(`${HEADER}\r\n${R}\r\n\r\n`)).text).toBe(`${HEADER}\r\n${R}\r\n\r\n`);
    expect(fixedThreeWays(Buffer.from(`${HEADER}\r\n${R}\n\n`)).text).toBe(`${HEADER}\r\n${R}\r\n\r\n`);
  });
});

describe('the fixed file: line endings and cells copied from the source', () => {
  it('CR CR LF keeps one CR in the line (unchanged row copied, changed row re-encoded)', () => {
    // The unchanged row's last cell is "14/09/2028\r": trimmed as white space, the row changes.
    const { text, changes } = fixedThreeWays(Buffer.from(`${HEADER}\r\n${row()}\r\r\n`));
    expect(text).toBe(`${HEADER}\r\n${row()}\r\n`);
    expect(changes).toEqual(['2:DATE_FIN_VALIDITE:WHITESPACE_TRIMMED']);
  });

  it('a lone CR inside a cell is kept as it is, the changed cells around it re-encoded', () => {
    const input = row({
      NOM_TITULAIRE: 'A\rB',
      MODALITE_DISPENSE: 'presentiel',
      NOM_FORMATION: ' Œuvre 🙂 ',
    });
    const { text } = fixedThreeWays(Buffer.from(`${HEADER}\n${input}\n`));
    expect(text).toBe(`${HEADER}\r\n${row({ NOM_TITULAIRE: 'A\rB', NOM_FORMATION: 'Œuvre 🙂' })}\r\n`);
  });

  it('a BOM and a header alone without a line ending', () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(HEADER)]);
    const { text, changes } = fixedThreeWays(bytes);
    expect(text).toBe(`${HEADER}\r\n`);
    expect(changes).toEqual(['-:-:BOM_REMOVED', '-:-:CRLF_LINE_ENDINGS']);
  });

  it('a changed cell longer than a sink block (64 KiB), multi-byte, past the 64 KiB slices', () => {
    const long = `${'é'.repeat(40_000)}🙂`;
    const lines = [
      HEADER,
      ...Array.from({ length: 300 }, () => row()),
      row({ NOM_TITULAIRE: ` ${long} ` }),
      row(),
    ];
    const input = lines.join('\r\n');
    expect(Buffer.byteLength(input)).toBeGreaterThan(2 * 65536);
    const { text, sinkCalls } = fixedThreeWays(Buffer.from(input));
    expect(sinkCalls).toBeGreaterThan(1);
    expect(text).toBe(`${input.replace(` ${long} `, long)}\r\n`);
  });

  it('nothing to fix: the source, handed whole to a sink once', () => {
    const input = Buffer.from(
      `${HEADER}\r\n${row()}\r\n${row({ NOM_TITULAIRE: 'ÉLÉ', NOM_FORMATION: 'Œuvre 🙂' })}\r\n`,
    );
    const { text, sinkCalls, changes } = fixedThreeWays(input);
    expect(changes).toEqual([]);
    expect(text).toBe(input.toString('utf8'));
    expect(sinkCalls).toBe(1);
  });
});

describe('one write() reads as one decoding of it did, whatever the 64 KiB slices', () => {
  const R = row();
  const notUtf8 = Buffer.from([0x41, 0xe9, 0x0d, 0x0a]);
  /** A file of ~90 KB whose bytes past the first 64 KiB are not UTF-8. */
  const file = (header = HEADER): Buffer =>
    Buffer.concat([
      Buffer.from([header, ...Array.from({ length: 400 }, () => R)].map((l) => `${l}\r\n`).join('')),
      notUtf8,
    ]);

  function validate(
    bytes: Buffer,
    chunk: number,
    extra: { filename?: string; maxRows?: number } = {},
  ): FileValidationResponse {
    const v = createCsvValidator({ ...req, filename: extra.filename }, { ...env, maxRows: extra.maxRows });
    for (let i = 0; i < bytes.length; i += chunk) v.write(bytes.subarray(i, i + chunk));
    return v.end();
  }
  const codes = (r: FileValidationResponse) => r.errors.map((e) => e.code);

  it('a wrong header and bytes that are not UTF-8 further on: INVALID_ENCODING', () => {
    const bytes = file(HEADER.replace('|NIR|', '|NIS|'));
    expect(bytes.length).toBeGreaterThan(65536);
    for (const chunk of [bytes.length, 1 << 20]) {
      const r = validate(bytes, chunk);
      expect(r.file_rejected).toBe(true);
      expect(codes(r)).toEqual(['INVALID_ENCODING']);
    }
    // Chunks that end before the bytes in question let the header be read first (streaming).
    expect(codes(validate(bytes, 4096))).toEqual(['INVALID_HEADER']);
  });

  it('a refused file name and bytes that are not UTF-8 further on: both', () => {
    expect(codes(validate(file(), 1 << 20, { filename: 'export?.txt' }))).toEqual([
      'INVALID_FILENAME',
      'INVALID_ENCODING',
    ]);
  });

  it('more rows than allowed and bytes that are not UTF-8 further on: INVALID_ENCODING, not thrown', () => {
    const r = validate(file(), 1 << 20, { maxRows: 100 });
    expect(codes(r)).toEqual(['INVALID_ENCODING']);
    expect(() => validate(file(), 4096, { maxRows: 100 })).toThrow(/100/);
  });

  it('UTF-8 split across chunks and the pending line stays UTF-8', () => {
    const bytes = Buffer.from(
      `${HEADER}\r\n${row({ NOM_TITULAIRE: 'ÉLÉ🙂' })}\r\n${row({ NOM_TITULAIRE: 'Ñ' })}`,
    );
    const expected = validate(bytes, bytes.length);
    expect(expected.file_rejected).toBe(false);
    expect(expected.rows_total).toBe(2);
    for (const chunk of [1, 2, 3, 5]) expect(validate(bytes, chunk)).toEqual(expected);
  });
});

describe('CsvWriter: the bytes of the lines joined, whatever the row count it is told', () => {
  const cellsOf = (i: number, name: string): string[] =>
    COLUMNS.map((_, c) => (c === 3 ? `${name}${'🙂'.repeat(i % 7)}` : String(i * 100 + c)));
  const expectedOf = (rows: string[][]): Buffer =>
    Buffer.from([HEADER, ...rows.map((r) => r.join('|'))].map((l) => `${l}\r\n`).join(''), 'utf8');

  it.each([0, 1, 63, 64, 65, 129])('%i rows (batches of 64 lines, header included)', (n) => {
    const rows = Array.from({ length: n }, (_, i) => cellsOf(i, i % 2 ? 'Œuvre' : 'A'));
    for (const told of [0, n, 3 * n + 1]) {
      const w = new CsvWriter(table, told);
      rows.forEach((r) => w.add(r));
      expect(w.toBuffer().equals(expectedOf(rows))).toBe(true);
    }
    expect(writeCsv(table, rows).equals(expectedOf(rows))).toBe(true);
  });

  it('a lone surrogate is written as U+FFFD, as Buffer.from writes it', () => {
    const rows = [cellsOf(1, 'x\ud83d'), cellsOf(2, '\udc00y')];
    const bytes = writeCsv(table, rows);
    expect(bytes.equals(expectedOf(rows))).toBe(true);
    expect(bytes.includes(Buffer.from([0xef, 0xbf, 0xbd]))).toBe(true);
  });
});
