import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { REFERENCE_CODE_FORMATS, REFERENCE_LIST_NAMES } from '@ppfile/rules/references';
import { ReferenceDataError } from './errors';
import { clearReferenceCache, loadReferenceLists } from './load';
import { readManifest, serializeManifest } from './manifest';
import { serializeListFile } from './list-file';
import { shippedReferenceDir } from './shipped-dir';

const SPEC = '2026-02';

interface EditableManifest {
  spec_version: string;
  lists: Record<string, Record<string, unknown>>;
}
const REPO_REFERENCE_DATA = path.resolve(__dirname, '../../../reference-data');

describe('shipped reference data', () => {
  afterEach(() => clearReferenceCache());

  it('is found by walking up from the library', () => {
    expect(shippedReferenceDir(SPEC)).toBe(REPO_REFERENCE_DATA);
  });

  it('is also found from a build output folder (dist/cli/libs/refdata/src)', () => {
    const from = path.join(REPO_REFERENCE_DATA, '..', 'dist', 'cli', 'libs', 'refdata', 'src');
    expect(shippedReferenceDir(SPEC, from)).toBe(REPO_REFERENCE_DATA);
  });

  it('fails with a clear error when no repository holds that spec version', () => {
    expect(() => shippedReferenceDir('1999-01')).toThrow(/reference-data\/1999-01\/manifest\.json/);
  });

  it('loads the four lists with the manifest counts: ROME and Formacode imported complete, NSF and RS built-in partial', () => {
    const lists = loadReferenceLists(REPO_REFERENCE_DATA, SPEC);
    const manifest = readManifest(REPO_REFERENCE_DATA, SPEC);
    for (const name of REFERENCE_LIST_NAMES) {
      expect(lists[name].complete).toBe(manifest.lists[name].complete);
      expect(lists[name].entries.size).toBe(manifest.lists[name].count);
      for (const code of lists[name].entries.keys()) expect(code).toMatch(REFERENCE_CODE_FORMATS[name]);
    }
    // Imported from the official exports (the counts and labels: shipped-lists.spec.ts).
    for (const name of ['rome', 'formacode'] as const) {
      expect(lists[name].complete).toBe(true);
      expect(Date.parse(manifest.lists[name].imported_at ?? '')).not.toBeNaN();
    }
    // Built in: what ppfile can state itself, unknown codes only REFERENCE_NOT_VERIFIED.
    for (const name of ['nsf', 'rs'] as const) {
      expect(lists[name].complete).toBe(false);
      expect(lists[name].source).toMatch(/^ppfile built-in/);
      expect(manifest.lists[name].imported_at).toBeNull();
    }
    expect(lists.rs.entries.size).toBe(5);
    expect(lists.nsfGroups.size).toBe(93);
    expect([...lists.nsf.entries.keys()].filter((c) => c.length === 4).sort()).toEqual([
      '326t',
      '331r',
      '344r',
    ]);
    expect(lists.rs.entries.get('RS5635')).toBe(
      "Habilitation pour l'accès à la profession de conducteur de taxi",
    );
  });

  it('ships files in the form an import writes them (sorted, LF, no header, canonical manifest)', () => {
    const manifest = readManifest(REPO_REFERENCE_DATA, SPEC);
    const folder = path.join(REPO_REFERENCE_DATA, SPEC);
    expect(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')).toBe(serializeManifest(manifest));
    const lists = loadReferenceLists(REPO_REFERENCE_DATA, SPEC);
    for (const name of REFERENCE_LIST_NAMES) {
      const text = fs.readFileSync(path.join(folder, manifest.lists[name].file), 'utf8');
      expect(text).toBe(serializeListFile(lists[name].entries));
    }
    expect(
      serializeListFile(
        new Map([
          ['RS876', ''],
          ['RS5635', ''],
          ['RS10000', ''],
        ]),
      ),
    ).toBe('RS876\t\nRS5635\t\nRS10000\t\n');
  });
});

describe('loadReferenceLists', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ppfile-refdata-load-'));
    fs.cpSync(path.join(REPO_REFERENCE_DATA, SPEC), path.join(tmp, SPEC), { recursive: true });
  });
  afterEach(() => {
    clearReferenceCache();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  const manifestFile = () => path.join(tmp, SPEC, 'manifest.json');
  const editManifest = (edit: (m: EditableManifest) => void) => {
    const m = JSON.parse(fs.readFileSync(manifestFile(), 'utf8'));
    edit(m);
    fs.writeFileSync(manifestFile(), JSON.stringify(m));
  };
  const loadError = (dir = tmp, spec = SPEC): ReferenceDataError => {
    try {
      loadReferenceLists(dir, spec);
    } catch (err) {
      expect(err).toBeInstanceOf(ReferenceDataError);
      return err as ReferenceDataError;
    }
    throw new Error('loadReferenceLists did not throw');
  };

  it('caches per directory and spec version until the cache is cleared', () => {
    const first = loadReferenceLists(tmp, SPEC);
    expect(loadReferenceLists(path.join(tmp, '.'), SPEC)).toBe(first);
    clearReferenceCache(tmp, SPEC);
    const second = loadReferenceLists(tmp, SPEC);
    expect(second).not.toBe(first);
    clearReferenceCache(tmp);
    expect(loadReferenceLists(tmp, SPEC)).not.toBe(second);
  });

  it('names the missing directory, spec version folder, manifest or list file', () => {
    expect(loadError(path.join(tmp, 'nope')).message).toContain(path.join(tmp, 'nope'));
    expect(loadError(tmp, '2030-01').message).toContain(path.join(tmp, '2030-01'));
    fs.rmSync(path.join(tmp, SPEC, 'rs.tsv'));
    expect(loadError().message).toContain(path.join(tmp, SPEC, 'rs.tsv'));
    fs.rmSync(manifestFile());
    expect(loadError().message).toContain(manifestFile());
  });

  it('rejects a manifest that is not JSON, lacks a list or has another spec version', () => {
    fs.writeFileSync(manifestFile(), '{ "spec_version": ');
    expect(loadError().message).toMatch(/malformed reference-data manifest .*manifest\.json/);
    fs.cpSync(path.join(REPO_REFERENCE_DATA, SPEC, 'manifest.json'), manifestFile());
    editManifest((m) => delete m.lists.rs);
    expect(loadError().message).toMatch(/list "rs" is missing/);
    fs.cpSync(path.join(REPO_REFERENCE_DATA, SPEC, 'manifest.json'), manifestFile());
    editManifest((m) => (m.spec_version = '2025-01'));
    expect(loadError().message).toMatch(/spec_version is "2025-01", expected "2026-02"/);
  });

  it('refuses a list file name that leaves the folder', () => {
    editManifest((m) => (m.lists.rome!.file = '../rome.tsv'));
    expect(loadError().message).toMatch(/lists\.rome\.file must be a plain file name/);
  });

  it('fails when a list file has more or fewer lines than the manifest count', () => {
    editManifest((m) => (m.lists.rs!.count = 6));
    const err = loadError();
    expect(err.message).toContain(path.join(tmp, SPEC, 'rs.tsv'));
    expect(err.message).toMatch(/has 5 lines but the manifest says count 6/);
  });

  it('fails on a malformed line, naming the file and the line', () => {
    fs.appendFileSync(path.join(tmp, SPEC, 'rs.tsv'), '12345\tfive digits\n');
    editManifest((m) => (m.lists.rs!.count = 6));
    expect(loadError().message).toMatch(/rs\.tsv, line 6/);
  });

  it('fails on a duplicate code', () => {
    fs.appendFileSync(path.join(tmp, SPEC, 'rome.tsv'), '115650\tagain\n');
    editManifest((m) => (m.lists.rome!.count = 18318));
    expect(loadError().message).toMatch(/rome\.tsv, line 18318: duplicate code 115650/);
  });
});
