import { ApiError } from '@ppfile/contract';
import type { ColumnMappingEntries } from '@ppfile/db';
import { CURRENT_SPEC_VERSION, FIELD_PROBLEMS, resolveKind, type FileKind, type Lang } from '@ppfile/rules';
import { MESSAGES } from './i18n';

/** A saved mapping holds at most this many headers (a sheet has far fewer columns). */
export const MAPPING_MAX_ENTRIES = 200;
/** A header text of at most this many characters: a column's title, not a cell's content. */
export const HEADER_MAX_CHARS = 255;

/** A word like `a@b.c`: something before the @, and a dot with something on each side after it. */
function isEmailAddress(word: string): boolean {
  const at = word.indexOf('@');
  const dot = word.lastIndexOf('.');
  return at > 0 && dot > at + 1 && dot < word.length - 1;
}

/**
 * A header that reads like a cell of personal data rather than a column's title: 9 digits or more
 * in it (a NIR, a SIRET, a phone number, spaced or not), an e-mail address, or a date.
 */
export function looksLikePersonalData(header: string): boolean {
  const digits = header.replace(/\D/g, '').length;
  return (
    digits >= 9 ||
    header.split(/\s/).some(isEmailAddress) ||
    /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b/.test(header) ||
    /\b\d{4}-\d{1,2}-\d{1,2}\b/.test(header)
  );
}

/**
 * `type` and `declarant` of a query (the template, the mappings): the kind of file, checked as the API
 * checks it (libs/rules resolveKind: 400 INVALID_REQUEST with the API's words), current spec version.
 */
export function kindOfQuery(query: Record<string, unknown>, lang: Lang): FileKind {
  const text = (v: unknown) => (typeof v === 'string' ? v : '');
  return resolveKind(
    { type: text(query.type), declarant: text(query.declarant), spec_version: CURRENT_SPEC_VERSION },
    lang,
  );
}

/**
 * The body of PUT /dashboard/build/mappings, `{ mapping: { "<header>": "<column>" | null } }`, checked
 * so that only what a mapping is can be kept: at most MAPPING_MAX_ENTRIES headers of 1 to
 * HEADER_MAX_CHARS characters that do not read like a cell of personal data (looksLikePersonalData),
 * each to an official column of this kind or null. A refusal names an
 * entry by its position, never by its text (which, were it a cell, could be a name or a NIR).
 */
export function readMapping(body: unknown, kind: FileKind, lang: Lang): ColumnMappingEntries {
  const t = MESSAGES[lang].build.refusals;
  const fields: { field: string; message: string }[] = [];
  const refuse = () =>
    new ApiError('INVALID_REQUEST', { count: fields.length }, { fields, field_count: fields.length });
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    fields.push({ field: '(body)', message: FIELD_PROBLEMS.type_object[lang] });
    throw refuse();
  }
  for (const key of Object.keys(body))
    if (key !== 'mapping') fields.push({ field: key, message: FIELD_PROBLEMS.unknown[lang] });
  const raw = (body as { mapping?: unknown }).mapping;
  if (raw === undefined) fields.push({ field: 'mapping', message: FIELD_PROBLEMS.required[lang] });
  else if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    fields.push({ field: 'mapping', message: FIELD_PROBLEMS.type_object[lang] });
  if (fields.length) throw refuse();
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > MAPPING_MAX_ENTRIES) {
    fields.push({ field: 'mapping', message: t.mappingTooMany(MAPPING_MAX_ENTRIES) });
    throw refuse();
  }
  const columns = new Set(kind.spec.tables[kind.type].columns.map((c) => c.name));
  const mapping: ColumnMappingEntries = {};
  entries.forEach(([header, column], i) => {
    const n = i + 1;
    if (header.trim() === '') fields.push({ field: 'mapping', message: t.headerEmpty(n) });
    else if ([...header].length > HEADER_MAX_CHARS)
      fields.push({ field: 'mapping', message: t.headerTooLong(n, HEADER_MAX_CHARS) });
    else if (looksLikePersonalData(header))
      fields.push({ field: 'mapping', message: t.headerLooksLikeData(n) });
    else if (column !== null && !(typeof column === 'string' && columns.has(column)))
      fields.push({ field: 'mapping', message: t.unknownColumn(n) });
    else mapping[header] = column;
  });
  if (fields.length) throw refuse();
  return mapping;
}
