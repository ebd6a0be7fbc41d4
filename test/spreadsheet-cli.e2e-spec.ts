/**
 * The spreadsheet commands as a user runs them (API.md §14, §11): `node bin/ppfile.js template|import|fix`
 * from the repository root after `npm run build:cli`, checking standard output, standard error, the
 * files written and the exit status; `--json` prints exactly the HTTP answer, compared here with the
 * library's own result for the same input.
 */
import { spawn } from 'node:child_process';
import {
  chmodSync,
  linkSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadReferenceLists, shippedReferenceDir } from '@ppfile/refdata';
import { fixCsv, generateFile, validateCsv } from '@ppfile/rules';
import { importSheet } from '@ppfile/sheets';
import { runCli } from './support/cli';
import { assertBuilt } from './support/worker';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'ppfile.js');
const BUILT = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
const LIBREOFFICE = path.join(ROOT, 'libs', 'sheets', 'test', 'fixtures', 'libreoffice-1900.xlsx');
const TODAY = '2026-11-22';
const refs = loadReferenceLists(shippedReferenceDir('2026-02'), '2026-02');
const env = { refs, today: 20261122 };

let tmp = '';

beforeAll(() => {
  assertBuilt('cli', BUILT);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ppfile-sheets-cli-'));
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** `node bin/ppfile.js …`: in process in the repository's directory, else a process (support/cli.ts). */
function ppfile(args: string[], cwd = ROOT) {
  const r = runCli(args, { cwd, env: { ...process.env } });
  return { status: r.status, stdout: r.stdout.toString('utf8'), stderr: r.stderr.toString('utf8') };
}

const KIND = ['--type', 'adf', '--declarant', 'employer'];

describe('ppfile template', () => {
  it('writes the template under its API name in the current directory, or to -o', () => {
    const r = ppfile(['template', ...KIND], tmp);
    expect(r.status).toBe(0);
    const file = path.join(tmp, 'ppfile_template_adf_employer_2026-02.xlsx');
    expect(readFileSync(file).subarray(0, 2).toString()).toBe('PK');
    expect(r.stderr).toContain('ppfile_template_adf_employer_2026-02.xlsx');

    const out = path.join(tmp, 'modele.xlsx');
    const fr = ppfile([
      'template',
      '--type',
      'jdr',
      '--declarant',
      'training_organization',
      '-o',
      out,
      '--lang',
      'fr',
    ]);
    expect(fr.status).toBe(0);
    expect(fr.stderr).toContain('modèle écrit');
    // The template, imported as it is, has its header and no row.
    const imported = ppfile([
      'import',
      out,
      '--type',
      'jdr',
      '--declarant',
      'training_organization',
      '--json',
    ]);
    expect(imported.status).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ sheet: 'Declarations', header_row: 1, rows_read: 0 });
  });

  it('refuses an unknown kind (exit 2)', () => {
    const r = ppfile(['template', '--type', 'xyz', '--declarant', 'employer']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('--type');
  });
});

describe('ppfile import', () => {
  it('prints the body on standard output and the cells found on standard error (a LibreOffice workbook)', () => {
    const r = ppfile(['import', LIBREOFFICE, ...KIND, '--today', TODAY]);
    expect(r.status).toBe(0);
    const expected = importSheet(
      readFileSync(LIBREOFFICE),
      { type: 'adf', declarant: 'employer', filename: 'libreoffice-1900.xlsx' },
      env,
    );
    expect(JSON.parse(r.stdout)).toEqual(expected.body);
    expect(r.stderr).toContain('sheet Stagiaires, header row 1, 4 row(s) read, 2 declaration(s)');
    expect(r.stderr).toContain('B1 "N° de sécurité sociale" → NIR (synonym)');
    expect(r.stderr).toContain('headers ignored: Commentaire');
    // The NIRs and names of the sheet appear in the body only, never in what is said about it.
    expect(r.stderr).not.toMatch(/2550814168025|DUPONT/);
  });

  it('--json prints exactly the answer of POST /v1/declarations/import', () => {
    const r = ppfile(['import', LIBREOFFICE, ...KIND, '--today', TODAY, '--json']);
    expect(r.status).toBe(0);
    const expected = importSheet(
      readFileSync(LIBREOFFICE),
      { type: 'adf', declarant: 'employer', filename: 'libreoffice-1900.xlsx' },
      env,
    );
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
  });

  it('--generate -o writes the official CSV, the bytes generate gives for the body', () => {
    const out = path.join(tmp, 'stagiaires.csv');
    const r = ppfile(['import', LIBREOFFICE, ...KIND, '--today', TODAY, '--generate', '-o', out]);
    expect(r.status).toBe(0);
    const body = importSheet(
      readFileSync(LIBREOFFICE),
      { type: 'adf', declarant: 'employer', filename: 'x.xlsx' },
      env,
    ).body;
    expect(readFileSync(out).equals(generateFile(body, env).content)).toBe(true);
    expect(validateCsv(readFileSync(out), { type: 'adf', declarant: 'employer' }, env).valid).toBe(true);
    expect(r.stderr).toContain('4 row(s), 2 declaration(s)');
  });

  it('names each problem by its cell and exits 1 (--sheet); --generate refuses the invalid body (exit 1)', () => {
    const r = ppfile(['import', LIBREOFFICE, ...KIND, '--today', TODAY, '--sheet', 'Problèmes']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/Problèmes!H2 NOM_TITULAIRE: UNREADABLE_CELL/);
    expect(r.stderr).toMatch(/Problèmes!G3 NIR: INVALID_NIR/);
    const gen = ppfile([
      'import',
      LIBREOFFICE,
      ...KIND,
      '--today',
      TODAY,
      '--sheet',
      'Problèmes',
      '--generate',
      '--json',
    ]);
    expect(gen.status).toBe(1);
    expect(JSON.parse(gen.stdout).error.code).toBe('VALIDATION_FAILED');
  });

  it('reads a CSV in Windows-1252 with `;` and takes a mapping file', () => {
    const csv = [
      'Session;Référence;Identifiant;Intitulé;Date de début;Date de fin;NIR;Salarié;Début de validité',
      'S1;Session 1;S1-E1;SST;14/09/2026;15/09/2026;2550814168025;BÉRANGER;15/09/2026',
    ].join('\r\n');
    const file = path.join(tmp, 'export.csv');
    writeFileSync(file, Buffer.from([...csv].map((c) => c.charCodeAt(0))));
    const map = path.join(tmp, 'map.json');
    writeFileSync(map, JSON.stringify({ Salarié: 'NOM_TITULAIRE', Identifiant: 'ID_UNIQUE_PARTENAIRE' }));
    const r = ppfile(['import', file, ...KIND, '--today', TODAY, '--mapping', map, '--json']);
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.body.declarations[0].holders[0].birth_name).toBe('BÉRANGER');
    expect(answer.mapping.filter((m: { how: string }) => m.how === 'given')).toHaveLength(2);
    expect(answer.validation.valid).toBe(true);
  });

  it('refuses a hostile workbook (UNREADABLE_FILE, exit 2) and a bad mapping file (exit 2)', () => {
    const macro = path.join(tmp, 'paie.xlsx');
    writeFileSync(macro, Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0]));
    const r = ppfile(['import', macro, ...KIND, '--json']);
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({
      code: 'UNREADABLE_FILE',
      details: { reason: 'legacy_xls' },
    });
    const fr = ppfile(['import', macro, ...KIND, '--lang', 'fr']);
    expect(fr.stderr).toContain("UNREADABLE_FILE : Le fichier n'est pas un tableur XLSX ou CSV lisible");
    // A mapping file that is not a JSON object: the import's own answer, as the API's (INVALID_REQUEST).
    const bad = path.join(tmp, 'bad.json');
    writeFileSync(bad, '["NIR"]');
    const m = ppfile(['import', LIBREOFFICE, ...KIND, '--mapping', bad, '--json']);
    expect(m.status).toBe(2);
    expect(JSON.parse(m.stdout).error).toMatchObject({
      code: 'INVALID_REQUEST',
      details: { fields: [expect.objectContaining({ field: 'mapping' })] },
    });
    expect(ppfile(['import', LIBREOFFICE, ...KIND, '-o', path.join(tmp, 'x.csv')]).status).toBe(2);
  });
});

describe('ppfile import and fix: the 20 MB of API.md §14', () => {
  it('refuse a larger file without reading it whole (UNREADABLE_FILE too_large, exit 2)', () => {
    const big = path.join(tmp, 'big.csv');
    writeFileSync(big, Buffer.alloc(20 * 1024 * 1024 + 1, 0x61));
    for (const command of ['import', 'fix']) {
      const r = ppfile([command, big, ...KIND, '--json']);
      expect(r.status).toBe(2);
      expect(JSON.parse(r.stdout).error).toMatchObject({
        code: 'UNREADABLE_FILE',
        details: { reason: 'too_large', limit: 20 * 1024 * 1024 },
      });
    }
  });
});

describe('ppfile fix', () => {
  const header =
    'ID_DECLARATION|REFERENCE_DECLARATION|ID_UNIQUE_PARTENAIRE|NOM_FORMATION|DATE_DEBUT_FORMATION|DATE_FIN_FORMATION|MODALITE_DISPENSE|COMPETENCE_TRANSFERABLE|QUALIFICATION_FORMATEUR|FORMATION_CERTIFIANTE|CERTIFICATION_VISEE|DOMAINE_FORMATION|SPECIALITE_FORMATION|NIR|NOM_TITULAIRE|PRESENCE_EMPLOYEUR|SIRET_EMPLOYEUR|REFERENCE_EMPLOYEUR|DATE_DEBUT_VALIDITE|DATE_FIN_VALIDITE';
  const row =
    'S1|Session 1|S1-E1|SST|2026-09-14|15/09/2026|presentiel||||||344R|255 08 14 168 025|DUPONT ||||15/09/2026|';

  it('writes the fixed file to -o, lists every change on standard error, exits 0 when it is valid', () => {
    const file = path.join(tmp, 'depot.csv');
    writeFileSync(file, `${header}\n${row}\n`);
    const out = path.join(tmp, 'depot-corrige.csv');
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', out]);
    expect(r.stderr).toContain('changed line 2 DATE_DEBUT_FORMATION: DATE_REFORMATTED');
    expect(r.stderr).toContain('changed line - : CRLF_LINE_ENDINGS'.replace(' :', ':'));
    expect(r.status).toBe(0);
    const fixed = readFileSync(out, 'utf8');
    expect(fixed).toBe(
      `${header}\r\nS1|Session 1|S1-E1|SST|14/09/2026|15/09/2026|PRESENTIEL||||||344r|2550814168025|DUPONT||||15/09/2026|\r\n`,
    );
    expect(r.stderr).not.toContain('2550814168025');
  });

  it('--json prints exactly the answer of POST /v1/files/fix; an unmendable file has no content (exit 1)', () => {
    const file = path.join(tmp, 'depot2.csv');
    writeFileSync(file, `${header}\r\n${row}\r\n`);
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '--json']);
    expect(r.status).toBe(0);
    const expected = fixCsv(readFileSync(file), { type: 'adf', declarant: 'employer' }, env);
    expect(JSON.parse(r.stdout)).toEqual(JSON.parse(JSON.stringify(expected)));
    expect(expected.change_count).toBe(5);

    const broken = path.join(tmp, 'broken.csv');
    writeFileSync(broken, `${header.replace('NIR', 'N_I_R')}\r\n${row}\r\n`);
    const b = ppfile(['fix', broken, ...KIND, '--json']);
    expect(b.status).toBe(1);
    const answer = JSON.parse(b.stdout);
    expect(answer.content).toBeUndefined();
    expect(answer.validation.errors[0].code).toBe('INVALID_HEADER');
  });

  it('-o is written whole or not at all: a row that cannot be split after many good ones leaves the old file as it was', () => {
    const good = Array.from({ length: 3000 }, (_, i) => row.replace('S1-E1', `S1-E${i}`));
    const file = path.join(tmp, 'long.csv');
    // 3,000 rows (more than one block of the fixed file) before a row with one cell missing.
    writeFileSync(file, `${header}\n${good.join('\n')}\nS1|Session 1|S1-E|SST\n`);
    const out = path.join(tmp, 'kept.csv');
    writeFileSync(out, 'previous content');
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', out]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('not fixed');
    expect(readFileSync(out, 'utf8')).toBe('previous content');
    expect(readdirSync(tmp).filter((f) => f.includes('partial'))).toEqual([]);

    // The same rows mended: the file written through equals the answer's content, and stdout's.
    const mendable = path.join(tmp, 'long-ok.csv');
    writeFileSync(mendable, `${header}\n${good.join('\n')}\n`);
    // (one holder over and over: the fixed file is mended, not valid.)
    const written = ppfile(['fix', mendable, ...KIND, '--today', TODAY, '-o', out]);
    expect(written.stderr).toContain(`${out}: 15001 change(s)`);
    const expected = fixCsv(readFileSync(mendable), { type: 'adf', declarant: 'employer' }, env).content!;
    expect(readFileSync(out, 'utf8')).toBe(expected);
    expect(ppfile(['fix', mendable, ...KIND, '--today', TODAY]).stdout).toBe(expected);
    expect(readdirSync(tmp).filter((f) => f.includes('partial'))).toEqual([]);
  });

  it('-o and Ctrl-C: the interrupt waits for the file in hand, which is whole; no partial file is left', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => row.replace('S1-E1', `S1-E${i}`));
    const file = path.join(tmp, 'interrupted.csv');
    writeFileSync(file, `${header}\n${rows.join('\n')}\n`);
    const out = path.join(tmp, 'interrupted-fixed.csv');
    const child = spawn(process.execPath, [BIN, 'fix', file, ...KIND, '--today', TODAY, '-o', out], {
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // Interrupted while the partial file exists: the fix is then under way.
    const partial = () => readdirSync(tmp).some((f) => f.startsWith('.interrupted-fixed.csv.'));
    const deadline = Date.now() + 30_000;
    while (!partial() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 2));
    expect(partial()).toBe(true);
    child.kill('SIGINT');
    const fixed = fixCsv(readFileSync(file), { type: 'adf', declarant: 'employer' }, env);
    // The command ends as it would have (1: one holder over and over makes a mended, invalid file),
    // or with 130 if the interrupt came just after the file was renamed.
    expect([fixed.validation.valid ? 0 : 1, 130]).toContain(await exited);
    expect(partial()).toBe(false);
    expect(readFileSync(out).equals(Buffer.from(fixed.content!))).toBe(true);
  });

  it('-o keeps the permissions of the file it replaces, writes through a symbolic link, into a hard link', () => {
    const file = path.join(tmp, 'perm.csv');
    writeFileSync(file, `${header}\n${row}\n`);
    const expected = fixCsv(readFileSync(file), { type: 'adf', declarant: 'employer' }, env).content!;
    const privateOut = path.join(tmp, 'private.csv');
    writeFileSync(privateOut, 'old', { mode: 0o600 });
    chmodSync(privateOut, 0o600);
    expect(ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', privateOut]).status).toBe(0);
    expect(readFileSync(privateOut, 'utf8')).toBe(expected);
    expect(statSync(privateOut).mode & 0o777).toBe(0o600);

    const target = path.join(tmp, 'target.csv');
    writeFileSync(target, 'old');
    const link = path.join(tmp, 'link.csv');
    symlinkSync(target, link);
    expect(ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', link]).status).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe(expected);

    // A file with two names is written into: both names see the fixed file.
    const other = path.join(tmp, 'other-name.csv');
    linkSync(target, other);
    writeFileSync(target, 'old again');
    expect(ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', other]).status).toBe(0);
    expect(readFileSync(target, 'utf8')).toBe(expected);
    expect(statSync(other).ino).toBe(statSync(target).ino);
  });
});

describe('ppfile --help', () => {
  it('lists the three spreadsheet commands', () => {
    const r = ppfile(['--help']);
    expect(r.status).toBe(0);
    for (const c of ['template', 'import', 'fix']) expect(r.stdout).toMatch(new RegExp(`\\b${c}\\b`));
    const help = ppfile(['import', '--help', '--lang', 'fr']);
    expect(help.stdout).toContain('--mapping MAP.json');
    expect(help.stdout).toContain('POST /v1/declarations/import');
  });
});
