/**
 * Issue 32 (4) as a user meets it: `ppfile fix` and `ppfile import` of a UTF-8 CSV holding one
 * Windows-1252 byte (a `café` pasted from another program). Both once read the whole file as
 * Windows-1252 — every accented name mojibake, and "valid". Now the fix answers as validate does
 * (INVALID_ENCODING on the line, no content, exit 1) and the import refuses the file
 * (UNREADABLE_FILE mixed_encoding, exit 2); a file in one encoding throughout is read as before.
 * `node bin/ppfile.js` after `npm run build:cli`, as test/spreadsheet-cli.e2e-spec.ts runs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { loadReferenceLists, shippedReferenceDir } from '@ppfile/refdata';
import { fixCsv } from '@ppfile/rules';
import { assertBuilt } from './support/worker';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'ppfile.js');
const BUILT = path.join(ROOT, 'dist', 'cli', 'apps', 'cli', 'src', 'main.js');
const TODAY = '2026-11-22';
const KIND = ['--type', 'adf', '--declarant', 'employer'];
const refs = loadReferenceLists(shippedReferenceDir('2026-02'), '2026-02');

let tmp = '';

beforeAll(() => {
  assertBuilt('cli', BUILT);
  tmp = mkdtempSync(path.join(os.tmpdir(), 'ppfile-mixed-encoding-'));
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function ppfile(args: string[]) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

const NAMES = ['HÉLÈNE-ŒUVRE', 'BÉRANGER', 'LEFÈVRE'];
/** Windows-1252 bytes of Latin-1 text (é E9, É C9…). */
const latin = (text: string): Buffer => Buffer.from(text, 'latin1');

describe('ppfile fix of a file that mixes UTF-8 and Windows-1252', () => {
  const header =
    'ID_DECLARATION|REFERENCE_DECLARATION|ID_UNIQUE_PARTENAIRE|NOM_FORMATION|DATE_DEBUT_FORMATION|DATE_FIN_FORMATION|MODALITE_DISPENSE|COMPETENCE_TRANSFERABLE|QUALIFICATION_FORMATEUR|FORMATION_CERTIFIANTE|CERTIFICATION_VISEE|DOMAINE_FORMATION|SPECIALITE_FORMATION|NIR|NOM_TITULAIRE|PRESENCE_EMPLOYEUR|SIRET_EMPLOYEUR|REFERENCE_EMPLOYEUR|DATE_DEBUT_VALIDITE|DATE_FIN_VALIDITE';
  const row = (i: number, name: string, reference = 'CLIENT') =>
    `S1|Session 1|S1-E${i}|SST|14/09/2026|15/09/2026|PRESENTIEL||||||344r|2550814168025|${name}|||${reference}|15/09/2026|`;
  // Line 3's REFERENCE_EMPLOYEUR is "café" typed elsewhere: é is the one byte E9 among UTF-8 names.
  const [before, after] = row(2, NAMES[1]!, '@').split('@');
  const mixed = Buffer.concat([
    Buffer.from(`${header}\r\n${row(1, NAMES[0]!)}\r\n${before}`),
    latin('café'),
    Buffer.from(`${after}\r\n${row(3, NAMES[2]!)}\r\n`),
  ]);

  it('--json: no content, INVALID_ENCODING on line 3, exit 1 — the answer of POST /v1/files/fix', () => {
    const file = path.join(tmp, 'mixed.csv');
    writeFileSync(file, mixed);
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '--json']);
    expect(r.status).toBe(1);
    const answer = JSON.parse(r.stdout);
    expect(answer.content).toBeUndefined();
    expect(answer.change_count).toBe(0);
    expect(answer.validation.file_rejected).toBe(true);
    expect(answer.validation.errors).toEqual([
      expect.objectContaining({ row: 3, column: null, code: 'INVALID_ENCODING' }),
    ]);
    const expected = fixCsv(mixed, { type: 'adf', declarant: 'employer' }, { refs, today: 20261122 });
    expect(answer).toEqual(JSON.parse(JSON.stringify(expected)));
    for (const text of [...NAMES, 'caf', 'HÃ']) expect(r.stdout).not.toContain(text);
  });

  it('-o: nothing written, the line named on standard error (in French with --lang fr)', () => {
    const file = path.join(tmp, 'mixed-o.csv');
    writeFileSync(file, mixed);
    const out = path.join(tmp, 'mixed-fixed.csv');
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', out, '--lang', 'fr']);
    expect(r.status).toBe(1);
    expect(existsSync(out)).toBe(false);
    expect(r.stderr).toMatch(/3.*INVALID_ENCODING/);
    expect(r.stderr).toContain('cette ligne contient des octets');
    for (const text of [...NAMES, 'caf', 'HÃ']) expect(r.stderr).not.toContain(text);
  });

  it('a file in Windows-1252 throughout is still fixed into UTF-8, every name itself', () => {
    const names = ['HÉLÈNE-OEUVRE', 'BÉRANGER', 'LEFÈVRE'];
    const text = `${header}\r\n${names.map((n, i) => row(i + 1, n)).join('\r\n')}\r\n`;
    const file = path.join(tmp, 'latin.csv');
    writeFileSync(file, latin(text));
    const out = path.join(tmp, 'latin-fixed.csv');
    const r = ppfile(['fix', file, ...KIND, '--today', TODAY, '-o', out]);
    expect(r.status).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe(text);
  });
});

describe('ppfile import of a CSV that mixes UTF-8 and Windows-1252', () => {
  const header =
    'Session;Référence;ID unique;Intitulé;Date de début;Date de fin;NIR;Nom de naissance;Début de validité';
  const row = (i: number, name: string) =>
    `S1;Session 1;S1-E${i};SST;14/09/2026;15/09/2026;2550814168025;${name};15/09/2026`;

  it('is refused (UNREADABLE_FILE mixed_encoding, exit 2), the line named, no name quoted', () => {
    // Line 4's "Intitulé" typed elsewhere (é as E9) among UTF-8 names and headers.
    const bytes = Buffer.concat([
      Buffer.from(`${header}\r\n${row(1, NAMES[0]!)}\r\n${row(2, NAMES[1]!)}\r\n`),
      latin('S1;Session 1;S1-E3;Sécurité;14/09/2026;15/09/2026;2550814168025;'),
      Buffer.from(`${NAMES[2]};15/09/2026\r\n`),
    ]);
    const file = path.join(tmp, 'export-mixed.csv');
    writeFileSync(file, bytes);
    const r = ppfile(['import', file, ...KIND, '--today', TODAY, '--json']);
    expect(r.status).toBe(2);
    const { error } = JSON.parse(r.stdout);
    expect(error).toMatchObject({ code: 'UNREADABLE_FILE', details: { reason: 'mixed_encoding' } });
    expect(error.message).toContain('line 4 holds bytes that are not UTF-8');
    const fr = ppfile(['import', file, ...KIND, '--today', TODAY, '--lang', 'fr']);
    expect(fr.status).toBe(2);
    expect(fr.stderr).toContain('la ligne 4 contient des octets');
    for (const out of [r.stdout, fr.stdout, fr.stderr])
      for (const text of [...NAMES, 'Sécurité', 'HÃ']) expect(out).not.toContain(text);
  });

  it('a file in UTF-8 throughout imports as before, every name itself', () => {
    const text = `${header}\r\n${NAMES.map((n, i) => row(i + 1, n)).join('\r\n')}\r\n`;
    const file = path.join(tmp, 'export-utf8.csv');
    writeFileSync(file, text);
    const r = ppfile(['import', file, ...KIND, '--today', TODAY, '--json']);
    expect(r.status).toBe(0);
    const answer = JSON.parse(r.stdout);
    expect(answer.body.declarations[0].holders.map((h: { birth_name: string }) => h.birth_name)).toEqual(
      NAMES,
    );
  });
});
