import fc from 'fast-check';
import { fixCsv, fixCsvFile } from './csv-fixer';
import { findSpec } from './format';
import { NIR_A, NIR_A_KEY, SIRET_A, testReferences } from './testing/fixtures';

/**
 * The fixed file's bytes (fixed-file.ts) against what they must be: files generated cell by cell,
 * each cell as written and as the fix must write it, with LF or CRLF line by line, a BOM or not, a
 * final line ending or not. The bytes kept in memory, those handed to a sink block by block and
 * fixCsv's string are the same file, and fixing it again changes nothing.
 */
const env = { refs: testReferences(), today: 20261122 };
const req = { type: 'adf', declarant: 'training_organization' };
const COLUMNS = findSpec('2026-02')!.tables.adf.columns.map((c) => c.name);

/** [as written, as fixed] */
type Cell = [string, string];
const clean = (value: string): fc.Arbitrary<Cell> => fc.constant([value, value]);

const CELLS: Record<string, fc.Arbitrary<Cell>> = {
  ID_DECLARATION: clean('SST-2026-09'),
  REFERENCE_DECLARATION: fc.constantFrom<Cell>(
    ['Session SST', 'Session SST'],
    [' Session SST\t', 'Session SST'],
  ),
  NOM_FORMATION: fc.constantFrom<Cell>(
    ['Sauveteur secouriste — groupe 1', 'Sauveteur secouriste — groupe 1'],
    ['Cafe\u0301 et pre\u0301vention ', 'Café et prévention'],
    ['Gestes 🙂 et postures', 'Gestes 🙂 et postures'],
    ['Œuvre d’art', 'Œuvre d’art'],
  ),
  DATE_DEBUT_FORMATION: fc.constantFrom<Cell>(['14/09/2026', '14/09/2026'], ['2026-09-14', '14/09/2026']),
  DATE_FIN_FORMATION: fc.constantFrom<Cell>(['15/09/2026', '15/09/2026'], [' 2026-09-15', '15/09/2026']),
  MODALITE_DISPENSE: fc.constantFrom<Cell>(['PRESENTIEL', 'PRESENTIEL'], ['presentiel', 'PRESENTIEL']),
  COMPETENCE_TRANSFERABLE: clean('115650/121885/400635'),
  QUALIFICATION_FORMATEUR: fc.constantFrom<Cell>(['PREVENTEUR', 'PREVENTEUR'], ['preventeur ', 'PREVENTEUR']),
  FORMATION_CERTIFIANTE: fc.constantFrom<Cell>(['NON', 'NON'], ['non', 'NON']),
  CERTIFICATION_VISEE: clean(''),
  DOMAINE_FORMATION: clean('42829/42817'),
  SPECIALITE_FORMATION: fc.constantFrom<Cell>(['344r', '344r'], ['344R', '344r'], ['344r/311U', '344r/311u']),
  NIR: fc.constantFrom<Cell>([NIR_A, NIR_A], ['2 55 08 14 168 025', NIR_A], [`${NIR_A}${NIR_A_KEY}`, NIR_A]),
  NOM_TITULAIRE: fc.constantFrom<Cell>(['DUPONT', 'DUPONT'], ['Müller ', 'Müller']),
  PRESENCE_EMPLOYEUR: clean('OUI'),
  SIRET_EMPLOYEUR: fc.constantFrom<Cell>(
    [SIRET_A, SIRET_A],
    [`${SIRET_A.slice(0, 9)} ${SIRET_A.slice(9)}`, SIRET_A],
  ),
  REFERENCE_EMPLOYEUR: clean('CLIENT-42'),
  DATE_DEBUT_VALIDITE: clean('15/09/2026'),
  DATE_FIN_VALIDITE: fc.constantFrom<Cell>(['14/09/2028', '14/09/2028'], ['2028-09-14', '14/09/2028']),
};

const row = fc.tuple(...COLUMNS.map((c) => CELLS[c] ?? clean('')));
const fileShape = fc.record({
  // Up to 800 rows: past the 64 KiB blocks a sink is given.
  rows: fc.array(fc.tuple(row, fc.boolean()), { minLength: 0, maxLength: 800, size: 'max' }),
  headerCrlf: fc.boolean(),
  finalLineEnding: fc.constantFrom('', '\r', '\n', '\r\n', null),
  bom: fc.boolean(),
});

function sinkBytes(bytes: Buffer): { chunks: Buffer[]; result: ReturnType<typeof fixCsvFile> } {
  const chunks: Buffer[] = [];
  // The sink's buffer is reused once it returns: what it keeps, it copies.
  const result = fixCsvFile(bytes, req, env, (chunk) => chunks.push(Buffer.from(chunk)));
  return { chunks, result };
}

describe('the fixed file (fixed-file.ts)', () => {
  it('is every line fixed, ending CRLF — in memory, through a sink, and as fixCsv’s string', () => {
    fc.assert(
      fc.property(fileShape, ({ rows, headerCrlf, finalLineEnding, bom }) => {
        let input = `${COLUMNS.join('|')}${headerCrlf ? '\r\n' : '\n'}`;
        let expected = `${COLUMNS.join('|')}\r\n`;
        rows.forEach(([cells, crlf], i) => {
          const last = i === rows.length - 1;
          // The last line: without a line ending, with a lone CR, or with the row's own (null).
          const ending = last && finalLineEnding !== null ? finalLineEnding : crlf ? '\r\n' : '\n';
          input += `${cells.map(([written]) => written).join('|')}${ending}`;
          expected += `${cells.map(([, fixed]) => fixed).join('|')}\r\n`;
        });
        const bytes = Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(input, 'utf8')]);

        const inMemory = fixCsvFile(bytes, req, env);
        expect(inMemory.mended).toBe(true);
        expect(inMemory.fixed!.toString('utf8')).toBe(expected);
        const { chunks, result } = sinkBytes(bytes);
        expect(result.mended).toBe(true);
        expect(result.fixed).toBeUndefined();
        expect(Buffer.concat(chunks).equals(inMemory.fixed!)).toBe(true);
        expect(result.change_count).toBe(inMemory.change_count);
        expect(fixCsv(bytes, req, env).content).toBe(expected);

        const again = fixCsvFile(inMemory.fixed!, req, env);
        expect(again.change_count).toBe(0);
        expect(again.fixed!.equals(inMemory.fixed!)).toBe(true);
      }),
      { numRuns: 40 },
    );
  });

  it('a file with nothing to fix is its own bytes, handed whole to a sink', () => {
    const bytes = Buffer.from(`${COLUMNS.join('|')}\r\n${COLUMNS.map(() => '').join('|')}\r\n`);
    const inMemory = fixCsvFile(bytes, req, env);
    expect(inMemory.change_count).toBe(0);
    expect(inMemory.fixed!.equals(bytes)).toBe(true);
    const { chunks } = sinkBytes(bytes);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('a row that cannot be split after rows already handed to a sink: not mended, no content', () => {
    const good = COLUMNS.map((c) => (c === 'DATE_DEBUT_FORMATION' ? '2026-09-14' : 'x')).join('|');
    const lines = [COLUMNS.join('|'), ...Array.from({ length: 1000 }, () => good), 'x|y'];
    const bytes = Buffer.from(lines.map((l) => `${l}\r\n`).join(''));
    const { chunks, result } = sinkBytes(bytes);
    expect(chunks.length).toBeGreaterThan(0);
    expect(result.mended).toBe(false);
    expect(result.change_count).toBe(0);
    expect(fixCsv(bytes, req, env).content).toBeUndefined();
  });

  it('Windows-1252 is written as UTF-8, every line encoded (in memory and through a sink alike)', () => {
    const text = `${COLUMNS.join('|')}\r\n${COLUMNS.map((c) => (c === 'NOM_TITULAIRE' ? 'LÉON' : c === 'NOM_FORMATION' ? 'Œuvre — €' : '')).join('|')}\r\n`;
    const cp1252 = Buffer.from(
      text.replace('Œ', '\u008c').replace('—', '\u0097').replace('€', '\u0080'),
      'latin1',
    );
    const inMemory = fixCsvFile(cp1252, req, env);
    expect(inMemory.fixed!.toString('utf8')).toBe(text);
    expect(Buffer.concat(sinkBytes(cp1252).chunks).toString('utf8')).toBe(text);
  });
});
