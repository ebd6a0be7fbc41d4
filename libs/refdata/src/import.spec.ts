import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReferenceDataError } from './errors';
import { importReferenceList } from './import';
import { clearReferenceCache, loadReferenceLists } from './load';
import { readManifest } from './manifest';

const SPEC = '2026-02';
const REPO_REFERENCE_DATA = path.resolve(__dirname, '../../../reference-data');
// The official exports used as fixtures are too big to commit; they live beside the repository.
const SHARED = path.resolve(__dirname, '../../../../shared/reference-data');

function shared(relative: string): string {
  const file = path.join(SHARED, relative);
  if (!fs.existsSync(file)) {
    throw new Error(`fixture missing: ${file} (the shared reference data described in ${SHARED}/SOURCES.md)`);
  }
  return file;
}

/** Every file of a directory tree with its bytes, to prove that a failed import changed nothing. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  if (!fs.existsSync(dir)) return out;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out[path.relative(dir, file)] = fs.readFileSync(file, 'base64');
  }
  return out;
}

describe('importReferenceList', () => {
  let tmp: string;
  let target: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ppfile-refdata-import-'));
    target = path.join(tmp, 'reference-data');
  });
  afterEach(() => {
    clearReferenceCache();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const write = (name: string, content: string | Buffer): string => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const importError = (run: () => unknown): ReferenceDataError => {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(ReferenceDataError);
      return err as ReferenceDataError;
    }
    throw new Error('importReferenceList did not throw');
  };

  it('finds the shared fixtures', () => {
    expect(fs.existsSync(SHARED)).toBe(true);
  });

  describe('rome', () => {
    it('reads the France Travail ROME 4.0 file as published (18,317 codes, both natures)', () => {
      const file = shared('rome/unix_referentiel_competence_v460_utf8.csv');
      const report = importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC });
      expect(report).toEqual({
        list: 'rome',
        count: 18317,
        skipped: 0,
        complete: true,
        file: path.join(target, SPEC, 'rome.tsv'),
        source: 'unix_referentiel_competence_v460_utf8.csv',
        version: 'v460',
      });
      const lists = loadReferenceLists(target, SPEC);
      expect(lists.rome.complete).toBe(true);
      expect(lists.rome.entries.size).toBe(18317);
      for (const code of lists.rome.entries.keys()) expect(code).toMatch(/^\d{6}$/);
      expect(lists.rome.entries.get('121885')).toBe(
        "Appliquer les techniques de premiers secours en cas d'urgence",
      );
      const manifest = readManifest(target, SPEC);
      expect(manifest.lists.rome).toMatchObject({ count: 18317, complete: true, version: 'v460' });
      expect(Date.parse(manifest.lists.rome.imported_at ?? '')).not.toBeNaN();
      const text = fs.readFileSync(report.file, 'utf8');
      expect(text.split('\n')).toHaveLength(18318);
      expect(text).not.toMatch(/\r|\t[^\n]*\t/);

      // Same as the derived, sorted code,label file (labels with line breaks flattened on both sides).
      const derived = path.join(tmp, 'derived');
      const other = shared('rome/competences_rome_v460.csv');
      expect(
        importReferenceList({ list: 'rome', files: [other], dir: derived, specVersion: SPEC }).count,
      ).toBe(18317);
      expect(new Map(loadReferenceLists(derived, SPEC).rome.entries)).toEqual(new Map(lists.rome.entries));
    });

    it('also reads a derived code,label CSV', () => {
      const file = write(
        'rome.csv',
        'code,label,nature\n115650,"Assurer la protection, vite",Compétence\n999,bad,x\n',
      );
      const report = importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 1, skipped: 1 });
      expect(loadReferenceLists(target, SPEC).rome.entries.get('115650')).toBe('Assurer la protection, vite');
    });
  });

  describe('rs', () => {
    it('reads the Certif Info open-data file (Windows-1252, Code_RS digits) → 1,430 RS codes', () => {
      const file = shared('rs/opendata-certifinfo-01012025.csv');
      const report = importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC });
      // 10,178 rows: 1,439 carry a Code_RS (1,430 distinct), the other 8,739 are skipped.
      expect(report).toMatchObject({ count: 1430, skipped: 8739, version: '2025-01-01' });
      const rs = loadReferenceLists(target, SPEC).rs;
      expect(rs.entries.get('RS5635')).toBe(
        "Habilitation pour l'accès à la profession de conducteur de taxi",
      );
      expect(rs.entries.get('RS6550')).toBe('CQP organiser les travaux sur cordes');
      // Windows-1252 bytes 0x80-0x9F (œ, ’) decode to the real characters.
      expect(rs.entries.get('RS5849')).toBe('Mettre en œuvre DevOps pour le cloud AWS');
      for (const code of rs.entries.keys()) expect(code).toMatch(/^RS\d+$/);

      // Same codes and labels as the UTF-8 derived file, which comes through another path (`,`, quotes).
      const derived = path.join(tmp, 'derived');
      importReferenceList({
        list: 'rs',
        files: [shared('rs/rs_certifinfo_2025-01-01.csv')],
        dir: derived,
        specVersion: SPEC,
      });
      expect(new Map(loadReferenceLists(derived, SPEC).rs.entries)).toEqual(new Map(rs.entries));
    });

    it('reads a France Compétences daily export: every RS fiche, active or not, no RNCP', () => {
      const header =
        'Numero_Fiche;Intitule;Abrege_libelle;Abrege_Intitule;Nomenclature_Europe_Niveau;Nomenclature_Europe_Intitule;' +
        'Accessible_Nouvelle_Caledonie;Accessible_Polynesie_Francaise;Date_dernier_jo;Date_Decision;' +
        'Date_Fin_Enregistrement;Date_Effet;Type_Enregistrement;Validation_Partielle;Actif';
      const rows = [
        `"RS5635";"Habilitation pour l'accès à la profession de conducteur de taxi";;;;;"Non";"Non";;"2021-11-25";"2026-11-25";"2021-11-25";"Enregistrement de droit";"Non";"ACTIVE"`,
        `"RNCP34393";"Concepteur développeur d'applications";"TP";;"NIV6";"Niveau 6";"Non";"Non";;;;;"Enregistrement de droit";"Oui";"ACTIVE"`,
        `RS1234;"Sécurité ; prévention des risques";;;;;Non;Non;;2018-01-01;2020-01-01;2018-01-01;Enregistrement sur demande;Non;INACTIVE`,
        `"rs 6550";"CQP organiser les travaux sur cordes";;;;;"Non";"Non";;;;;"";"Non";"ACTIVE"`,
        `"RNCP12345";"Titre ""ancien""";;;;;"Non";"Non";;;;;"";"Non";"INACTIVE"`,
      ];
      const file = write('export_fiches_CSV_Standard_2026_03_02.csv', `${header}\n${rows.join('\n')}\n`);
      const report = importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 3, skipped: 2, version: '2026-03-02', complete: true });
      const rs = loadReferenceLists(target, SPEC).rs;
      expect([...rs.entries]).toEqual([
        ['RS1234', 'Sécurité ; prévention des risques'],
        ['RS5635', "Habilitation pour l'accès à la profession de conducteur de taxi"],
        ['RS6550', 'CQP organiser les travaux sur cordes'],
      ]);
    });

    it('reads the derived code,label file', () => {
      const file = shared('rs/rs_certifinfo_2025-01-01.csv');
      const report = importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 1430, skipped: 0 });
    });
  });

  describe('formacode', () => {
    it('reads the Centre Inffo V14 file as published (BOM, ;, CRLF, typo-riche label) → 2,775', () => {
      const file = shared('formacode/formacodes-v14.csv');
      const report = importReferenceList({
        list: 'formacode',
        files: [file],
        dir: target,
        specVersion: SPEC,
      });
      expect(report).toMatchObject({ count: 2775, skipped: 0, version: 'v14' });
      const fc = loadReferenceLists(target, SPEC).formacode;
      expect(fc.entries.get('31054')).toBe('Informatique - Systèmes d’information et numérique');
      expect(fc.entries.get('42829')).toBe('Sauvetage secourisme travail');
      expect(fc.entries.get('13030')).toBe('Préparation examen concours fonction publique');
    });

    it('merges V14 and the derived V13 file into their union (2,838), V14 labels first', () => {
      const files = [shared('formacode/formacodes-v14.csv'), shared('formacode/formacode_v13.csv')];
      const report = importReferenceList({ list: 'formacode', files, dir: target, specVersion: SPEC });
      expect(report).toMatchObject({
        count: 2838,
        skipped: 0,
        source: 'formacodes-v14.csv, formacode_v13.csv',
        version: 'v14, v13',
      });
      const fc = loadReferenceLists(target, SPEC).formacode;
      expect(fc.entries.get('42829')).toBe('Sauvetage secourisme travail');
      expect(fc.entries.get('46261')).toBe('SITE INTERNET POUR MOBILE');
    });

    it('strips the BOM and CRLF, skips the header and keeps leading zeros', () => {
      const file = write(
        'fc.csv',
        '\uFEFFcode;label\r\n00101;Grand domaine\r\n42829;Sauvetage secourisme travail\r\n4282;x\r\n',
      );
      const report = importReferenceList({
        list: 'formacode',
        files: [file],
        dir: target,
        specVersion: SPEC,
      });
      expect(report).toMatchObject({ count: 2, skipped: 1 });
      expect([...loadReferenceLists(target, SPEC).formacode.entries]).toEqual([
        ['00101', 'Grand domaine'],
        ['42829', 'Sauvetage secourisme travail'],
      ]);
    });

    it('reads a file without a header from its first line', () => {
      const file = write('fc.csv', '42829;Sauvetage secourisme travail\n13030;Préparation\n');
      expect(
        importReferenceList({ list: 'formacode', files: [file], dir: target, specVersion: SPEC }).count,
      ).toBe(2);
    });
  });

  describe('nsf', () => {
    it('imports letter codes and keeps the 93 groups of the current list', () => {
      const file = shared('nsf/nsf_codes_fins_observes.csv');
      const report = importReferenceList({ list: 'nsf', files: [file], dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 99, skipped: 0, complete: true });
      const lists = loadReferenceLists(target, SPEC);
      expect(lists.nsfGroups.size).toBe(93);
      expect(lists.nsf.entries.get('344r')).toBe("Mise en oeuvre des règles d'hygiène et sécurité");
      expect(lists.nsf.entries.get('311u')).toBe('');
      expect(lists.nsf.entries.get('100')).toBe('Formations générales');
    });

    it('lower-cases the letter, prefers the file’s group labels and skips codes without a group', () => {
      const file = write(
        'nsf.csv',
        'code;label\n344R;Hygiène\n344;Sécurité des biens et des personnes (file)\n99;x\n',
      );
      const report = importReferenceList({ list: 'nsf', files: [file], dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 94, skipped: 1 });
      const nsf = loadReferenceLists(target, SPEC).nsf;
      expect(nsf.entries.get('344r')).toBe('Hygiène');
      expect(nsf.entries.get('344')).toBe('Sécurité des biens et des personnes (file)');
    });
  });

  describe('target directory', () => {
    it('starts a new directory from the shipped lists and changes only the imported one', () => {
      const file = write('rs.csv', 'code,label\nRS7000,Nouvelle fiche\n');
      importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC, partial: true });
      const shipped = readManifest(REPO_REFERENCE_DATA, SPEC);
      const manifest = readManifest(target, SPEC);
      expect(manifest.lists.rome).toEqual(shipped.lists.rome);
      expect(manifest.lists.nsf).toEqual(shipped.lists.nsf);
      expect(manifest.lists.rs).toMatchObject({
        file: 'rs.tsv',
        source: 'rs.csv',
        count: 1,
        complete: false,
      });
      for (const name of ['rome', 'formacode', 'nsf'] as const) {
        expect(fs.readFileSync(path.join(target, SPEC, `${name}.tsv`), 'utf8')).toBe(
          fs.readFileSync(path.join(REPO_REFERENCE_DATA, SPEC, `${name}.tsv`), 'utf8'),
        );
      }
    });

    it('marks the list partial with partial: true', () => {
      const file = shared('rome/unix_referentiel_competence_v460_utf8.csv');
      const report = importReferenceList({
        list: 'rome',
        files: [file],
        dir: target,
        specVersion: SPEC,
        partial: true,
      });
      expect(report.complete).toBe(false);
      expect(readManifest(target, SPEC).lists.rome.complete).toBe(false);
      expect(loadReferenceLists(target, SPEC).rome.complete).toBe(false);
    });

    it('makes the next load see the import (its cache entry is cleared)', () => {
      const before = loadReferenceLists(REPO_REFERENCE_DATA, SPEC);
      fs.cpSync(path.join(REPO_REFERENCE_DATA, SPEC), path.join(target, SPEC), { recursive: true });
      expect(loadReferenceLists(target, SPEC).rome.entries.size).toBe(3);
      const file = write('rome.csv', '100023,Abattre un arbre\n');
      importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC });
      expect(loadReferenceLists(target, SPEC).rome.entries.size).toBe(1);
      expect(loadReferenceLists(REPO_REFERENCE_DATA, SPEC)).toBe(before);
    });
  });

  describe('failures change nothing', () => {
    beforeEach(() => {
      fs.cpSync(path.join(REPO_REFERENCE_DATA, SPEC), path.join(target, SPEC), { recursive: true });
    });

    it('rejects a file without any valid code', () => {
      const before = snapshot(target);
      const file = write('bad.csv', 'code;label\n12345;five digits\nabc;letters\n');
      const err = importError(() =>
        importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC }),
      );
      expect(err.message).toMatch(/no valid rome code found in .*bad\.csv \(2 rows skipped\)/);
      expect(snapshot(target)).toEqual(before);
    });

    it('rejects an NSF file whose letter codes have no group', () => {
      const before = snapshot(target);
      const file = write('nsf.csv', 'code;label\n999z;x\n');
      importError(() => importReferenceList({ list: 'nsf', files: [file], dir: target, specVersion: SPEC }));
      expect(snapshot(target)).toEqual(before);
    });

    it('creates nothing when a new directory’s import fails', () => {
      const file = write('empty.csv', '');
      const fresh = path.join(tmp, 'fresh');
      importError(() => importReferenceList({ list: 'rs', files: [file], dir: fresh, specVersion: SPEC }));
      expect(fs.existsSync(fresh)).toBe(false);
    });

    it('reads every file before writing: a missing second file changes nothing', () => {
      const before = snapshot(target);
      const good = write('rome.csv', '100023,Abattre un arbre\n');
      const err = importError(() =>
        importReferenceList({
          list: 'rome',
          files: [good, path.join(tmp, 'missing.csv')],
          dir: target,
          specVersion: SPEC,
        }),
      );
      expect(err.message).toContain('missing.csv');
      expect(snapshot(target)).toEqual(before);
    });

    it('leaves the manifest and no temporary file behind when the list write fails', () => {
      // A directory where the list file should be makes the final rename fail.
      fs.rmSync(path.join(target, SPEC, 'rome.tsv'));
      fs.mkdirSync(path.join(target, SPEC, 'rome.tsv'));
      const before = snapshot(target);
      const file = write('rome.csv', '100023,Abattre un arbre\n');
      expect(() =>
        importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC }),
      ).toThrow();
      expect(snapshot(target)).toEqual(before);
      expect(fs.readdirSync(path.join(target, SPEC)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    });

    it('refuses to import over a malformed manifest', () => {
      fs.writeFileSync(path.join(target, SPEC, 'manifest.json'), '[]');
      const before = snapshot(target);
      const file = write('rome.csv', '100023,Abattre un arbre\n');
      const err = importError(() =>
        importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC }),
      );
      expect(err.message).toContain(path.join(target, SPEC, 'manifest.json'));
      expect(snapshot(target)).toEqual(before);
    });
  });
});
