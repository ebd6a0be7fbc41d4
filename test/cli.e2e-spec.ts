/**
 * The command line as a user runs it (API.md §11): `node bin/ppfile.js …` from the repository root,
 * checking standard output, standard error and the exit status (0 valid / generated, 1 invalid,
 * 2 usage or I/O error). Every validation code of API.md §4 is reached at least once in this file;
 * the last test checks that.
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadReferenceLists, shippedReferenceDir } from '@ppfile/refdata';
import {
  excerpt,
  NEEDS_OFFICIAL_EXPORTS,
  officialExport,
  officialExportsDir,
  SKIPPED_NOTE,
} from '@ppfile/refdata/testing/official-exports';
import { validateCsv, validateDeclarations } from '@ppfile/rules';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { runCli } from './support/cli';
import { assertBuilt } from './support/worker';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'ppfile.js');
const BUILT = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
const FIXTURES = path.join(__dirname, 'fixtures', 'cli');
/** 8 records of France Travail's ROME export, byte for byte (test/fixtures/official-exports/README.md). */
const ROME_EXCERPT = excerpt('rome/unix_referentiel_competence_v460_utf8.csv');
/** The complete official exports are not in the repository: their tests run with PPFILE_OFFICIAL_EXPORTS only. */
const withOfficialExports = officialExportsDir() !== null ? describe : describe.skip;
if (officialExportsDir() === null) console.info(`test/cli.e2e-spec.ts: ${SKIPPED_NOTE}`);

/** The valid body and the file it must give (written by hand, CRLF, UTF-8 without BOM). */
const BODY_FILE = path.join(FIXTURES, 'of-adf-body.json');
const CSV_FILE = path.join(FIXTURES, 'of-adf.csv');
const BODY_TEXT = readFileSync(BODY_FILE, 'utf8');
const CSV_BYTES = readFileSync(CSV_FILE);
const CSV_LINES = CSV_BYTES.toString('utf8').split('\r\n');
const ADF_HEADER = CSV_LINES[0]!.split('|');
const JDR_HEADER =
  'ID_DECLARATION|REFERENCE_DECLARATION|ID_UNIQUE_PARTENAIRE|TYPE_JDR|NOM_JDR|NOM_OPTION_SPECIALITE|MODE_OBTENTION|COMPETENCE_TRANSFERABLE|PRESENCE_FORMATION|NOM_FORMATION|DATE_DEBUT_FORMATION|DATE_FIN_FORMATION|MODALITE_DISPENSE|QUALIFICATION_FORMATEUR|FORMATION_CERTIFIANTE|CERTIFICATION_VISEE|DOMAINE_FORMATION|SPECIALITE_FORMATION|NIR|NOM_TITULAIRE|PRESENCE_EMPLOYEUR|SIRET_EMPLOYEUR|REFERENCE_EMPLOYEUR|DATE_DEBUT_VALIDITE|DATE_FIN_VALIDITE|RESULTAT_OBTENU|MENTION_OBTENUE|LIEN_PREUVE|IDENTIFIANT_PREUVE'.split(
    '|',
  );
const TODAY = '2026-11-22';

let tmp = '';
let importedDir = '';
const shipped = loadReferenceLists(shippedReferenceDir('2026-02'), '2026-02');

/** Every code seen in the CLI's JSON outputs of this file (validation codes and error-body codes). */
const seen = new Set<string>();

beforeAll(() => {
  assertBuilt('cli', BUILT);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ppfile-cli-'));
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

interface Run {
  status: number | null;
  stdout: Buffer;
  out: string;
  err: string;
}

/** `node bin/ppfile.js …` in the repository: in process unless stdin, NODE_OPTIONS or `spawn` (support/cli.ts). */
function ppfile(
  args: string[],
  env: Record<string, string> = {},
  input?: string | Buffer,
  options: { spawn?: boolean } = {},
): Run {
  const base: NodeJS.ProcessEnv = { ...process.env };
  delete base.PPFILE_REFERENCE_DATA;
  const r = runCli(args, { env: { ...base, ...env }, input, spawn: options.spawn });
  return {
    status: r.status,
    stdout: r.stdout,
    out: r.stdout.toString('utf8'),
    err: r.stderr.toString('utf8'),
  };
}

/** stdout must be one JSON document and nothing else; its codes are recorded for the coverage test. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the CLI's output, read as the user's JSON tools would
function json(run: Run): any {
  const value = JSON.parse(run.out);
  if (value.error) seen.add(value.error.code);
  for (const list of [
    value.errors,
    value.warnings,
    value.error?.details?.errors,
    value.error?.details?.warnings,
  ]) {
    for (const issue of list ?? []) seen.add(issue.code);
  }
  return value;
}

function tmpFile(name: string, content: string | Buffer): string {
  // Never write into the repository when beforeAll failed before creating the directory.
  if (!tmp) throw new Error('no temporary directory (beforeAll failed)');
  const file = path.join(tmp, name);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
  return file;
}

const bare = (issues: { row: number | null; column: string | null; field?: string; code: string }[]) =>
  issues.map(({ row, column, field, code }) =>
    field === undefined ? { row, column, code } : { row, column, field, code },
  );

type Cells = Record<string, string>;
/** The cells of the fixture's first data line (valid for adf / training_organization on 22/11/2026). */
const OF_ROW: Cells = Object.fromEntries(ADF_HEADER.map((name, i) => [name, CSV_LINES[1]!.split('|')[i]!]));
const csvText = (header: string[], rows: (Cells | string)[]) =>
  [
    header.join('|'),
    ...rows.map((r) => (typeof r === 'string' ? r : header.map((n) => r[n] ?? '').join('|'))),
  ]
    .map((l) => `${l}\r\n`)
    .join('');

const validateArgs = (file: string, type = 'adf', declarant = 'training_organization') => [
  'validate',
  file,
  '--type',
  type,
  '--declarant',
  declarant,
  '--today',
  TODAY,
];

// ---- ppfile validate ------------------------------------------------------------------------------------

describe('ppfile validate', () => {
  it('a valid file → exit 0, a one-line verdict and the counts on stdout, nothing on stderr', () => {
    const run = ppfile(validateArgs(CSV_FILE));
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toBe(
      'of-adf.csv: valid\n  rows: 2 total, 2 valid, 0 invalid; 0 error(s), 0 warning(s) (spec 2026-02)\n',
    );
  });

  it('--json on a valid file prints the POST /v1/files/validate response', () => {
    const run = ppfile([...validateArgs(CSV_FILE), '--json']);
    expect(run.status).toBe(0);
    expect(json(run)).toEqual({
      valid: true,
      spec_version: '2026-02',
      file_rejected: false,
      rows_total: 2,
      rows_valid: 2,
      rows_invalid: 0,
      error_count: 0,
      truncated: false,
      errors: [],
      warning_count: 0,
      warnings: [],
      summary: { by_code: {}, by_column: {} },
    });
  });

  describe('one defect per line: every row-level code of API.md §4 an uploaded file can carry', () => {
    const row = (line: number, cells: Cells = {}): Cells => ({
      ...OF_ROW,
      ID_DECLARATION: `D${line}`,
      ID_UNIQUE_PARTENAIRE: `U${line}`,
      ...cells,
    });
    const brokenLine = row(23, {}); // COLUMN_COUNT: one field short
    const rows: (Cells | string)[] = [
      row(2),
      row(3, { NOM_TITULAIRE: '' }),
      row(4, { CERTIFICATION_VISEE: 'RS6550' }),
      row(5, { NOM_TITULAIRE: 'A'.repeat(31) }),
      row(6, { MODALITE_DISPENSE: 'SUR_SITE' }),
      row(7, { COMPETENCE_TRANSFERABLE: '115650/121885' }),
      row(8, { NOM_FORMATION: 'Sauveteur\rsecouriste' }),
      row(9, { DATE_DEBUT_VALIDITE: '2026-11-17' }),
      row(10, { DATE_FIN_FORMATION: '23/11/2026', DATE_DEBUT_VALIDITE: '23/11/2026' }),
      row(11, { DATE_DEBUT_FORMATION: '18/11/2026' }),
      row(12, { DATE_DEBUT_VALIDITE: '16/11/2026' }),
      row(13, { DATE_FIN_VALIDITE: '16/11/2026' }),
      row(14, { NIR: '25508141680' }),
      row(15, { SIRET_EMPLOYEUR: '2000566790001' }),
      row(16, { SIRET_EMPLOYEUR: '20005667900019' }),
      row(17, { DOMAINE_FORMATION: '4282' }),
      row(18, { SPECIALITE_FORMATION: '34r' }),
      row(19, { COMPETENCE_TRANSFERABLE: '115650/121885/H1302' }),
      row(20, {
        FORMATION_CERTIFIANTE: 'OUI',
        CERTIFICATION_VISEE: '6550',
        DOMAINE_FORMATION: '',
        SPECIALITE_FORMATION: '',
      }),
      row(21, { ID_UNIQUE_PARTENAIRE: 'U2' }),
      // same declaration as line 21 (another holder, another NIR) but another reference
      row(22, { ID_DECLARATION: 'D21', REFERENCE_DECLARATION: 'Autre session', NIR: '1850578006084' }),
      ADF_HEADER.slice(1)
        .map((n) => brokenLine[n])
        .join('|'),
      // warnings only from here on
      row(24, { REFERENCE_EMPLOYEUR: '=CLIENT' }),
      row(25, { NIR: '7550814168025' }),
      row(26, { SPECIALITE_FORMATION: '344p' }), // NSF letter code absent from the shipped (partial) list
      row(27, {
        DATE_DEBUT_FORMATION: '09/02/2026',
        DATE_FIN_FORMATION: '10/02/2026',
        DATE_DEBUT_VALIDITE: '10/02/2026',
        DATE_FIN_VALIDITE: '09/02/2028',
      }),
      row(28),
      row(29, { ID_DECLARATION: 'D28' }),
    ];
    const expectedErrors = [
      { row: 3, column: 'NOM_TITULAIRE', code: 'REQUIRED_FIELD' },
      { row: 4, column: 'CERTIFICATION_VISEE', code: 'FIELD_NOT_ALLOWED' },
      { row: 5, column: 'NOM_TITULAIRE', code: 'FIELD_TOO_LONG' },
      { row: 6, column: 'MODALITE_DISPENSE', code: 'INVALID_VALUE' },
      { row: 7, column: 'COMPETENCE_TRANSFERABLE', code: 'VALUE_COUNT' },
      { row: 8, column: 'NOM_FORMATION', code: 'INVALID_CHARACTER' },
      { row: 9, column: 'DATE_DEBUT_VALIDITE', code: 'INVALID_DATE' },
      { row: 10, column: 'DATE_FIN_FORMATION', code: 'FUTURE_DATE' },
      { row: 11, column: 'DATE_FIN_FORMATION', code: 'END_BEFORE_START' },
      { row: 12, column: 'DATE_DEBUT_VALIDITE', code: 'VALIDITY_BEFORE_TRAINING_END' },
      { row: 13, column: 'DATE_FIN_VALIDITE', code: 'VALIDITY_END_BEFORE_START' },
      { row: 14, column: 'NIR', code: 'INVALID_NIR' },
      { row: 15, column: 'SIRET_EMPLOYEUR', code: 'INVALID_SIRET' },
      { row: 16, column: 'SIRET_EMPLOYEUR', code: 'INVALID_SIRET_KEY' },
      { row: 17, column: 'DOMAINE_FORMATION', code: 'INVALID_FORMACODE' },
      { row: 18, column: 'SPECIALITE_FORMATION', code: 'INVALID_NSF_CODE' },
      { row: 19, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
      { row: 20, column: 'CERTIFICATION_VISEE', code: 'INVALID_RS_CODE' },
      { row: 21, column: 'ID_UNIQUE_PARTENAIRE', code: 'DUPLICATE_UNIQUE_ID' },
      { row: 22, column: 'REFERENCE_DECLARATION', code: 'INCONSISTENT_DECLARATION' },
      { row: 23, column: null, code: 'COLUMN_COUNT' },
    ];
    const expectedWarnings = [
      { row: 24, column: 'REFERENCE_EMPLOYEUR', code: 'FORMULA_NOT_ALLOWED' },
      { row: 25, column: 'NIR', code: 'NIR_PROVISIONAL' },
      { row: 26, column: 'SPECIALITE_FORMATION', code: 'REFERENCE_NOT_VERIFIED' },
      { row: 27, column: 'DATE_FIN_FORMATION', code: 'FILING_DEADLINE_PASSED' },
      { row: 29, column: 'NIR', code: 'DUPLICATE_HOLDER' },
    ];

    it('--json: the exact list of errors and warnings, with exact counts', () => {
      const file = tmpFile('defects/one-defect-per-line.csv', csvText(ADF_HEADER, rows));
      const run = ppfile([...validateArgs(file), '--json']);
      expect(run.err).toBe('');
      expect(run.status).toBe(1);
      const body = json(run);
      expect(bare(body.errors)).toEqual(expectedErrors);
      expect(bare(body.warnings)).toEqual(expectedWarnings);
      // Line 27: a training organization's training ended 10/02/2026 → 30/09/2026 (API.md §4).
      expect(body.warnings[3]).toMatchObject({
        code: 'FILING_DEADLINE_PASSED',
        details: { deadline: '30/09/2026' },
        message: 'The legal filing deadline of this declaration (30/09/2026) has passed.',
      });
      expect(body).toMatchObject({
        valid: false,
        file_rejected: false,
        rows_total: 28,
        // lines 3–23 (line 21 also through the inconsistency of its declaration on line 22)
        rows_invalid: 21,
        rows_valid: 7,
        error_count: 21,
        warning_count: 5,
        truncated: false,
      });
      // Exactly what the HTTP endpoint would answer: the library's response for the same bytes.
      expect(body).toEqual(
        JSON.parse(
          JSON.stringify(
            validateCsv(
              readFileSync(file),
              { type: 'adf', declarant: 'training_organization', filename: 'one-defect-per-line.csv' },
              { refs: shipped, today: 20261122 },
            ),
          ),
        ),
      );
      for (const issue of [...body.errors, ...body.warnings]) expect(issue.message).toMatch(/^[A-Z]/);
    });

    it('text output: the verdict, counts and one line per issue; exit 1', () => {
      const file = tmpFile('defects/one-defect-per-line.csv', csvText(ADF_HEADER, rows));
      const run = ppfile(validateArgs(file));
      expect(run.status).toBe(1);
      expect(run.err).toBe('');
      const lines = run.out.split('\n');
      expect(lines[0]).toBe('one-defect-per-line.csv: invalid');
      expect(lines[1]).toBe(
        '  rows: 28 total, 7 valid, 21 invalid; 21 error(s), 5 warning(s) (spec 2026-02)',
      );
      expect(lines).toContain('  error   line 23: COLUMN_COUNT — The line has 19 fields; the header has 20.');
      expect(lines).toContain(
        '  error   line 16 SIRET_EMPLOYEUR: INVALID_SIRET_KEY — SIRET_EMPLOYEUR fails the SIRET check key (Luhn; La Poste rule for SIREN 356000000).',
      );
      expect(lines.filter((l) => l.startsWith('  error '))).toHaveLength(21);
      expect(lines.filter((l) => l.startsWith('  warning '))).toHaveLength(5);
    });
  });

  it('jdr / employer: INVALID_URL, training columns without training, employer columns of an employer file', () => {
    const base: Cells = {
      REFERENCE_DECLARATION: 'Certificats SST 2026',
      TYPE_JDR: 'CERTIFICAT',
      NOM_JDR: 'Sauveteur secouriste du travail',
      MODE_OBTENTION: 'PAR_ADMISSION',
      PRESENCE_FORMATION: 'NON',
      NIR: '1850578006084',
      NOM_TITULAIRE: 'MARTIN',
      REFERENCE_EMPLOYEUR: 'RH-7',
      DATE_DEBUT_VALIDITE: '15/06/2026',
      RESULTAT_OBTENU: 'Admis',
      LIEN_PREUVE: 'https://certificats.example.org/sst/1',
    };
    const file = tmpFile(
      'jdr-employer.csv',
      csvText(JDR_HEADER, [
        {
          ...base,
          ID_DECLARATION: 'J1',
          ID_UNIQUE_PARTENAIRE: 'JU1',
          LIEN_PREUVE: 'ftp://certificats.example.org/sst/1',
        },
        { ...base, ID_DECLARATION: 'J2', ID_UNIQUE_PARTENAIRE: 'JU2', NOM_FORMATION: 'SST' },
        { ...base, ID_DECLARATION: 'J3', ID_UNIQUE_PARTENAIRE: 'JU3', PRESENCE_EMPLOYEUR: 'OUI' },
        { ...base, ID_DECLARATION: 'J4', ID_UNIQUE_PARTENAIRE: 'JU4' },
      ]),
    );
    const run = ppfile([...validateArgs(file, 'jdr', 'employer'), '--json']);
    expect(run.status).toBe(1);
    const body = json(run);
    expect(bare(body.errors)).toEqual([
      { row: 2, column: 'LIEN_PREUVE', code: 'INVALID_URL' },
      { row: 3, column: 'NOM_FORMATION', code: 'FIELD_NOT_ALLOWED' },
      { row: 4, column: 'PRESENCE_EMPLOYEUR', code: 'FIELD_NOT_ALLOWED' },
    ]);
    expect(body.warnings).toEqual([]);
    expect(body).toMatchObject({ rows_total: 4, rows_valid: 1, rows_invalid: 3, error_count: 3 });
  });

  it('501 holders in one declaration → DECLARATION_TOO_LARGE on its first line; all 501 rows invalid', () => {
    const rows = Array.from({ length: 501 }, (_, i) => ({
      ...OF_ROW,
      ID_DECLARATION: 'BIG',
      ID_UNIQUE_PARTENAIRE: `BIG-${i}`,
      NIR: `18505780${String(Math.floor(i / 999)).padStart(2, '0')}${String((i % 999) + 1).padStart(3, '0')}`,
    }));
    const run = ppfile([...validateArgs(tmpFile('big.csv', csvText(ADF_HEADER, rows))), '--json']);
    expect(run.status).toBe(1);
    const body = json(run);
    expect(bare(body.errors)).toEqual([{ row: 2, column: 'ID_DECLARATION', code: 'DECLARATION_TOO_LARGE' }]);
    expect(body).toMatchObject({ rows_total: 501, rows_valid: 0, rows_invalid: 501, warning_count: 0 });
  });

  it('more than 1,000 errors: the list stops at 1,000, error_count stays exact, truncated: true', () => {
    const rows = Array.from({ length: 1_100 }, (_, i) => ({
      ...OF_ROW,
      ID_DECLARATION: `MANY-${i}`,
      ID_UNIQUE_PARTENAIRE: `MANY-${i}`,
      NIR: '25508141680',
    }));
    const file = tmpFile('many-errors.csv', csvText(ADF_HEADER, rows));
    const run = ppfile([...validateArgs(file), '--json']);
    expect(run.status).toBe(1);
    const body = json(run);
    expect(body).toMatchObject({
      error_count: 1_100,
      truncated: true,
      rows_total: 1_100,
      rows_invalid: 1_100,
    });
    expect(body.errors).toHaveLength(1_000);
    expect(body.errors[999]).toMatchObject({ row: 1_001, column: 'NIR', code: 'INVALID_NIR' });
    expect(body.summary).toEqual({ by_code: { INVALID_NIR: 1_100 }, by_column: { NIR: 1_100 } });
    const text = ppfile(validateArgs(file));
    // The text says where the list stops, with the exact count of what is not shown.
    expect(text.out).toContain('  … 100 more error(s) not shown\n');
    expect(text.out.split('\n').filter((l) => l.startsWith('  error '))).toHaveLength(1_000);
    const fr = ppfile([...validateArgs(file), '--lang', 'fr']);
    expect(fr.out).toContain('  … 100 erreur(s) de plus non affichée(s)\n');
  });

  it('LF line endings → still valid (exit 0) with the warning LF_LINE_ENDINGS', () => {
    const file = tmpFile('lf.csv', CSV_BYTES.toString('utf8').replace(/\r\n/g, '\n'));
    const run = ppfile([...validateArgs(file), '--json']);
    expect(run.status).toBe(0);
    const body = json(run);
    expect(body.valid).toBe(true);
    expect(bare(body.warnings)).toEqual([{ row: null, column: null, code: 'LF_LINE_ENDINGS' }]);
  });

  describe('file-level problems reject the file (file_rejected: true, rows not analysed, exit 1)', () => {
    const swapped = [...ADF_HEADER];
    [swapped[0], swapped[1]] = [swapped[1]!, swapped[0]!];
    it.each([
      ['empty.csv', Buffer.alloc(0), { row: null, column: null, code: 'EMPTY_FILE' }],
      [
        'bom.csv',
        Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), CSV_BYTES]),
        { row: null, column: null, code: 'INVALID_ENCODING' },
      ],
      [
        'latin1.csv',
        Buffer.from(CSV_BYTES.toString('utf8'), 'latin1'),
        { row: null, column: null, code: 'INVALID_ENCODING' },
      ],
      [
        'semicolons.csv',
        Buffer.from(CSV_BYTES.toString('utf8').replace(/\|/g, ';')),
        { row: 1, column: null, code: 'INVALID_SEPARATOR' },
      ],
      [
        'swapped.csv',
        Buffer.from(CSV_BYTES.toString('utf8').replace(CSV_LINES[0]!, swapped.join('|'))),
        { row: 1, column: null, code: 'INVALID_HEADER' },
      ],
      ['export 100%.csv', CSV_BYTES, { row: null, column: null, code: 'INVALID_FILENAME' }],
      ['export.txt', CSV_BYTES, { row: null, column: null, code: 'INVALID_FILENAME' }],
    ])('%s', (name, bytes, expected) => {
      const run = ppfile([...validateArgs(tmpFile(`rejected/${name}`, bytes)), '--json']);
      expect(run.status).toBe(1);
      const body = json(run);
      expect(bare(body.errors)).toEqual([expected]);
      const text = ppfile(validateArgs(path.join(tmp, 'rejected', name)));
      expect(text.status).toBe(1);
      expect(text.out.split('\n')[0]).toBe(`${name}: REJECTED (the portal would refuse the whole file)`);
      expect(body).toMatchObject({
        valid: false,
        file_rejected: true,
        error_count: 1,
        rows_total: 0,
        rows_valid: 0,
        rows_invalid: 0,
        warnings: [],
      });
    });
  });

  it('--today moves "today": the fixture ends its training on 17/11/2026', () => {
    const onDay = (day: string) =>
      ppfile([
        'validate',
        CSV_FILE,
        '--type',
        'adf',
        '--declarant',
        'training_organization',
        '--today',
        day,
        '--json',
      ]);
    const before = onDay('2026-11-16');
    expect(before.status).toBe(1);
    const body = json(before);
    expect(bare(body.errors)).toEqual([{ row: 2, column: 'DATE_FIN_FORMATION', code: 'FUTURE_DATE' }]);
    expect(body.errors[0].message).toBe(
      'DATE_FIN_FORMATION is after today (16/11/2026, Europe/Paris); training dates cannot be in the future.',
    );
    expect(body).toMatchObject({ rows_invalid: 2, rows_valid: 0 });
    expect(bare(json(onDay('2026-11-15')).errors)).toEqual([
      { row: 2, column: 'DATE_DEBUT_FORMATION', code: 'FUTURE_DATE' },
      { row: 2, column: 'DATE_FIN_FORMATION', code: 'FUTURE_DATE' },
    ]);
    expect(onDay('2026-11-17').status).toBe(0);
  });

  it('--lang fr gives the French messages (text and --json), English by default', () => {
    const args = [
      'validate',
      CSV_FILE,
      '--type',
      'adf',
      '--declarant',
      'training_organization',
      '--today',
      '2026-11-16',
    ];
    const fr =
      "DATE_FIN_FORMATION est postérieure à aujourd'hui (16/11/2026, heure de Paris) ; une date de formation ne peut pas être future.";
    const en =
      'DATE_FIN_FORMATION is after today (16/11/2026, Europe/Paris); training dates cannot be in the future.';
    const text = ppfile([...args, '--lang', 'fr']);
    expect(text.status).toBe(1);
    expect(text.out).toBe(
      'of-adf.csv : invalide\n' +
        '  lignes : 2 au total, 0 valide(s), 2 invalide(s) ; 1 erreur(s), 0 avertissement(s) (format 2026-02)\n' +
        `  erreur        ligne 2 DATE_FIN_FORMATION : FUTURE_DATE — ${fr}\n`,
    );
    expect(text.out).not.toContain(en);
    expect(json(ppfile([...args, '--lang', 'fr', '--json'])).errors[0].message).toBe(fr);
    expect(ppfile(args).out).toContain(en);
    expect(ppfile([...args, '--lang', 'de']).status).toBe(2);
  });

  it('usage and I/O errors → exit 2 with a message on stderr and nothing on stdout', () => {
    // A real process: the exit status and the streams as a shell sees them.
    const missing = ppfile(validateArgs(path.join(tmp, 'does-not-exist.csv')), {}, undefined, {
      spawn: true,
    });
    expect(missing.status).toBe(2);
    expect(missing.out).toBe('');
    expect(missing.err).toContain('cannot read');
    expect(missing.err).toContain('does-not-exist.csv');

    const badType = ppfile(['validate', CSV_FILE, '--type', 'xyz', '--declarant', 'employer']);
    expect(badType.status).toBe(2);
    expect(badType.out).toBe('');
    expect(badType.err).toBe('ppfile validate: --type expects adf | jdr\n');

    const noDeclarant = ppfile(['validate', CSV_FILE, '--type', 'adf']);
    expect(noDeclarant.status).toBe(2);
    expect(noDeclarant.err).toContain('--declarant');

    const badToday = ppfile([...validateArgs(CSV_FILE).slice(0, -1), '22/11/2026']);
    expect(badToday.status).toBe(2);
    expect(badToday.err).toContain('--today');

    const unknownOption = ppfile([...validateArgs(CSV_FILE), '--strict']);
    expect(unknownOption.status).toBe(2);

    const unknownCommand = ppfile(['convert', CSV_FILE]);
    expect(unknownCommand.status).toBe(2);
    expect(unknownCommand.err).toContain('unknown command');
  });
});

// ---- ppfile check -------------------------------------------------------------------------------------------

describe('ppfile check', () => {
  const body = () => JSON.parse(BODY_TEXT);

  it('a valid body → exit 0; --json prints the POST /v1/declarations/validate response', () => {
    const text = ppfile(['check', BODY_FILE, '--today', TODAY]);
    expect(text.status).toBe(0);
    expect(text.err).toBe('');
    expect(text.out.split('\n')[0]).toBe(`${BODY_FILE}: valid`);

    const run = ppfile(['check', BODY_FILE, '--today', TODAY, '--json']);
    expect(run.status).toBe(0);
    const response = json(run);
    expect(response).toMatchObject({
      valid: true,
      spec_version: '2026-02',
      rows_total: 2,
      rows_valid: 2,
      rows_invalid: 0,
      error_count: 0,
      warning_count: 0,
      normalization_count: 8,
    });
    expect(response).toEqual(
      JSON.parse(JSON.stringify(validateDeclarations(body(), { refs: shipped, today: 20261122 }))),
    );
  });

  it('an invalid body → exit 1 with errors located by row, column and field (JSON-only codes)', () => {
    const b = body();
    b.declarations[0].reference = '=Session SST';
    b.declarations[0].holders[0].nir = '2 55 08 14 168 025 39';
    b.declarations[0].holders[1].birth_name = 'MAR|TIN';
    const run = ppfile([
      'check',
      tmpFile('check/invalid.json', JSON.stringify(b)),
      '--today',
      TODAY,
      '--json',
    ]);
    expect(run.status).toBe(1);
    const response = json(run);
    expect(bare(response.errors)).toEqual([
      {
        row: 2,
        column: 'REFERENCE_DECLARATION',
        field: 'declarations[0].reference',
        code: 'FORMULA_NOT_ALLOWED',
      },
      { row: 2, column: 'NIR', field: 'declarations[0].holders[0].nir', code: 'INVALID_NIR_KEY' },
      {
        row: 3,
        column: 'NOM_TITULAIRE',
        field: 'declarations[0].holders[1].birth_name',
        code: 'INVALID_CHARACTER',
      },
    ]);
    expect(response).toMatchObject({
      valid: false,
      rows_total: 2,
      rows_valid: 0,
      rows_invalid: 2,
      error_count: 3,
    });
  });

  it('strict_references: false in the body (API.md §2) turns an absent code of a complete list into a warning', () => {
    // The shipped ROME list is complete (ROME 4.0 v460, reference-data/README.md).
    const b = body();
    b.declarations[0].transferable_skills = ['115650', '121885', '999999'];
    b.options = { strict_references: false };
    const run = ppfile([
      'check',
      tmpFile('check/lenient.json', JSON.stringify(b)),
      '--today',
      TODAY,
      '--json',
    ]);
    expect(run.status).toBe(0);
    const response = json(run);
    expect(response.errors).toEqual([]);
    expect(bare(response.warnings)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills[2]',
        code: 'INVALID_ROME_CODE',
      },
    ]);
  });

  it('unreadable JSON → exit 2; --json prints the API error body INVALID_JSON', () => {
    const file = tmpFile(
      'check/broken.json',
      '{"type": "adf", "declarations": [ {"holders": [{"nir": "2550814168025"}] ',
    );
    const run = ppfile(['check', file, '--json']);
    expect(run.status).toBe(2);
    expect(run.err).toBe('');
    const error = json(run);
    expect(error).toEqual({
      error: {
        code: 'INVALID_JSON',
        message: 'The request body is not valid JSON.',
        details: {},
        // As the gateway's: req_ and 32 hex digits.
        request_id: expect.stringMatching(/^req_[0-9a-f]{32}$/),
      },
    });
    const text = ppfile(['check', file]);
    expect(text.status).toBe(2);
    expect(text.out).toBe('');
    expect(text.err).toBe('INVALID_JSON: The request body is not valid JSON.\n');
  });

  it('a malformed request → exit 2 with INVALID_REQUEST (details.fields) or UNSUPPORTED_SPEC_VERSION', () => {
    const unknown = { ...body(), store: false };
    const run = ppfile(['check', tmpFile('check/unknown-field.json', JSON.stringify(unknown)), '--json']);
    expect(run.status).toBe(2);
    expect(json(run)).toEqual({
      error: {
        code: 'INVALID_REQUEST',
        message: 'The request is malformed (1 problem; see details.fields).',
        details: { fields: [{ field: 'store', message: 'is not a known field' }], field_count: 1 },
        request_id: expect.stringMatching(/^req_[0-9a-f]+$/),
      },
    });
    const version = ppfile([
      'check',
      tmpFile('check/version.json', JSON.stringify({ ...body(), spec_version: '2025-01' })),
      '--json',
    ]);
    expect(version.status).toBe(2);
    expect(json(version).error).toMatchObject({
      code: 'UNSUPPORTED_SPEC_VERSION',
      details: { supported: ['2026-02'] },
    });
  });

  it('offline there is no key, hence no row limit: 50,001 rows are checked; --max-rows N refuses beyond N (LINE_LIMIT_EXCEEDED, exit 2)', () => {
    const holders = new Array(50_001).fill('{}').join(',');
    const file = tmpFile(
      'check/many.json',
      `{"type":"adf","declarant":"employer","declarations":[{"holders":[${holders}]}]}`,
    );
    const run = ppfile(['check', file, '--json']);
    // Checked, and invalid for what the rows lack: not refused for their number.
    expect(run.status).toBe(1);
    expect(json(run)).toMatchObject({ valid: false, rows_total: 50_001, rows_invalid: 50_001 });

    const limited = ppfile(['check', file, '--max-rows', '50000', '--json']);
    expect(limited.status).toBe(2);
    expect(json(limited).error).toMatchObject({
      code: 'LINE_LIMIT_EXCEEDED',
      message: 'The request holds more than 50000 rows, the limit given by --max-rows.',
      details: { limit: 50_000, rows: 50_001 },
    });
    const text = ppfile(['check', file, '--max-rows', '50000', '--lang', 'fr']);
    expect(text.status).toBe(2);
    expect(text.out).toBe('');
    expect(text.err).toBe(
      'LINE_LIMIT_EXCEEDED : La requête contient plus de 50000 lignes, la limite fixée par --max-rows.\n',
    );
    expect(ppfile(['check', file, '--max-rows', '50001']).status).toBe(1);
    for (const bad of ['0', '-3', '1e5', 'many']) {
      const refused = ppfile(['check', BODY_FILE, `--max-rows=${bad}`]);
      expect(refused.status).toBe(2);
      expect(refused.err).toBe('ppfile check: --max-rows expects a whole number of rows, at least 1\n');
    }
  });
});

// ---- the filing deadline of each declarant -----------------------------------------------------------------------

describe("FILING_DEADLINE_PASSED follows the declarant's timetable (API.md §4), for check and validate", () => {
  /** The fixture's body for `declarant`, its training ended (and its holders valid from) `end`. */
  const dated = (declarant: 'employer' | 'training_organization', end: string): string => {
    const b = JSON.parse(BODY_TEXT);
    b.declarant = declarant;
    Object.assign(b.declarations[0].training, { start_date: end, end_date: end });
    for (const h of b.declarations[0].holders) {
      h.validity_start = end;
      delete h.validity_end;
      // An employer file has no employer SIRET column to fill (API.md §3b).
      if (declarant === 'employer') delete h.employer_siret;
    }
    return tmpFile(`deadline/${declarant}-${end}.json`, JSON.stringify(b));
  };
  const check = (file: string, today: string, ...more: string[]) =>
    ppfile(['check', file, '--today', today, ...more]);

  it('check: an employer training ended in October 2025 has no deadline; a training organization one has 30/09/2026', () => {
    const employer = check(dated('employer', '2025-10-15'), TODAY, '--json');
    expect(employer.status).toBe(0);
    expect(json(employer)).toMatchObject({ valid: true, error_count: 0, warning_count: 0, warnings: [] });

    const of = check(dated('training_organization', '2025-10-15'), TODAY, '--json');
    expect(of.status).toBe(0);
    const response = json(of);
    expect(response).toMatchObject({ valid: true, error_count: 0, warning_count: 1 });
    expect(response.warnings).toEqual([
      {
        row: 2,
        column: 'DATE_FIN_FORMATION',
        field: 'declarations[0].training.end_date',
        code: 'FILING_DEADLINE_PASSED',
        message: 'The legal filing deadline of this declaration (30/09/2026) has passed.',
        details: { deadline: '30/09/2026' },
      },
    ]);
    const fr = check(dated('training_organization', '2025-10-15'), TODAY, '--json', '--lang', 'fr');
    expect(json(fr).warnings[0]).toMatchObject({
      message: 'La date limite légale de déclaration (30/09/2026) est dépassée.',
      details: { deadline: '30/09/2026' },
    });
  });

  it('check: an employer training ended 10/04/2026 has 9 months after its quarter (31/03/2027), not 6', () => {
    const file = dated('employer', '2026-04-10');
    expect(json(check(file, '2027-03-31', '--json')).warnings).toEqual([]);
    const late = check(file, '2027-04-01');
    expect(late.status).toBe(0);
    expect(late.out).toContain(
      'FILING_DEADLINE_PASSED — The legal filing deadline of this declaration (31/03/2027) has passed.',
    );
  });

  it('validate: an employer CSV gets the same answers as its JSON body', () => {
    const csvOf = (body: string, name: string): string => {
      const out = path.join(tmp, 'deadline', name);
      const generated = ppfile(['generate', body, '-o', out, '--today', TODAY]);
      expect(generated.status).toBe(0);
      return out;
    };
    const october = csvOf(dated('employer', '2025-10-15'), 'employer-2025-10.csv');
    const april = csvOf(dated('employer', '2026-04-10'), 'employer-2026-04.csv');
    const validate = (file: string, today: string) =>
      json(ppfile([...validateArgs(file, 'adf', 'employer').slice(0, -1), today, '--json']));
    expect(validate(october, TODAY).warnings).toEqual([]);
    expect(validate(october, '2030-01-01').warnings).toEqual([]);
    expect(validate(april, '2027-03-31').warnings).toEqual([]);
    expect(validate(april, '2027-04-01').warnings).toEqual([
      {
        row: 2,
        column: 'DATE_FIN_FORMATION',
        code: 'FILING_DEADLINE_PASSED',
        message: 'The legal filing deadline of this declaration (31/03/2027) has passed.',
        details: { deadline: '31/03/2027' },
      },
    ]);
  });
});

// ---- ppfile generate ------------------------------------------------------------------------------------------

describe('ppfile generate', () => {
  const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');

  it('-o writes exactly the expected bytes; nothing on stdout, the summary on stderr', () => {
    const out = path.join(tmp, 'generated', 'out.csv');
    mkdirSync(path.dirname(out), { recursive: true });
    const run = ppfile(['generate', BODY_FILE, '-o', out, '--today', TODAY], {}, undefined, { spawn: true });
    expect(run.status).toBe(0);
    expect(run.out).toBe('');
    expect(readFileSync(out).equals(CSV_BYTES)).toBe(true);
    expect(run.err).toContain(
      `${out}: 2 row(s), 1 declaration(s), sha256 ${sha(CSV_BYTES)}, suggested name ppfile_adf_`,
    );
  });

  it('without -o the CSV goes to stdout byte for byte, and nothing else does', () => {
    const run = ppfile(['generate', BODY_FILE, '--today', TODAY], {}, undefined, { spawn: true });
    expect(run.status).toBe(0);
    expect(run.stdout.equals(CSV_BYTES)).toBe(true);
    expect(run.err).toMatch(
      /^stdout: 2 row\(s\), 1 declaration\(s\), sha256 [0-9a-f]{64}, suggested name ppfile_adf_\d{8}_[0-9a-f]{8}\.csv\n/,
    );
  });

  it('--json prints the generate response with content, stored: false and a file id', () => {
    const run = ppfile(['generate', BODY_FILE, '--today', TODAY, '--json']);
    expect(run.status).toBe(0);
    expect(run.err).toBe('');
    const response = json(run);
    expect(response).toEqual({
      success: true,
      file_id: expect.stringMatching(/^file_[0-9a-f]{32}$/),
      mode: expect.stringMatching(/^(live|test)$/),
      spec_version: '2026-02',
      rows: 2,
      declarations: 1,
      filename: expect.stringMatching(/^ppfile_adf_\d{8}_[0-9a-f]{8}\.csv$/),
      sha256: sha(CSV_BYTES),
      stored: false,
      expires_at: null,
      download_url: null,
      warning_count: 0,
      warnings: [],
      normalization_count: 8,
      normalizations: [
        {
          field: 'declarations[0].training.start_date',
          column: 'DATE_DEBUT_FORMATION',
          rule: 'DATE_REFORMATTED',
        },
        {
          field: 'declarations[0].training.delivery_mode',
          column: 'MODALITE_DISPENSE',
          rule: 'ENUM_UPPERCASED',
        },
        {
          field: 'declarations[0].training.nsf_codes[0]',
          column: 'SPECIALITE_FORMATION',
          rule: 'CODE_NORMALIZED',
        },
        { field: 'declarations[0].holders[0].nir', column: 'NIR', rule: 'SEPARATORS_REMOVED' },
        { field: 'declarations[0].holders[0].nir', column: 'NIR', rule: 'NIR_KEY_REMOVED' },
        {
          field: 'declarations[0].holders[0].employer_siret',
          column: 'SIRET_EMPLOYEUR',
          rule: 'SEPARATORS_REMOVED',
        },
        {
          field: 'declarations[0].holders[0].validity_start',
          column: 'DATE_DEBUT_VALIDITE',
          rule: 'DATE_REFORMATTED',
        },
        {
          field: 'declarations[0].holders[0].validity_end',
          column: 'DATE_FIN_VALIDITE',
          rule: 'DATE_REFORMATTED',
        },
      ],
      content: CSV_BYTES.toString('utf8'),
    });
    // Two runs: two file ids.
    expect(json(ppfile(['generate', BODY_FILE, '--today', TODAY, '--json'])).file_id).not.toBe(
      response.file_id,
    );
  });

  it('-o into a directory that does not exist → exit 2 (I/O error), nothing on stdout', () => {
    const run = ppfile(
      ['generate', BODY_FILE, '-o', path.join(tmp, 'no-such-dir', 'out.csv'), '--today', TODAY],
      {},
      undefined,
      { spawn: true },
    );
    expect(run.status).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toContain('cannot write');
  });

  it('an invalid body → exit 1, no file; --json prints the 422 body VALIDATION_FAILED', () => {
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].training.end_date = '2026-11-15';
    const file = tmpFile('generate/invalid.json', JSON.stringify(b));
    const out = path.join(tmp, 'generate', 'never.csv');

    const text = ppfile(['generate', file, '-o', out, '--today', TODAY]);
    expect(text.status).toBe(1);
    expect(text.out).toBe('');
    expect(text.err).toContain(
      'VALIDATION_FAILED: No file was produced: 2 rows are invalid (see details.errors).',
    );
    expect(existsSync(out)).toBe(false);

    const run = ppfile(['generate', file, '-o', out, '--today', TODAY, '--json']);
    expect(run.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    const error = json(run);
    expect(error).toEqual({
      error: {
        code: 'VALIDATION_FAILED',
        message: 'No file was produced: 2 rows are invalid (see details.errors).',
        details: expect.objectContaining({
          valid: false,
          rows_total: 2,
          rows_valid: 0,
          rows_invalid: 2,
          error_count: 1,
          truncated: false,
          warnings: [],
        }),
        request_id: expect.stringMatching(/^req_[0-9a-f]+$/),
      },
    });
    expect(error.error.details.errors).toEqual([
      {
        row: 2,
        column: 'DATE_FIN_FORMATION',
        field: 'declarations[0].training.end_date',
        code: 'END_BEFORE_START',
        message: 'DATE_FIN_FORMATION is before DATE_DEBUT_FORMATION.',
      },
    ]);
  });
});

// ---- ppfile refdata import ---------------------------------------------------------------------------------------

describe('ppfile refdata import, then PPFILE_REFERENCE_DATA', () => {
  const unknownRome = { ...OF_ROW, COMPETENCE_TRANSFERABLE: '115650/121885/999999' };
  let csv = '';
  let bodyFile = '';
  let partialDir = '';

  beforeAll(() => {
    importedDir = path.join(tmp, 'imported-reference-data');
    partialDir = path.join(tmp, 'partial-reference-data');
    // Two declarations with the same unknown code: an error on each row; REFERENCE_NOT_VERIFIED comes
    // once per code (API.md §3c).
    csv = tmpFile(
      'refdata/unknown-rome.csv',
      csvText(ADF_HEADER, [
        unknownRome,
        { ...unknownRome, ID_DECLARATION: 'OTHER', ID_UNIQUE_PARTENAIRE: 'OTHER-1' },
      ]),
    );
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].transferable_skills = ['115650', '121885', '999999'];
    bodyFile = tmpFile('refdata/unknown-rome.json', JSON.stringify(b));
  });

  it('with the shipped lists (ROME complete) an unknown 6-digit ROME code is INVALID_ROME_CODE (exit 1), for validate and check', () => {
    const run = ppfile([...validateArgs(csv), '--json']);
    expect(run.status).toBe(1);
    const body = json(run);
    expect(bare(body.errors)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
      { row: 3, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
    ]);
    expect(body.errors[0].message).toBe(
      'COMPETENCE_TRANSFERABLE: a code is absent from the ROME reference list.',
    );
    expect(body.warnings).toEqual([]);

    const check = ppfile(['check', bodyFile, '--today', TODAY, '--json']);
    expect(check.status).toBe(1);
    expect(bare(json(check).errors)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills[2]',
        code: 'INVALID_ROME_CODE',
      },
    ]);
  });

  it('--no-strict-references turns it into a warning (exit 0)', () => {
    const run = ppfile([...validateArgs(csv), '--no-strict-references', '--json']);
    expect(run.status).toBe(0);
    const body = json(run);
    expect(body).toMatchObject({ valid: true, error_count: 0, warning_count: 2 });
    expect(bare(body.warnings)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
      { row: 3, column: 'COMPETENCE_TRANSFERABLE', code: 'INVALID_ROME_CODE' },
    ]);
  });

  it('imports France Travail’s ROME file as published into a new directory (complete list), exit 0', () => {
    const run = ppfile(['refdata', 'import', '--list', 'rome', ROME_EXCERPT, '--dir', importedDir]);
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toMatch(
      /^Imported 8 rome code\(s\) into .*rome\.tsv \(complete; source unix_referentiel_competence_v460_utf8\.csv, version v460; 0 row\(s\) skipped\)\n$/,
    );
    const manifest = JSON.parse(readFileSync(path.join(importedDir, '2026-02', 'manifest.json'), 'utf8'));
    expect(manifest.lists.rome).toMatchObject({ count: 8, complete: true, version: 'v460' });
    // The other lists are copied from the shipped ones.
    expect(manifest.lists.formacode).toMatchObject({ count: 2775, complete: true });
    for (const list of ['nsf', 'rs']) expect(manifest.lists[list].complete).toBe(false);
  });

  it('PPFILE_REFERENCE_DATA switches to it: 400635 is in the shipped list, not in the imported one', () => {
    const env = { PPFILE_REFERENCE_DATA: importedDir };
    // The excerpt holds 115650, 121885 and 400635, so the fixture stays valid; 114955 is only shipped.
    expect(ppfile(validateArgs(CSV_FILE), env).status).toBe(0);
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].transferable_skills = ['115650', '121885', '114955'];
    const file = tmpFile('refdata/shipped-only.json', JSON.stringify(b));
    expect(ppfile(['check', file, '--today', TODAY]).status).toBe(0);
    const run = ppfile(['check', file, '--today', TODAY, '--json'], env);
    expect(run.status).toBe(1);
    expect(bare(json(run).errors)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills[2]',
        code: 'INVALID_ROME_CODE',
      },
    ]);
  });

  it('imported with --partial, an unknown 6-digit ROME code is only REFERENCE_NOT_VERIFIED (exit 0), once per code', () => {
    const imported = ppfile([
      'refdata',
      'import',
      '--list',
      'rome',
      ROME_EXCERPT,
      '--dir',
      partialDir,
      '--partial',
      '--json',
    ]);
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.out)).toMatchObject({ list: 'rome', count: 8, complete: false });
    const env = { PPFILE_REFERENCE_DATA: partialDir };
    const run = ppfile([...validateArgs(csv), '--json'], env);
    expect(run.status).toBe(0);
    const body = json(run);
    expect(body.errors).toEqual([]);
    expect(bare(body.warnings)).toEqual([
      { row: 2, column: 'COMPETENCE_TRANSFERABLE', code: 'REFERENCE_NOT_VERIFIED' },
    ]);
    const check = ppfile(['check', bodyFile, '--today', TODAY, '--json'], env);
    expect(check.status).toBe(0);
    expect(bare(json(check).warnings)).toEqual([
      {
        row: 2,
        column: 'COMPETENCE_TRANSFERABLE',
        field: 'declarations[0].transferable_skills[2]',
        code: 'REFERENCE_NOT_VERIFIED',
      },
    ]);
  });

  it('reads a list file only when the file needs it: a broken rs.tsv changes nothing for a file without RS codes; one with an RS code exits 2 naming it', () => {
    const dir = path.join(tmp, 'broken-rs-reference-data');
    cpSync(path.join(shippedReferenceDir('2026-02'), '2026-02'), path.join(dir, '2026-02'), {
      recursive: true,
    });
    const rsFile = path.join(dir, '2026-02', 'rs.tsv');
    const lines = readFileSync(rsFile, 'utf8').split('\n');
    lines[1] = 'not a code\tat all'; // still as many lines as the manifest says
    writeFileSync(rsFile, lines.join('\n'));
    const env = { PPFILE_REFERENCE_DATA: dir };

    const shippedRun = ppfile([...validateArgs(CSV_FILE), '--json']);
    const run = ppfile([...validateArgs(CSV_FILE), '--json'], env);
    expect(shippedRun.status).toBe(0);
    expect([run.status, run.err, run.out]).toEqual([0, '', shippedRun.out]);

    const certifying = tmpFile(
      'refdata/certifying.csv',
      csvText(ADF_HEADER, [{ ...OF_ROW, FORMATION_CERTIFIANTE: 'OUI', CERTIFICATION_VISEE: 'RS5635' }]),
    );
    // With the shipped lists: an answer (exit 0 or 1), in which RS5635 is known.
    const answered = ppfile([...validateArgs(certifying), '--json']);
    expect(answered.status).toBeLessThan(2);
    expect(answered.out).not.toMatch(/INVALID_RS_CODE|REFERENCE_NOT_VERIFIED/);
    const refused = ppfile(validateArgs(certifying), env);
    expect(refused.status).toBe(2);
    expect(refused.out).toBe('');
    expect(refused.err).toBe(
      `ppfile validate: malformed rs reference list ${rsFile}, line 2: expected "code<TAB>label" with a code matching /^RS\\d{1,7}$/\n`,
    );
  });

  it('a missing export or an unknown list → exit 2', () => {
    expect(
      ppfile([
        'refdata',
        'import',
        '--list',
        'rome',
        path.join(tmp, 'nope.csv'),
        '--dir',
        path.join(tmp, 'other'),
      ]).status,
    ).toBe(2);
    expect(
      ppfile(['refdata', 'import', '--list', 'naf', ROME_EXCERPT, '--dir', path.join(tmp, 'other')]).status,
    ).toBe(2);
    expect(
      ppfile(['validate', CSV_FILE, '--type', 'adf', '--declarant', 'employer'], {
        PPFILE_REFERENCE_DATA: path.join(tmp, 'no-such-dir'),
      }).status,
    ).toBe(2);
  });

  // How the shipped complete lists were made (reference-data/README.md): the same command over the
  // complete official exports gives the shipped files byte for byte.
  withOfficialExports(`from the complete official exports ${NEEDS_OFFICIAL_EXPORTS}`, () => {
    const shipped = (name: string) =>
      readFileSync(path.join(shippedReferenceDir('2026-02'), '2026-02', `${name}.tsv`), 'utf8');

    it.each([
      ['rome', 'rome/unix_referentiel_competence_v460_utf8.csv', 18317],
      ['formacode', 'formacode/formacodes-v14.csv', 2775],
    ] as const)(
      '`ppfile refdata import --list %s %s` gives the shipped list (%d codes)',
      (list, relative, count) => {
        const dir = path.join(tmp, `official-${list}`);
        const run = ppfile([
          'refdata',
          'import',
          '--list',
          list,
          officialExport(relative),
          '--dir',
          dir,
          '--json',
        ]);
        expect(run.err).toBe('');
        expect(run.status).toBe(0);
        expect(JSON.parse(run.out)).toMatchObject({ list, count, skipped: 0, complete: true });
        expect(readFileSync(path.join(dir, '2026-02', `${list}.tsv`), 'utf8')).toBe(shipped(list));
      },
    );
  });
});

// ---- personal data never printed --------------------------------------------------------------------------------------

describe('no NIR and no birth name from an invalid input is ever printed (API.md §4 messages)', () => {
  const NAMES = ['ZÉPHYRINE', 'QUASIMODO-LEAKCHECK', 'BARTHÉLÉMY-DE-LA-TOUR-DU-PIN-XY', 'O|BRIEN'];
  const NIRS = ['2991131555104', '299113155510400', '9550814168025', '7550814168025', '1680644109087'];
  const SECRETS = [
    ...NAMES,
    'O|BRIEN'.split('|')[1]!,
    'BARTHÉLÉMY',
    ...NIRS,
    '29911315551',
    '2 99 11 31 555 104 00',
    '95508141680',
  ];

  const expectNoSecret = (run: Run, where: string) => {
    for (const secret of SECRETS) {
      expect({ where, stream: 'stdout', found: run.out.includes(secret) ? secret : null }).toEqual({
        where,
        stream: 'stdout',
        found: null,
      });
      expect({ where, stream: 'stderr', found: run.err.includes(secret) ? secret : null }).toEqual({
        where,
        stream: 'stderr',
        found: null,
      });
    }
  };

  it('validate (text, --json, --lang fr)', () => {
    const row = (n: number, cells: Cells): Cells => ({
      ...OF_ROW,
      ID_DECLARATION: 'LEAK',
      ID_UNIQUE_PARTENAIRE: `L${n}`,
      ...cells,
    });
    const file = tmpFile(
      'leak/leak.csv',
      csvText(ADF_HEADER, [
        row(1, { NIR: '299113155510400', NOM_TITULAIRE: 'ZÉPHYRINE' }),
        row(2, { NIR: '9550814168025', NOM_TITULAIRE: 'BARTHÉLÉMY-DE-LA-TOUR-DU-PIN-XY' }),
        row(3, { NIR: '7550814168025', NOM_TITULAIRE: '=QUASIMODO-LEAKCHECK' }),
        row(4, { NIR: '7550814168025', NOM_TITULAIRE: 'QUASIMODO-LEAKCHECK' }),
        row(5, { NIR: '1680644109087', NOM_TITULAIRE: 'O', PRESENCE_EMPLOYEUR: 'BRIEN' }),
      ]),
    );
    for (const extra of [[], ['--json'], ['--lang', 'fr'], ['--lang', 'fr', '--json']]) {
      const run = ppfile([...validateArgs(file), ...extra]);
      expect(run.status).toBe(1);
      if (extra.includes('--json')) {
        const codes = new Set(
          [...json(run).errors, ...json(run).warnings].map((i: { code: string }) => i.code),
        );
        expect([...codes].sort()).toEqual([
          'DUPLICATE_HOLDER',
          'FIELD_TOO_LONG',
          'FORMULA_NOT_ALLOWED',
          'INVALID_NIR',
          'INVALID_VALUE',
          'NIR_PROVISIONAL',
        ]);
      }
      expectNoSecret(run, `validate ${extra.join(' ')}`);
    }
  });

  const leakyBody = () => {
    const b = JSON.parse(BODY_TEXT);
    const holders = b.declarations[0].holders;
    holders[0].nir = '2 99 11 31 555 104 00'; // wrong key
    holders[0].birth_name = 'O|BRIEN';
    holders[1].nir = '9550814168025';
    holders[1].birth_name = 'BARTHÉLÉMY-DE-LA-TOUR-DU-PIN-XYZ';
    holders.push(
      {
        unique_id: 'L3',
        nir: '7550814168025',
        birth_name: '=QUASIMODO-LEAKCHECK',
        validity_start: '2026-11-17',
      },
      { unique_id: 'L4', nir: '7550814168025', birth_name: 'ZÉPHYRINE', validity_start: '2026-11-17' },
    );
    return b;
  };

  it('check and generate of an invalid body (text, --json, --lang fr)', () => {
    const file = tmpFile('leak/leak.json', JSON.stringify(leakyBody()));
    for (const command of ['check', 'generate']) {
      for (const extra of [[], ['--json'], ['--lang', 'fr'], ['--lang', 'fr', '--json']]) {
        const run = ppfile([command, file, '--today', TODAY, ...extra]);
        expect(run.status).toBe(1);
        expectNoSecret(run, `${command} ${extra.join(' ')}`);
      }
    }
  });

  it('a structure error (INVALID_REQUEST) or unreadable JSON does not echo the values either', () => {
    const b = leakyBody();
    b.declarations[0].holders[0].first_name = 'ZÉPHYRINE';
    b.declarations[0].holders[1].nir = 2991131555104;
    for (const [name, text] of [
      ['structure.json', JSON.stringify(b)],
      ['unreadable.json', JSON.stringify(b).replace('"ZÉPHYRINE"', 'ZÉPHYRINE')],
    ] as const) {
      for (const extra of [[], ['--json']]) {
        const run = ppfile(['check', tmpFile(`leak/${name}`, text), ...extra]);
        expect(run.status).toBe(2);
        expectNoSecret(run, `check ${name} ${extra.join(' ')}`);
      }
    }
  });

  it('a valid generation prints NIRs and names only inside the CSV content', () => {
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].holders[0].birth_name = 'ZÉPHYRINE';
    b.declarations[0].holders[1].nir = '7550814168025';
    const file = tmpFile('leak/valid.json', JSON.stringify(b));
    const csv = ppfile(['generate', file, '--today', TODAY]);
    expect(csv.status).toBe(0);
    expect(csv.out).toContain('|ZÉPHYRINE|');
    expect(csv.out).toContain('|7550814168025|');
    expectNoSecret({ ...csv, out: '' }, 'generate (stderr)');
    const run = ppfile(['generate', file, '--today', TODAY, '--json']);
    expect(run.status).toBe(0);
    const { content, ...rest } = json(run);
    expect(content).toContain('|ZÉPHYRINE|');
    expectNoSecret({ ...run, out: JSON.stringify(rest) }, 'generate --json (outside content)');
  });
});

// ---- the command line's habits: version, help, pipes, standard input, any size, lists, French ------------------

const PACKAGE_VERSION = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
/** Carriage return, then "erase to the end of the line": how a progress line replaces the previous one. */
const CLEAR_LINE = '\r\u001b[K';
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const nodeBin = `${q(process.execPath)} ${q(BIN)}`;

/** A shell pipeline with pipefail, so that ppfile's own status is the pipeline's. */
function shell(command: string): Run {
  const r = spawnSync('bash', ['-o', 'pipefail', '-c', command], { cwd: ROOT, timeout: 60_000 });
  if (r.error) throw r.error;
  return {
    status: r.status,
    stdout: r.stdout,
    out: r.stdout.toString('utf8'),
    err: r.stderr.toString('utf8'),
  };
}

/** The fixture's body with `declarations` copies of its declaration, each with `holders(d)` holders. */
function bigBody(declarations: number, holders: (d: number) => Record<string, string>[]): string {
  const b = JSON.parse(BODY_TEXT);
  const model = b.declarations[0];
  b.declarations = Array.from({ length: declarations }, (_, d) => ({
    ...model,
    id: `BIG-${d}`,
    holders: holders(d),
  }));
  return JSON.stringify(b);
}

/** A NIR valid for the rules, distinct for i < 999 (the first one of an existing fixture, renumbered). */
const nir = (i: number) =>
  `18505780${String(Math.floor(i / 999)).padStart(2, '0')}${String((i % 999) + 1).padStart(3, '0')}`;

/** 3,000 holders, each with a provisional NIR written with spaces: > 1,000 warnings and normalizations. */
const NOISY_BODY = () =>
  bigBody(6, (d) =>
    Array.from({ length: 500 }, (_, i) => ({
      unique_id: `N-${d}-${i}`,
      nir: '7 55 08 14 168 025',
      birth_name: 'MARTIN',
      validity_start: '2026-11-17',
    })),
  );

/** Every command and group, as `--help` must describe it. */
const LEAVES: Record<string, string[]> = {
  validate: [
    '--type',
    '--declarant',
    '--no-strict-references',
    '--filename',
    '--max-rows',
    '--spec-version',
    '--today',
  ],
  check: ['--max-rows', '--today'],
  generate: ['-o, --output', '--max-rows', '--today'],
  'refdata import': ['--list', '--dir', '--partial', '--spec-version'],
  'admin org create': ['--name', '--plan'],
  'admin org list': [],
  'admin key create': ['--org', '--mode', '--name'],
  'admin key list': ['--org'],
  'admin key revoke': [],
  'admin user create': ['--org', '--email'],
  'admin usage': ['--org', '--month'],
  'admin reconcile': ['--check'],
  'admin queue drain-legacy': [],
  'admin db migrate': [],
};
const GROUPS = ['refdata', 'admin', 'admin org', 'admin key', 'admin user', 'admin queue', 'admin db'];

describe('ppfile admin queue drain-legacy', () => {
  it('moves the generations left in the one queue of earlier versions to `generate` (once), drops the rest, removes its scheduler and keys', async () => {
    const redisUrl = process.env.REDIS_URL || 'redis://127.0.0.1:6379';
    const url = new URL(redisUrl);
    const connection = { host: url.hostname, port: Number(url.port || 6379) };
    const prefix = `ppfile_cli_${randomBytes(4).toString('hex')}`;
    const env = { REDIS_URL: redisUrl, QUEUE_PREFIX: prefix };
    const legacy = new Queue('ppfile', { connection, prefix });
    const generate = new Queue('generate', { connection, prefix });
    const fileId = 'file_0000000000000000000000000000abcd';
    try {
      await legacy.add('generate', { fileId, requestId: 'req_legacy' }, { jobId: fileId });
      await legacy.add('validate-file', { payloadKey: 'gone' }, { jobId: 'validate-x' });
      await legacy.upsertJobScheduler('sweep', { every: 60_000 }, { name: 'sweep', data: {} });
      const run = ppfile(['admin', 'queue', 'drain-legacy'], env);
      expect(run.err).toBe('');
      expect(run.status).toBe(0);
      // Dropped: the upload validation and the sweep its scheduler had already queued.
      expect(run.out).toBe(
        'queue "ppfile" drained: 1 generation(s) moved to "generate", 2 other job(s) dropped, 1 scheduler(s) removed\n',
      );
      const moved = await generate.getJob(fileId);
      expect(moved?.name).toBe('generate');
      expect(moved?.data).toEqual({ fileId, requestId: 'req_legacy' });
      // As every generation is added (libs/jobs generateJobOptions): its retries and backoff.
      expect(moved?.opts).toMatchObject({ attempts: 10, backoff: { type: 'ppfile' } });
      const redis = new Redis(redisUrl);
      try {
        expect(await redis.keys(`${prefix}:ppfile:*`)).toEqual([]);
      } finally {
        redis.disconnect();
      }
      // Again: nothing left, nothing moved twice.
      const again = ppfile(['admin', 'queue', 'drain-legacy', '--json'], env);
      expect(again.status).toBe(0);
      expect(JSON.parse(again.out)).toEqual({ moved: 0, dropped: 0, schedulers: 0 });
      expect(await generate.getJobCounts('waiting')).toEqual({ waiting: 1 });
    } finally {
      await generate.obliterate({ force: true });
      await legacy.obliterate({ force: true });
      await Promise.all([generate.close(), legacy.close()]);
    }
  });

  it('says so in one line when Redis cannot be reached (exit 2)', () => {
    const run = ppfile(['admin', 'queue', 'drain-legacy'], { REDIS_URL: 'redis://u:secret@127.0.0.1:1' });
    expect(run.status).toBe(2);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      'ppfile admin queue drain-legacy: cannot reach Redis at redis://u:***@127.0.0.1:1 (is it running? check REDIS_URL)\n',
    );
  });
});

describe('ppfile --version and --help', () => {
  it.each([['--version'], ['-V']])('`ppfile %s` prints the version of package.json, exit 0', (flag) => {
    const run = ppfile([flag]);
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toBe(`ppfile ${PACKAGE_VERSION}\n`);
  });

  it('the top-level help lists every command, admin reconcile and the list commands included', () => {
    const run = ppfile(['--help']);
    expect(run.status).toBe(0);
    for (const command of Object.keys(LEAVES)) expect(run.out).toContain(`\n  ppfile ${command} `);
    expect(run.out).toContain('ppfile admin reconcile --check');
    expect(run.out).toContain('ppfile admin key list --org ID');
    expect(ppfile(['-h']).out).toBe(run.out);
    expect(ppfile(['help']).out).toBe(run.out);
  });

  describe.each(Object.entries(LEAVES))('`ppfile %s --help`', (command, options) => {
    const words = command.split(' ');
    it('prints its usage, its options and -h, --help on stdout, exit 0; -h and `ppfile help …` too', () => {
      const run = ppfile([...words, '--help']);
      expect(run.err).toBe('');
      expect(run.status).toBe(0);
      expect(run.out.startsWith(`usage: ppfile ${command}`)).toBe(true);
      const listed = [...run.out.matchAll(/^ {2}(-\w, )?--[\w-]+/gm)].map((m) => m[0].trim());
      expect(listed).toEqual([...options, '--lang', '--json', '-h, --help']);
      expect(ppfile([...words, '-h']).out).toBe(run.out);
      expect(ppfile(['help', ...words]).out).toBe(run.out);
      // --help wins over anything else on the line, even a mistake.
      expect(ppfile([...words, '--bogus', '--help']).status).toBe(0);
    });

    it('accepts every option its help lists (the help and the parser read one table)', () => {
      const run = ppfile([...words, '--help']);
      const args = [...words];
      if (command === 'validate' || command === 'refdata import') args.push(path.join(tmp, 'nope.csv'));
      if (command === 'check' || command === 'generate') args.push(path.join(tmp, 'nope.json'));
      if (command === 'admin key revoke') args.push('key_000000000000000000000000');
      for (const m of run.out.matchAll(/^ {2}(?:-\w, )?(--[\w-]+)( \S+)?$/gm)) {
        if (m[1] === '--help') continue;
        args.push(m[1]!);
        if (m[2]) args.push(m[1] === '--lang' ? 'en' : 'x');
      }
      const r = ppfile(args, {
        DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/ppfile',
        REDIS_URL: 'redis://127.0.0.1:1',
      });
      expect(r.status).toBe(2);
      expect(r.err).not.toMatch(/unknown option|needs a value|takes no value/);
      expect(r.err.trim().split('\n')).toHaveLength(1);
    });
  });

  it.each(GROUPS)(
    '`ppfile %s --help` lists its commands on stdout (exit 0); alone, on stderr (exit 2)',
    (group) => {
      const words = group.split(' ');
      const run = ppfile([...words, '--help']);
      expect(run.err).toBe('');
      expect(run.status).toBe(0);
      expect(run.out.startsWith(`usage:\n  ppfile ${group} `)).toBe(true);
      const commands = Object.keys(LEAVES).filter((c) => c.startsWith(`${group} `));
      expect(commands.length).toBeGreaterThan(0);
      for (const c of commands) expect(run.out).toContain(`\n  ppfile ${c} `);
      expect(run.out).toContain(`\`ppfile ${group} COMMAND --help\` describes a command.`);
      expect(ppfile([...words, '-h']).out).toBe(run.out);
      const alone = ppfile(words);
      expect(alone.status).toBe(2);
      expect(alone.out).toBe('');
      expect(alone.err).toBe(run.out);
    },
  );

  it('--lang fr: the help in French', () => {
    const run = ppfile(['check', '--help', '--lang', 'fr']);
    expect(run.status).toBe(0);
    expect(run.out).toMatch(/^utilisation : ppfile check BODY\.json /);
    expect(run.out).toContain('Vérifie un corps de requête JSON comme POST /v1/declarations/validate.');
    expect(run.out).toContain('  -h, --help');
    expect(run.out).toContain('affiche cette aide');
    expect(ppfile(['--help', '--lang', 'fr']).out).toContain('`ppfile COMMANDE --help` décrit une commande.');
  });

  it('refusals of the command line: one line in the caller’s language, exit 2, nothing on stdout', () => {
    const cases: [string[], string][] = [
      [['check'], 'ppfile check: expected exactly one BODY.json\n'],
      [['check', BODY_FILE, 'extra.json'], 'ppfile check: unexpected argument "extra.json"\n'],
      [['check', BODY_FILE, '--today'], 'ppfile check: --today needs a value (--today YYYY-MM-DD)\n'],
      [
        ['check', BODY_FILE, '--today', '--json'],
        'ppfile check: --today needs a value (--today YYYY-MM-DD)\n',
      ],
      [['check', BODY_FILE, '--json=yes'], 'ppfile check: --json takes no value\n'],
      [['check', BODY_FILE, '--lang', 'de'], 'ppfile check: --lang expects en or fr\n'],
      [['refdata', 'import', '--list', 'rome'], 'ppfile refdata import: expected at least one FILE\n'],
      [['admin', 'org', 'list', 'all'], 'ppfile admin org list: unexpected argument "all"\n'],
      [['check', BODY_FILE, '-x', '--lang', 'fr'], 'ppfile check : option inconnue -x\n'],
      [
        ['validate', CSV_FILE, '--type', 'adf', '--lang', 'fr'],
        'ppfile validate : --declarant attend employer | training_organization\n',
      ],
    ];
    for (const [args, err] of cases) {
      const run = ppfile(args);
      expect({ args, status: run.status, out: run.out, err: run.err }).toEqual({
        args,
        status: 2,
        out: '',
        err,
      });
    }
    const unknown = ppfile(['--bogus']);
    expect(unknown.status).toBe(2);
    expect(unknown.err.split('\n')[0]).toBe('ppfile: unknown option --bogus');
    const frob = ppfile(['admin', 'org', 'frob']);
    expect(frob.status).toBe(2);
    expect(frob.err.split('\n')[0]).toBe('ppfile: unknown command "admin org frob"');
  });

  it('`--version` and `--help` load no command: neither the rules nor the database code (fast start)', () => {
    const main = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
    const probe = spawnSync(
      process.execPath,
      [
        '-e',
        `const { run } = require(${JSON.stringify(main)});
         const quiet = { out() {}, err() {}, progress() {} };
         for (const argv of [['--version'], ['--help'], ['validate', '--help'], ['admin', 'key', 'list', '-h'], ['admin']])
           run(argv, quiet);
         process.stdout.write(JSON.stringify(Object.keys(require.cache).map((f) => require('node:path').relative(${JSON.stringify(ROOT)}, f))));`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(probe.status).toBe(0);
    const loaded = JSON.parse(probe.stdout) as string[];
    expect(loaded.filter((f) => /node_modules|libs[\\/]/.test(f))).toEqual([]);
    expect(loaded.length).toBeLessThanOrEqual(6);
  });
});

describe('a reader that stops early (closed pipe)', () => {
  let body = '';
  beforeAll(() => {
    body = tmpFile('pipe/big.json', NOISY_BODY());
  });

  it('`ppfile check big.json | head -1`: the first line, exit 0, no EPIPE stack trace', () => {
    const full = ppfile(['check', body, '--today', TODAY]);
    expect(full.status).toBe(0);
    // Far more than a pipe holds (64 KiB), so the reader does close it while ppfile writes.
    expect(full.stdout.length).toBeGreaterThan(200_000);
    const run = shell(`${nodeBin} check ${q(body)} --today ${TODAY} | head -1`);
    expect(run.err).toBe('');
    expect(run.out).toBe(`${body}: valid\n`);
    expect(run.status).toBe(0);
  });

  it('the CSV of generate on stdout, and its summary on stderr, cut short: exit 0, nothing else', () => {
    const csv = shell(`${nodeBin} generate ${q(body)} --today ${TODAY} 2>/dev/null | head -1`);
    expect(csv.out).toBe(`${CSV_LINES[0]}\r\n`);
    expect(csv.status).toBe(0);
    const out = path.join(tmp, 'pipe', 'out.csv');
    const summary = shell(
      `${nodeBin} generate ${q(body)} -o ${q(out)} --today ${TODAY} 2>&1 >/dev/null | head -1`,
    );
    expect(summary.out).toMatch(/^.*out\.csv: 3000 row\(s\), 6 declaration\(s\), sha256 /);
    expect(summary.err).toBe('');
    expect(summary.status).toBe(0);
    // The verdict does not depend on the reader: an invalid body still exits 1.
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].training.end_date = '2026-11-15';
    const invalid = tmpFile('pipe/invalid.json', JSON.stringify(b));
    expect(shell(`${nodeBin} check ${q(invalid)} --today ${TODAY} | head -1`).status).toBe(1);
  });
});

describe('`-` reads standard input, for validate as for check and generate', () => {
  it('validate - gives the answer of the file itself; the file-name check needs --filename', () => {
    const fromFile = json(ppfile([...validateArgs(CSV_FILE), '--json']));
    const run = ppfile([...validateArgs('-'), '--json'], {}, CSV_BYTES);
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(json(run)).toEqual(fromFile);
    const text = ppfile(validateArgs('-'), {}, CSV_BYTES);
    expect(text.out.split('\n')[0]).toBe('stdin: valid');
    expect(ppfile([...validateArgs('-'), '--lang', 'fr'], {}, CSV_BYTES).out.split('\n')[0]).toBe(
      'entrée standard : valide',
    );
    const named = ppfile([...validateArgs('-'), '--filename', 'export 100%.csv', '--json'], {}, CSV_BYTES);
    expect(named.status).toBe(1);
    expect(bare(json(named).errors)).toEqual([{ row: null, column: null, code: 'INVALID_FILENAME' }]);
    const fr = ppfile(
      [...validateArgs('-'), '--filename', 'sst-novembre.csv', '--lang', 'fr'],
      {},
      CSV_BYTES,
    );
    expect(fr.out.split('\n')[0]).toBe('sst-novembre.csv : valide');
  });

  it('check - and generate - read the body there', () => {
    const check = ppfile(['check', '-', '--today', TODAY, '--json'], {}, BODY_TEXT);
    expect(check.status).toBe(0);
    expect(json(check)).toMatchObject({ valid: true, rows_total: 2 });
    const generate = ppfile(['generate', '-', '--today', TODAY], {}, BODY_TEXT);
    expect(generate.status).toBe(0);
    expect(generate.stdout.equals(CSV_BYTES)).toBe(true);
  });
});

describe('files of any size offline: no key, no row limit (--max-rows N if wanted)', () => {
  const ROWS = 250_000;
  let big = '';
  beforeAll(() => {
    // 500 holders a declaration (the portal's maximum), distinct ids and NIRs: 250,000 valid rows, 60 MB.
    const cells = CSV_LINES[1]!.split('|');
    const at = (name: string) => ADF_HEADER.indexOf(name);
    const lines = [CSV_LINES[0]!];
    for (let i = 0; i < ROWS; i++) {
      const row = [...cells];
      row[at('ID_DECLARATION')] = `D${Math.floor(i / 500)}`;
      row[at('ID_UNIQUE_PARTENAIRE')] = `U${i}`;
      row[at('NIR')] = nir(i % 500);
      lines.push(row.join('|'));
    }
    big = tmpFile('size/big.csv', `${lines.join('\r\n')}\r\n`);
  });

  it('validate: 250,000 rows, valid, exactly counted; nothing on stderr when it is not a terminal', () => {
    const run = ppfile([...validateArgs(big), '--json']);
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(json(run)).toMatchObject({ valid: true, rows_total: ROWS, rows_valid: ROWS, error_count: 0 });
  });

  it('validate streams the file: 60 MB with a heap of 80 MB (the file as one string would need 120)', () => {
    const run = ppfile([...validateArgs(big)], { NODE_OPTIONS: '--max-old-space-size=80' });
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out.split('\n')[1]).toBe(
      `  rows: ${ROWS} total, ${ROWS} valid, 0 invalid; 0 error(s), 0 warning(s) (spec 2026-02)`,
    );
  });

  it('validate --max-rows N refuses beyond N: LINE_LIMIT_EXCEEDED, exit 2', () => {
    const run = ppfile([...validateArgs(big), '--max-rows', '100000', '--json']);
    expect(run.status).toBe(2);
    expect(json(run).error).toMatchObject({
      code: 'LINE_LIMIT_EXCEEDED',
      details: { limit: 100_000, rows: 100_001 },
    });
    expect(ppfile([...validateArgs(CSV_FILE), '--max-rows', '2']).status).toBe(0);
    const text = ppfile([...validateArgs(CSV_FILE), '--max-rows', '1']);
    expect(text.status).toBe(2);
    expect(text.err).toBe(
      'LINE_LIMIT_EXCEEDED: The request holds more than 1 rows, the limit given by --max-rows.\n',
    );
  });

  it('generate: 60,000 rows (past the API’s 50,000 for a key), the file validates; --max-rows refuses it', () => {
    const body = tmpFile(
      'size/60k.json',
      bigBody(120, (d) =>
        Array.from({ length: 500 }, (_, i) => ({
          unique_id: `G-${d}-${i}`,
          nir: nir(i),
          birth_name: 'MARTIN',
          validity_start: '2026-11-17',
        })),
      ),
    );
    const out = path.join(tmp, 'size', '60k.csv');
    const run = ppfile(['generate', body, '-o', out, '--today', TODAY]);
    expect(run.status).toBe(0);
    expect(run.err.split('\n')[0]).toMatch(/: 60000 row\(s\), 120 declaration\(s\), /);
    expect(json(ppfile([...validateArgs(out), '--json']))).toMatchObject({ valid: true, rows_total: 60_000 });
    const limited = ppfile(['generate', body, '--max-rows', '50000', '--today', TODAY, '--json']);
    expect(limited.status).toBe(2);
    expect(json(limited).error).toMatchObject({
      code: 'LINE_LIMIT_EXCEEDED',
      details: { limit: 50_000, rows: 60_000 },
    });
  });

  const hasScript = spawnSync('script', ['--version']).status === 0;
  if (!hasScript)
    console.info('test/cli.e2e-spec.ts: no `script` (util-linux): the terminal progress test is skipped');
  (hasScript ? it : it.skip)(
    'on a terminal, a progress line on stderr, overwritten in place and cleared at the end',
    () => {
      const out = path.join(tmp, 'size', 'verdict.txt');
      // `script` runs the command on a pseudo-terminal; stdout goes to a file, stderr stays on the terminal.
      const onTty = (extra: string) => {
        const r = spawnSync(
          'script',
          ['-qec', `${nodeBin} ${validateArgs(big).map(q).join(' ')} ${extra} > ${q(out)}`, '/dev/null'],
          { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
        );
        expect(r.status).toBe(0);
        return r.stdout;
      };
      const tty = onTty('');
      const pieces = tty.split(CLEAR_LINE);
      // Nothing but progress lines, each overwriting the previous one, and the line cleared at the end.
      expect(pieces[0]).toBe('');
      expect(pieces.at(-1)).toBe('');
      const shown = pieces.slice(1, -1).map((p) => /^(\d+) lines read…$/.exec(p)?.[1]);
      // 250,000 rows: at least the 100,000 and 200,000 marks.
      expect(shown.length).toBeGreaterThanOrEqual(2);
      expect(shown.every((n) => n !== undefined)).toBe(true);
      expect(shown.map(Number)).toEqual(shown.map(Number).sort((a, b) => a - b));
      expect(readFileSync(out, 'utf8').split('\n')[0]).toBe('big.csv: valid');
      expect(onTty('--lang fr').split(CLEAR_LINE)[1]).toMatch(/^\d+ lignes lues…$/);
      // A short file takes no time: no progress line.
      const small = spawnSync(
        'script',
        ['-qec', `${nodeBin} ${validateArgs(CSV_FILE).map(q).join(' ')} > ${q(out)}`, '/dev/null'],
        { cwd: ROOT, encoding: 'utf8', timeout: 60_000 },
      );
      expect(small.stdout).toBe('');
    },
  );
});

describe('lists cut at 1,000 say how many more there are', () => {
  it('check: errors, warnings and normalizations beyond 1,000, with the exact counts', () => {
    const file = tmpFile('cut/noisy.json', NOISY_BODY());
    const body = json(ppfile(['check', file, '--today', TODAY, '--json']));
    expect(body.warnings).toHaveLength(1_000);
    expect(body.normalizations).toHaveLength(1_000);
    expect(body.warning_count).toBeGreaterThan(1_000);
    expect(body.normalization_count).toBeGreaterThan(1_000);
    const text = ppfile(['check', file, '--today', TODAY]);
    expect(text.status).toBe(0);
    const lines = text.out.split('\n');
    expect(lines).toContain(`  … ${body.warning_count - 1_000} more warning(s) not shown`);
    expect(lines).toContain(`  … ${body.normalization_count - 1_000} more normalization(s) not shown`);
    expect(lines.filter((l) => l.startsWith('  warning '))).toHaveLength(1_000);
    expect(lines.filter((l) => l.startsWith('  normalized '))).toHaveLength(1_000);
    const fr = ppfile(['check', file, '--today', TODAY, '--lang', 'fr']).out;
    expect(fr).toContain(`  … ${body.warning_count - 1_000} avertissement(s) de plus non affiché(s)\n`);
    expect(fr).toContain(
      `  … ${body.normalization_count - 1_000} normalisation(s) de plus non affichée(s)\n`,
    );

    const generated = ppfile(['generate', file, '-o', path.join(tmp, 'cut', 'noisy.csv'), '--today', TODAY]);
    expect(generated.status).toBe(0);
    expect(generated.err).toContain(`  … ${body.warning_count - 1_000} more warning(s) not shown\n`);
    expect(generated.err).toContain(
      `  … ${body.normalization_count - 1_000} more normalization(s) not shown\n`,
    );
  });

  it('generate of an invalid body lists its errors in text, as check does', () => {
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].training.end_date = '2026-11-15';
    const run = ppfile(['generate', tmpFile('cut/invalid.json', JSON.stringify(b)), '--today', TODAY]);
    expect(run.status).toBe(1);
    expect(run.out).toBe('');
    expect(run.err).toBe(
      'VALIDATION_FAILED: No file was produced: 2 rows are invalid (see details.errors).\n' +
        '  error   line 2 DATE_FIN_FORMATION (declarations[0].training.end_date): END_BEFORE_START — DATE_FIN_FORMATION is before DATE_DEBUT_FORMATION.\n',
    );
  });
});

describe('--lang fr: every word of the text output is French', () => {
  /** What may stay as is: codes, column names, JSON paths, options, file names, hashes. */
  const words = (text: string) =>
    text
      .replace(/declarations\[[^\s)]*/g, ' ')
      .replace(/details\.\w+/g, ' ')
      .replace(/--[\w-]+/g, ' ')
      .replace(/\b[A-Z][A-Z0-9_]{2,}\b/g, ' ')
      .replace(/\S+\.(csv|json)\b/g, ' ')
      .replace(/\b[0-9a-f]{64}\b/g, ' ');
  const ENGLISH =
    /\b(valid|invalid|rows?|errors?|warnings?|line|normali[sz]ed|normalizations?|suggested|name|cannot|read|expects?|unknown|more|shown|stdin|stdout|spec|is|the|of|and)\b/;

  it('validate, check and generate, valid and invalid, and their refusals', () => {
    const b = JSON.parse(BODY_TEXT);
    b.declarations[0].training.end_date = '2026-11-15';
    b.declarations[0].holders[1].nir = '7550814168025';
    const invalidBody = tmpFile('fr/invalid.json', JSON.stringify(b));
    const invalidCsv = tmpFile('fr/invalid.csv', csvText(ADF_HEADER, [{ ...OF_ROW, NIR: '25508141680' }]));
    const runs: [string[], string | undefined][] = [
      [[...validateArgs(CSV_FILE)], undefined],
      [[...validateArgs(invalidCsv)], undefined],
      [[...validateArgs(path.join(tmp, 'rejected', 'bom.csv'))], undefined],
      [[...validateArgs('-')], CSV_BYTES.toString('utf8')],
      [['check', BODY_FILE, '--today', TODAY], undefined],
      [['check', invalidBody, '--today', TODAY], undefined],
      [['check', tmpFile('fr/noisy.json', NOISY_BODY()), '--today', TODAY], undefined],
      [['generate', BODY_FILE, '--today', TODAY, '-o', path.join(tmp, 'fr', 'out.csv')], undefined],
      [['generate', BODY_FILE, '--today', TODAY], undefined],
      [['generate', invalidBody, '--today', TODAY], undefined],
      [['check', tmpFile('fr/malformed.json', '{"type":"adf"}')], undefined],
      [['check', path.join(tmp, 'fr', 'nope.json')], undefined],
      [['generate', BODY_FILE, '-o', path.join(tmp, 'no-such-dir', 'x.csv')], undefined],
      [['validate', CSV_FILE, '--type', 'xyz', '--declarant', 'employer'], undefined],
      [['check', BODY_FILE, '--today', '22/11/2026'], undefined],
      [['check', BODY_FILE, '--max-rows', '1'], undefined],
      [
        ['refdata', 'import', '--list', 'rome', ROME_EXCERPT, '--dir', path.join(tmp, 'fr-refdata')],
        undefined,
      ],
    ];
    for (const [args, input] of runs) {
      const run = ppfile([...args, '--lang', 'fr'], {}, input);
      const text =
        args[0] === 'generate' && !args.includes('-o') && run.status === 0 ? run.err : run.out + run.err;
      expect(text.length).toBeGreaterThan(0);
      const english = ENGLISH.exec(words(text));
      expect({ args, english: english?.[0] ?? null, text: english ? text.slice(0, 400) : '' }).toEqual({
        args,
        english: null,
        text: '',
      });
    }
  });

  it('--json stays the API’s JSON, messages in French', () => {
    const en = json(ppfile(['check', BODY_FILE, '--today', '2026-11-16', '--json']));
    const fr = json(ppfile(['check', BODY_FILE, '--today', '2026-11-16', '--lang', 'fr', '--json']));
    const shape = (r: { errors: { message: string }[] }) => ({
      ...r,
      errors: r.errors.map((e) => ({ ...e, message: '' })),
    });
    expect(shape(fr)).toEqual(shape(en));
    expect(fr.errors[0].message).toMatch(/postérieure à aujourd'hui/);
  });
});

// ---- help, and the coverage of API.md §4 ----------------------------------------------------------------------------

describe('help and coverage', () => {
  it('`npx ppfile --help` exits 0 and prints the usage', () => {
    const r = spawnSync('npx', ['ppfile', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(
      'ppfile validate FILE.csv --type adf|jdr --declarant employer|training_organization',
    );
    expect(r.stdout).toContain('ppfile generate BODY.json [-o OUT.csv]');
  }, 60_000);

  it('`npx ppfile --version` exits 0 and prints the version', () => {
    const r = spawnSync('npx', ['ppfile', '--version'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(`ppfile ${PACKAGE_VERSION}\n`);
  }, 60_000);

  // Reads what the tests above recorded: meaningful when the whole file runs (not under a -t filter).
  it('every validation code of API.md §4 was reached through the CLI in this file', () => {
    const API_MD_SECTION_4 = [
      'EMPTY_FILE',
      'INVALID_ENCODING',
      'INVALID_SEPARATOR',
      'INVALID_HEADER',
      'INVALID_FILENAME',
      'COLUMN_COUNT',
      'REQUIRED_FIELD',
      'FIELD_NOT_ALLOWED',
      'FIELD_TOO_LONG',
      'INVALID_VALUE',
      'VALUE_COUNT',
      'INVALID_CHARACTER',
      'INVALID_DATE',
      'FUTURE_DATE',
      'END_BEFORE_START',
      'VALIDITY_BEFORE_TRAINING_END',
      'VALIDITY_END_BEFORE_START',
      'INVALID_NIR',
      'INVALID_NIR_KEY',
      'INVALID_SIRET',
      'INVALID_SIRET_KEY',
      'INVALID_FORMACODE',
      'INVALID_NSF_CODE',
      'INVALID_ROME_CODE',
      'INVALID_RS_CODE',
      'INVALID_URL',
      'DUPLICATE_UNIQUE_ID',
      'INCONSISTENT_DECLARATION',
      'DECLARATION_TOO_LARGE',
      'FORMULA_NOT_ALLOWED',
      // warnings
      'DUPLICATE_HOLDER',
      'LF_LINE_ENDINGS',
      'NIR_PROVISIONAL',
      'FILING_DEADLINE_PASSED',
      'REFERENCE_NOT_VERIFIED',
    ];
    // and the error-body codes of API.md §6 that an offline command can produce
    const API_MD_SECTION_6 = [
      'INVALID_JSON',
      'INVALID_REQUEST',
      'UNSUPPORTED_SPEC_VERSION',
      'LINE_LIMIT_EXCEEDED',
      'VALIDATION_FAILED',
    ];
    expect([...API_MD_SECTION_4, ...API_MD_SECTION_6].filter((code) => !seen.has(code))).toEqual([]);
  });
});
