export { ReferenceDataError } from './errors';
export {
  MANIFEST_FILE,
  manifestPath,
  readManifest,
  type ManifestListEntry,
  type ReferenceManifest,
} from './manifest';
export { loadReferenceLists, clearReferenceCache, listsRead, type LoadMode } from './load';
export { importReferenceList, type ImportOptions, type ImportReport } from './import';
export { shippedReferenceDir } from './shipped-dir';
export { readExport, type ExportContent } from './export-formats';
export { versionFromFileName } from './source-version';
export { detectDelimiter, parseCsv, type Delimiter } from './csv-text';
export { decodeText } from './text-decode';
export { readListFile, readListCodes, parseListFile, serializeListFile } from './list-file';
export { ReferenceDirectory } from './reference-directory';
