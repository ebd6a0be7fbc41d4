/** The column mapping an import used, as the import form and the saved mappings take it (API.md §14). */
import type { ImportResult } from '../engine/protocol';
import type { HeaderMapping } from './server';

/** Header text → official column; a header the import did not recognise → null (ignored). */
export function mappingOf(result: ImportResult): HeaderMapping {
  const out: HeaderMapping = {};
  for (const m of result.mapping) out[m.header] = m.column;
  for (const header of result.unmapped_headers) if (!(header in out)) out[header] = null;
  return out;
}

/** Whether two mappings say the same (the order of their headers aside). */
export function sameMapping(a: HeaderMapping, b: HeaderMapping): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && b[k] === a[k]);
}

/**
 * The mapping to import again with: what was given last time, plus each header the person changed
 * since. Headers left as detected stay detected (their "recognised by" keeps saying how).
 */
export function changedMapping(
  draft: HeaderMapping,
  result: ImportResult,
  given: HeaderMapping,
): HeaderMapping {
  const detected = mappingOf(result);
  const out: HeaderMapping = { ...given };
  for (const [header, column] of Object.entries(draft)) if (detected[header] !== column) out[header] = column;
  return out;
}

/**
 * The mapping the page saves for the organization: each header mapped to a column, and each one the
 * person changed (a recognised header set to "ignore", one given before) — not every unrecognised
 * header as null, which would keep texts of the sheet that map to nothing.
 */
export function mappingToSave(
  draft: HeaderMapping,
  result: ImportResult,
  given: HeaderMapping,
): HeaderMapping {
  const recognised = new Set(result.mapping.map((m) => m.header));
  const out: HeaderMapping = {};
  for (const [header, column] of Object.entries(draft))
    if (column !== null || recognised.has(header) || header in given) out[header] = column;
  return out;
}
