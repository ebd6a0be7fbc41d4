import { readFileSync } from 'node:fs';
import { REFERENCE_CODE_FORMATS, type ReferenceListName } from '@ppfile/rules/references';
import { ReferenceDataError } from './errors';

/**
 * The list files of reference-data/: `code<TAB>label` per line, LF, sorted by code, no header. A plain
 * format that diffs well in review and loads with one split per line (18,317 ROME codes in a few ms).
 */

export function readListFile(
  file: string,
  list: ReferenceListName,
  expectedCount: number,
): Map<string, string> {
  return parseListFile(readListText(file, list), file, list, expectedCount);
}

/**
 * The codes of a list file without its labels, for a validation (which only asks whether a code is
 * in the list): the bytes are read as Latin-1 — a code is ASCII, and neither a tab nor a line feed
 * can be part of a UTF-8 character — and the labels are never decoded nor kept. The file is held to
 * readListFile's rules (the manifest's count, one well-formed code a line, no duplicate): a file
 * that breaks one is parsed as readListFile parses it, so that it fails with the same error.
 */
export function readListCodes(file: string, list: ReferenceListName, expectedCount: number): Set<string> {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    throw new ReferenceDataError(`cannot read ${list} reference list ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const format = REFERENCE_CODE_FORMATS[list];
  const codes = new Set<string>();
  let lines = 0;
  let wellFormed = true;
  for (let start = 0; start < text.length; lines++) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    const tab = text.indexOf('\t', start);
    if (tab < 0 || tab > end) {
      wellFormed = false;
      break;
    }
    const code = text.slice(start, tab);
    if (!format.test(code)) {
      wellFormed = false;
      break;
    }
    codes.add(code);
    start = end + 1;
  }
  if (wellFormed && lines === expectedCount && codes.size === lines) return codes;
  // Not as an import writes it: the full parse finds the line and says what is wrong with it.
  return new Set(parseListFile(readListText(file, list), file, list, expectedCount).keys());
}

export function readListText(file: string, list: ReferenceListName): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new ReferenceDataError(`cannot read ${list} reference list ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
}

export function parseListFile(
  text: string,
  file: string,
  list: ReferenceListName,
  expectedCount: number,
): Map<string, string> {
  const lines = text === '' ? [] : text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  if (lines.length !== expectedCount) {
    // The usual cause is a list file replaced by hand, or an import interrupted between its two renames.
    throw new ReferenceDataError(
      `${list} reference list ${file} has ${lines.length} lines but the manifest says count ${expectedCount}`,
    );
  }
  const format = REFERENCE_CODE_FORMATS[list];
  const entries = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i] ?? '';
    if (line.endsWith('\r')) line = line.slice(0, -1);
    const tab = line.indexOf('\t');
    const code = tab === -1 ? line : line.slice(0, tab);
    if (tab === -1 || !format.test(code)) {
      throw new ReferenceDataError(
        `malformed ${list} reference list ${file}, line ${i + 1}: expected "code<TAB>label" with a code matching ${format}`,
      );
    }
    if (entries.has(code)) {
      throw new ReferenceDataError(
        `malformed ${list} reference list ${file}, line ${i + 1}: duplicate code ${code}`,
      );
    }
    entries.set(code, line.slice(tab + 1));
  }
  return entries;
}

export function serializeListFile(entries: ReadonlyMap<string, string>): string {
  const keyed = [...entries.keys()].map((code) => [sortKey(code), code] as const);
  keyed.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let out = '';
  for (const [, code] of keyed) out += `${code}\t${cleanLabel(entries.get(code) ?? '')}\n`;
  return out;
}

/** Labels come from quoted CSV fields that may hold tabs and line breaks, which the list format cannot. */
export function cleanLabel(label: string): string {
  return label.replace(/\s+/g, ' ').trim();
}

/** RS numbers have no fixed width: padding the digits sorts RS876 before RS5635, as a reader expects. */
function sortKey(code: string): string {
  return code.replace(/\d+/, (digits) => digits.padStart(12, '0'));
}
