/**
 * @ppfile/rules — the official bulk-import format of the Passeport de Prévention portal, written
 * once: spec tables, normalizations, checks, CSV writer and reader. No framework, no I/O.
 */
export * from './api';
export * from './codes';
export * from './csv-validator';
export * from './csv-writer';
export * from './data-lines';
export * from './file-name';
export * from './issues';
export * from './json-rows';
export * from './body-normalizer';
export * from './messages';
export * from './references';
export * from './request';
export * from './request-shape';
export * from './row-checker';
export * from './format';
export * from './format-description';
export * from './values/dates';
export * from './values/filing-deadline';
export * from './values/nir';
export * from './values/siret';
export { trimWhiteSpace } from './values/text';
export * from './csv-fixer';
export type { FixedFileSink } from './fixed-file';
export * from './text-decoding';
export * from './catalogue';
