/**
 * Golden files: each body of test/golden/<type>-<declarant>.json must generate exactly the bytes of
 * test/golden/<type>-<declarant>.csv (STYLE.md: compare bytes, not parsed values). The CSV files
 * were written by hand from SERVICE.md §2.5–§2.6 and API.md §3–§5, one value per official column.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  findSpec,
  generateFile,
  validateCsv,
  type Declarant,
  type FileType,
  type Normalization,
} from '@ppfile/rules';
import { completeReferences, describeCsvDifference } from './support/reference-lists';

const TODAY = 20261122;
const GOLDEN_DIR = path.join(__dirname, 'golden');
// The official column order, kept in the repository (test/fixtures/official-columns/README.md says where from).
const COLUMNS_DIR = path.resolve(__dirname, '../../../test/fixtures/official-columns');
const refs = completeReferences();

interface Kind {
  type: FileType;
  declarant: Declarant;
  rows: number;
  declarations: number;
  /** Derived by hand from the body (API.md §5), compared without regard to order. */
  normalizations: [field: string, column: string, rule: Normalization['rule']][];
}

const KINDS: Kind[] = [
  {
    type: 'adf',
    declarant: 'employer',
    rows: 3,
    declarations: 2,
    normalizations: [
      ['declarations[0].training.start_date', 'DATE_DEBUT_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[0].training.delivery_mode', 'MODALITE_DISPENSE', 'ENUM_UPPERCASED'],
      ['declarations[0].training.nsf_codes[0]', 'SPECIALITE_FORMATION', 'CODE_NORMALIZED'],
      ['declarations[0].holders[0].nir', 'NIR', 'SEPARATORS_REMOVED'],
      ['declarations[0].holders[0].nir', 'NIR', 'NIR_KEY_REMOVED'],
      ['declarations[0].holders[0].birth_name', 'NOM_TITULAIRE', 'UNICODE_NFC'],
      ['declarations[0].holders[0].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[0].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[0].holders[1].birth_name', 'NOM_TITULAIRE', 'WHITESPACE_TRIMMED'],
      ['declarations[1].training.end_date', 'DATE_FIN_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[1].training.certification_code', 'CERTIFICATION_VISEE', 'CODE_NORMALIZED'],
      ['declarations[1].holders[0].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
    ],
  },
  {
    type: 'adf',
    declarant: 'training_organization',
    rows: 4,
    declarations: 2,
    normalizations: [
      ['declarations[0].training.end_date', 'DATE_FIN_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[0].holders[0].nir', 'NIR', 'NIR_KEY_REMOVED'],
      ['declarations[0].holders[0].employer_siret', 'SIRET_EMPLOYEUR', 'SEPARATORS_REMOVED'],
      ['declarations[0].holders[0].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[0].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[0].holders[1].nir', 'NIR', 'SEPARATORS_REMOVED'],
      ['declarations[0].holders[1].nir', 'NIR', 'NIR_KEY_REMOVED'],
      ['declarations[0].holders[1].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[1].training.start_date', 'DATE_DEBUT_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[1].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[1].holders[1].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
    ],
  },
  {
    type: 'jdr',
    declarant: 'employer',
    rows: 3,
    declarations: 2,
    normalizations: [
      ['declarations[0].certificate.type', 'TYPE_JDR', 'ENUM_UPPERCASED'],
      ['declarations[0].holders[0].nir', 'NIR', 'SEPARATORS_REMOVED'],
      ['declarations[0].holders[0].nir', 'NIR', 'NIR_KEY_REMOVED'],
      ['declarations[0].holders[0].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[1].training.end_date', 'DATE_FIN_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[1].holders[0].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[1].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
    ],
  },
  {
    type: 'jdr',
    declarant: 'training_organization',
    rows: 3,
    declarations: 2,
    normalizations: [
      ['declarations[0].certificate.obtention_mode', 'MODE_OBTENTION', 'ENUM_UPPERCASED'],
      ['declarations[0].training.start_date', 'DATE_DEBUT_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[0].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[0].holders[1].nir', 'NIR', 'SEPARATORS_REMOVED'],
      ['declarations[0].holders[1].nir', 'NIR', 'NIR_KEY_REMOVED'],
      ['declarations[0].holders[1].validity_start', 'DATE_DEBUT_VALIDITE', 'DATE_REFORMATTED'],
      ['declarations[1].training.start_date', 'DATE_DEBUT_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[1].training.end_date', 'DATE_FIN_FORMATION', 'DATE_REFORMATTED'],
      ['declarations[1].holders[0].employer_siret', 'SIRET_EMPLOYEUR', 'SEPARATORS_REMOVED'],
      ['declarations[1].holders[0].validity_end', 'DATE_FIN_VALIDITE', 'DATE_REFORMATTED'],
    ],
  },
];

/** The official column order of test/fixtures/official-columns/<type>_columns.csv (position,column,…). */
function officialColumns(type: FileType): string[] {
  const file = path.join(COLUMNS_DIR, `${type}_columns.csv`);
  if (!existsSync(file)) throw new Error(`official column list not found: ${file}`);
  const lines = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .filter((l) => l.trim() !== '');
  expect(lines[0]!.split(',').slice(0, 2)).toEqual(['position', 'column']);
  return lines.slice(1).map((line, i) => {
    const [position, column] = line.split(',');
    expect(Number(position)).toBe(i + 1);
    return column!;
  });
}

function key(n: { field: string; column: string; rule: string }): string {
  return `${n.field} ${n.column} ${n.rule}`;
}

describe('official column tables (test/fixtures/official-columns)', () => {
  it.each(['adf', 'jdr'] as const)(
    '%s: the library table has the official columns in the official order',
    (type) => {
      const official = officialColumns(type);
      expect(official).toHaveLength(type === 'adf' ? 20 : 29);
      expect(findSpec('2026-02')!.tables[type].columns.map((c) => c.name)).toEqual(official);
    },
  );
});

describe.each(KINDS)('golden file $type / $declarant', (kind) => {
  const name = `${kind.type}-${kind.declarant}`;
  const body = JSON.parse(readFileSync(path.join(GOLDEN_DIR, `${name}.json`), 'utf8')) as Record<
    string,
    unknown
  >;
  const golden = readFileSync(path.join(GOLDEN_DIR, `${name}.csv`));

  it('the golden file itself is UTF-8 without BOM with CRLF after every line', () => {
    expect(golden.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    const text = golden.toString('utf8');
    expect(Buffer.from(text, 'utf8').equals(golden)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    expect(/[^\r]\n|\r[^\n]/.test(text)).toBe(false);
  });

  it('generateFile produces the golden bytes', () => {
    const file = generateFile(body, { refs, today: TODAY, generationDay: TODAY });
    const same = file.content.equals(golden);
    // On a mismatch, the message shows each differing line and column.
    expect(same ? 'identical' : describeCsvDifference(golden, file.content)).toBe('identical');
  });

  it('result metadata: sha256 of the bytes, file name, counts, no warnings, normalizations', () => {
    const file = generateFile(body, { refs, today: TODAY, generationDay: TODAY });
    expect(file.sha256).toBe(createHash('sha256').update(file.content).digest('hex'));
    expect(file.sha256).toBe(createHash('sha256').update(golden).digest('hex'));
    expect(file.filename).toMatch(new RegExp(`^ppfile_${kind.type}_20261122_[0-9a-f]{8}\\.csv$`));
    expect(file.type).toBe(kind.type);
    expect(file.declarant).toBe(kind.declarant);
    expect(file.spec_version).toBe('2026-02');
    expect(file.rows).toBe(kind.rows);
    expect(file.declarations).toBe(kind.declarations);
    expect(file.warnings).toEqual([]);
    expect(file.warning_count).toBe(0);
    expect(file.normalization_count).toBe(kind.normalizations.length);
    expect(file.normalizations.map(key).sort()).toEqual(
      kind.normalizations.map(([field, column, rule]) => key({ field, column, rule })).sort(),
    );
  });

  it('bytes: no BOM, every line ends with CRLF, header = official columns, one line per holder', () => {
    const { content } = generateFile(body, { refs, today: TODAY, generationDay: TODAY });
    expect([...content.subarray(0, 3)]).not.toEqual([0xef, 0xbb, 0xbf]);
    const text = content.toString('utf8');
    expect(text.endsWith('\r\n')).toBe(true);
    const lines = text.split('\r\n');
    expect(lines.pop()).toBe('');
    for (const line of lines) {
      expect(line).not.toMatch(/[\r\n]/);
      expect(line).not.toContain('"');
    }
    const official = officialColumns(kind.type);
    expect(lines[0]).toBe(official.join('|'));
    expect(lines).toHaveLength(kind.rows + 1);
    for (const line of lines) expect(line.split('|')).toHaveLength(official.length);
  });

  it('the golden file validates as a file of its kind', () => {
    const result = validateCsv(
      golden,
      { type: kind.type, declarant: kind.declarant, filename: `ppfile_${kind.type}_20261122_0a1b2c3d.csv` },
      { refs, today: TODAY },
    );
    expect(result).toMatchObject({
      valid: true,
      file_rejected: false,
      error_count: 0,
      warning_count: 0,
      rows_total: kind.rows,
      rows_valid: kind.rows,
      rows_invalid: 0,
    });
  });
});
