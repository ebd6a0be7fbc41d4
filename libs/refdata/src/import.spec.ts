import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReferenceDataError } from './errors';
import { importReferenceList } from './import';
import { clearReferenceCache, loadReferenceLists } from './load';
import { readManifest } from './manifest';
import {
  excerpt,
  NEEDS_OFFICIAL_EXPORTS,
  officialExport,
  officialExportsDir,
  SKIPPED_NOTE,
} from './testing/official-exports';

const SPEC = '2026-02';
const REPO_REFERENCE_DATA = path.resolve(__dirname, '../../../reference-data');
// Excerpts of the official exports are committed (test/fixtures/official-exports); the complete files
// are not, and the suite over them runs only when PPFILE_OFFICIAL_EXPORTS points at them.
const withOfficialExports = officialExportsDir() !== null ? describe : describe.skip;
if (officialExportsDir() === null) console.info(`libs/refdata/src/import.spec.ts: ${SKIPPED_NOTE}`);

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

  describe('rome', () => {
    it('reads the France Travail ROME 4.0 file as published (both natures, quoted labels with commas)', () => {
      const file = excerpt('rome/unix_referentiel_competence_v460_utf8.csv');
      const report = importReferenceList({ list: 'rome', files: [file], dir: target, specVersion: SPEC });
      expect(report).toEqual({
        list: 'rome',
        count: 8,
        skipped: 0,
        complete: true,
        file: path.join(target, SPEC, 'rome.tsv'),
        source: 'unix_referentiel_competence_v460_utf8.csv',
        version: 'v460',
      });
      const lists = loadReferenceLists(target, SPEC);
      expect(lists.rome.complete).toBe(true);
      expect([...lists.rome.entries]).toEqual([
        ['100023', 'Abattre un arbre'],
        [
          '100069',
          "Surveiller un espace naturel pour la prévention des risques d'accidents, de pollution, d'incendie",
        ],
        ['100240', 'Sécuriser un équipement, un périmètre'],
        ['104292', 'Effectuer le suivi des réservations'], // a Macro-compétence
        ['115650', "Assurer la protection des personnes en situation d'incident ou d'accident"],
        ['121885', "Appliquer les techniques de premiers secours en cas d'urgence"],
        ['300001', 'Mettre en oeuvre les actions de transformation nécessaires aux changements'], // Macro
        [
          '400635',
          "Mettre en oeuvre les procédures d'alerte des secours et les autres mesures prédéfinies en cas d'incident",
        ],
      ]);
      const manifest = readManifest(target, SPEC);
      expect(manifest.lists.rome).toMatchObject({ count: 8, complete: true, version: 'v460' });
      expect(Date.parse(manifest.lists.rome.imported_at ?? '')).not.toBeNaN();
      const text = fs.readFileSync(report.file, 'utf8');
      expect(text.split('\n')).toHaveLength(9);
      expect(text).not.toMatch(/\r|\t[^\n]*\t/);

      // Same as the derived, sorted code,label file (CRLF, quotes only where needed).
      const derived = path.join(tmp, 'derived');
      const other = excerpt('rome/competences_rome_v460.csv');
      expect(
        importReferenceList({ list: 'rome', files: [other], dir: derived, specVersion: SPEC }).count,
      ).toBe(8);
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
    it('reads the Certif Info open-data file (Windows-1252, Code_RS digits, rows without Code_RS skipped)', () => {
      const file = excerpt('rs/opendata-certifinfo-01012025.csv');
      const report = importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC });
      // 8 rows: 3 without a Code_RS are skipped; RS2754 appears twice (two Certif Info entries), first label kept.
      expect(report).toMatchObject({ count: 4, skipped: 3, version: '2025-01-01', complete: true });
      const rs = loadReferenceLists(target, SPEC).rs;
      expect([...rs.entries]).toEqual([
        ['RS2754', 'Brevet national de pisteur secouriste option ski alpin 3ème degré'],
        ['RS5635', "Habilitation pour l'accès à la profession de conducteur de taxi"],
        // Windows-1252 bytes 0x80-0x9F (here œ, 0x9C) decode to the real characters.
        ['RS5849', 'Mettre en œuvre DevOps pour le cloud AWS'],
        ['RS6550', 'CQP organiser les travaux sur cordes'],
      ]);

      // Same codes and labels as the UTF-8 derived file, which comes through another path (`,`, quotes).
      const derived = path.join(tmp, 'derived');
      const again = importReferenceList({
        list: 'rs',
        files: [excerpt('rs/rs_certifinfo_2025-01-01.csv')],
        dir: derived,
        specVersion: SPEC,
      });
      expect(again).toMatchObject({ count: 4, skipped: 0 });
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
  });

  describe('formacode', () => {
    it('reads the Centre Inffo V14 file as published (BOM, ;, CRLF, quoted notes with line breaks, typo-riche label)', () => {
      const file = excerpt('formacode/formacodes-v14.csv');
      const report = importReferenceList({
        list: 'formacode',
        files: [file],
        dir: target,
        specVersion: SPEC,
      });
      expect(report).toMatchObject({ count: 6, skipped: 0, version: 'v14', complete: true });
      expect([...loadReferenceLists(target, SPEC).formacode.entries]).toEqual([
        ['13030', 'Préparation examen concours fonction publique'],
        ['15030', 'Calcul mise à niveau'],
        ['15054', 'Développement professionnel et personnel'],
        ['31054', 'Informatique - Systèmes d’information et numérique'],
        ['42817', 'Réglementation santé sécurité travail'],
        ['42829', 'Sauvetage secourisme travail'],
      ]);
    });

    it('merges V14 and the derived V13 file into their union, V14 labels first', () => {
      const files = [excerpt('formacode/formacodes-v14.csv'), excerpt('formacode/formacode_v13.csv')];
      const report = importReferenceList({ list: 'formacode', files, dir: target, specVersion: SPEC });
      // 6 V14 codes + 31088 and 46261, V13 only (13030 and 42829 are in both).
      expect(report).toMatchObject({
        count: 8,
        skipped: 0,
        source: 'formacodes-v14.csv, formacode_v13.csv',
        version: 'v14, v13',
      });
      const fc = loadReferenceLists(target, SPEC).formacode;
      expect(fc.entries.get('42829')).toBe('Sauvetage secourisme travail');
      expect(fc.entries.get('46261')).toBe('SITE INTERNET POUR MOBILE');
      expect(fc.entries.get('31088')).toBe('PROGRAMMATION');
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
      const file = excerpt('nsf/nsf_codes_fins_observes.csv');
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
      const file = excerpt('rome/unix_referentiel_competence_v460_utf8.csv');
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
      expect(loadReferenceLists(target, SPEC).rome.entries.size).toBe(18317);
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

  // The complete files as published (PPFILE_OFFICIAL_EXPORTS; docs/reference-data.md). The shipped ROME and
  // Formacode lists were produced from them by this importer: re-importing gives the same bytes.
  withOfficialExports(`complete official exports ${NEEDS_OFFICIAL_EXPORTS}`, () => {
    const shippedText = (name: string) =>
      fs.readFileSync(path.join(REPO_REFERENCE_DATA, SPEC, `${name}.tsv`), 'utf8');

    it('ROME 4.0 v460 as published: 18,317 codes (both natures), the shipped rome.tsv', () => {
      const file = officialExport('rome/unix_referentiel_competence_v460_utf8.csv');
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
      expect(lists.rome.entries.size).toBe(18317);
      for (const code of lists.rome.entries.keys()) expect(code).toMatch(/^\d{6}$/);
      expect(lists.rome.entries.get('121885')).toBe(
        "Appliquer les techniques de premiers secours en cas d'urgence",
      );
      const text = fs.readFileSync(report.file, 'utf8');
      expect(text.split('\n')).toHaveLength(18318);
      expect(text).not.toMatch(/\r|\t[^\n]*\t/);
      expect(text).toBe(shippedText('rome'));

      // Same as the derived, sorted code,label file.
      const derived = path.join(tmp, 'derived');
      const other = officialExport('rome/competences_rome_v460.csv');
      expect(
        importReferenceList({ list: 'rome', files: [other], dir: derived, specVersion: SPEC }).count,
      ).toBe(18317);
      expect(new Map(loadReferenceLists(derived, SPEC).rome.entries)).toEqual(new Map(lists.rome.entries));
    });

    it('Formacode V14 as published: 2,775 codes, the shipped formacode.tsv', () => {
      const file = officialExport('formacode/formacodes-v14.csv');
      const report = importReferenceList({
        list: 'formacode',
        files: [file],
        dir: target,
        specVersion: SPEC,
      });
      expect(report).toMatchObject({ count: 2775, skipped: 0, version: 'v14', complete: true });
      const fc = loadReferenceLists(target, SPEC).formacode;
      expect(fc.entries.get('31054')).toBe('Informatique - Systèmes d’information et numérique');
      expect(fc.entries.get('42829')).toBe('Sauvetage secourisme travail');
      expect(fc.entries.get('13030')).toBe('Préparation examen concours fonction publique');
      expect(fs.readFileSync(report.file, 'utf8')).toBe(shippedText('formacode'));
    });

    it('Formacode V14 ∪ V13: 2,838 codes', () => {
      const files = [
        officialExport('formacode/formacodes-v14.csv'),
        officialExport('formacode/formacode_v13.csv'),
      ];
      const report = importReferenceList({ list: 'formacode', files, dir: target, specVersion: SPEC });
      expect(report).toMatchObject({ count: 2838, skipped: 0, version: 'v14, v13' });
      expect(loadReferenceLists(target, SPEC).formacode.entries.get('46261')).toBe(
        'SITE INTERNET POUR MOBILE',
      );
    });

    it('Certif Info 01/01/2025 as published: 1,430 RS codes (8,739 rows without one), as the derived file', () => {
      const file = officialExport('rs/opendata-certifinfo-01012025.csv');
      const report = importReferenceList({ list: 'rs', files: [file], dir: target, specVersion: SPEC });
      // 10,178 rows: 1,439 carry a Code_RS (1,430 distinct), the other 8,739 are skipped.
      expect(report).toMatchObject({ count: 1430, skipped: 8739, version: '2025-01-01' });
      const rs = loadReferenceLists(target, SPEC).rs;
      expect(rs.entries.get('RS5635')).toBe(
        "Habilitation pour l'accès à la profession de conducteur de taxi",
      );
      expect(rs.entries.get('RS5849')).toBe('Mettre en œuvre DevOps pour le cloud AWS');
      for (const code of rs.entries.keys()) expect(code).toMatch(/^RS\d+$/);

      const derived = path.join(tmp, 'derived');
      const again = importReferenceList({
        list: 'rs',
        files: [officialExport('rs/rs_certifinfo_2025-01-01.csv')],
        dir: derived,
        specVersion: SPEC,
      });
      expect(again).toMatchObject({ count: 1430, skipped: 0 });
      expect(new Map(loadReferenceLists(derived, SPEC).rs.entries)).toEqual(new Map(rs.entries));
    });
  });
});
