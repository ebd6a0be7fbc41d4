import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { REFERENCE_LIST_NAMES, type ReferenceListName } from '@ppfile/rules/references';
import { writeFileAtomic } from './atomic-write';
import { ReferenceDataError } from './errors';
import { readExport } from './export-formats';
import { clearReferenceCache } from './load';
import { parseListFile, readListText, serializeListFile } from './list-file';
import { manifestPath, readManifest, versionFolder, writeManifest, type ManifestListEntry } from './manifest';
import { shippedReferenceDir } from './shipped-dir';
import { versionFromFileName } from './source-version';
import { decodeText } from './text-decode';

export interface ImportOptions {
  readonly list: ReferenceListName;
  /** Official exports, read as published; several files are merged (first label wins). */
  readonly files: readonly string[];
  /** The reference-data directory (the one loadReferenceLists reads). */
  readonly dir: string;
  readonly specVersion: string;
  /** The files are not the whole official list: unknown codes stay warnings (API.md §3c). */
  readonly partial?: boolean;
}

export interface ImportReport {
  readonly list: ReferenceListName;
  /** Codes in the list file now (for NSF, including the three-digit groups kept from the current list). */
  readonly count: number;
  /** Rows not imported because their code does not have the list's format. */
  readonly skipped: number;
  readonly complete: boolean;
  /** The list file written. */
  readonly file: string;
  readonly source: string;
  readonly version: string;
}

/**
 * Replaces one reference list from official exports. Everything is read and checked before the first
 * write, so a bad file changes nothing; the list file and then the manifest are each replaced by a
 * rename, the manifest last since it is what readers trust.
 */
export function importReferenceList(opts: ImportOptions): ImportReport {
  const { list, files, specVersion } = opts;
  if (!REFERENCE_LIST_NAMES.includes(list)) {
    throw new ReferenceDataError(
      `unknown reference list "${list}" (expected ${REFERENCE_LIST_NAMES.join(', ')})`,
    );
  }
  if (files.length === 0) throw new ReferenceDataError(`no file to import into the ${list} list`);

  const imported = new Map<string, string>();
  const versions: string[] = [];
  let skipped = 0;
  for (const file of files) {
    const { text, modified } = readSource(file);
    const content = readExport(list, text);
    for (const [code, label] of content.entries) {
      const known = imported.get(code);
      if (known === undefined || (known === '' && label !== '')) imported.set(code, label);
    }
    skipped += content.skipped;
    const version = versionFromFileName(file, modified);
    if (!versions.includes(version)) versions.push(version);
  }

  if (imported.size === 0) throw nothingImported(list, files, skipped);

  const root = resolve(opts.dir);
  const folder = versionFolder(root, specVersion);
  // A new directory starts as a copy of the shipped lists, so it always holds all four lists.
  const seeding = !existsSync(manifestPath(root, specVersion));
  const baseRoot = seeding ? shippedReferenceDir(specVersion) : root;
  const base = readManifest(baseRoot, specVersion);
  const baseFolder = versionFolder(baseRoot, specVersion);
  const readBaseList = (name: ReferenceListName) => {
    const path = join(baseFolder, base.lists[name].file);
    const text = readListText(path, name);
    return { text, entries: parseListFile(text, path, name, base.lists[name].count) };
  };

  if (list === 'nsf') {
    skipped += keepNsfGroups(imported, readBaseList('nsf').entries);
    if (imported.size === 0) throw nothingImported(list, files, skipped);
  }

  const seeded = seeding
    ? REFERENCE_LIST_NAMES.filter((name) => name !== list).map((name) => ({
        name,
        text: readBaseList(name).text,
      }))
    : [];

  mkdirSync(folder, { recursive: true });
  for (const { name, text } of seeded) writeFileAtomic(join(folder, base.lists[name].file), text);
  const listFile = join(folder, base.lists[list].file);
  writeFileAtomic(listFile, serializeListFile(imported));
  const entry: ManifestListEntry = {
    file: base.lists[list].file,
    source: files.map((f) => basename(f)).join(', '),
    version: versions.join(', '),
    count: imported.size,
    complete: !opts.partial,
    imported_at: new Date().toISOString(),
  };
  writeManifest(root, { spec_version: specVersion, lists: { ...base.lists, [list]: entry } });
  clearReferenceCache(root, specVersion);

  return {
    list,
    count: entry.count,
    skipped,
    complete: entry.complete,
    file: listFile,
    source: entry.source,
    version: entry.version,
  };
}

function nothingImported(
  list: ReferenceListName,
  files: readonly string[],
  skipped: number,
): ReferenceDataError {
  return new ReferenceDataError(
    `no valid ${list} code found in ${files.join(', ')} (${skipped} rows skipped); the ${list} list was not changed`,
  );
}

function readSource(file: string): { text: string; modified: Date } {
  try {
    const modified = statSync(file).mtime;
    return { text: decodeText(readFileSync(file)), modified };
  } catch (err) {
    throw new ReferenceDataError(`cannot read ${file}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * The three-digit NSF groups are fixed by décret 94-522, while exports list only the codes they use:
 * missing groups are kept from the current list. A letter code whose group does not exist is not a
 * valid NSF code (API.md §3c) and is skipped. Returns the number of codes skipped; groups added back
 * are not counted, so `imported` is left empty when the files held no usable code.
 */
function keepNsfGroups(imported: Map<string, string>, current: ReadonlyMap<string, string>): number {
  const groups = new Set<string>();
  for (const code of current.keys()) if (code.length === 3) groups.add(code);
  for (const code of imported.keys()) if (code.length === 3) groups.add(code);
  let skipped = 0;
  for (const code of [...imported.keys()]) {
    if (code.length > 3 && !groups.has(code.slice(0, 3))) {
      imported.delete(code);
      skipped++;
    }
  }
  if (imported.size === 0) return skipped;
  for (const [code, label] of current)
    if (code.length === 3 && !imported.has(code)) imported.set(code, label);
  return skipped;
}
