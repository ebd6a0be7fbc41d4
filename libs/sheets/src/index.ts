/**
 * @ppfile/sheets — spreadsheets in (API.md §14): the XLSX template of each kind of file, and the
 * import of a spreadsheet (XLSX, CSV or TSV) into the declaration body that generate takes. Pure:
 * bytes in memory in, data or bytes out; no framework, no I/O. The format's rules are libs/rules'.
 */
export * from './cells';
export * from './delimited-reader';
export * from './headers';
export * from './importer';
export * from './messages';
export * from './read-cell';
export * from './template';
export * from './unreadable';
export * from './xlsx-reader';
export * from './xlsx-writer';
export * from './zip';
