/**
 * Lines after the header of an uploaded CSV: an upper bound of its rows, known before any analysis
 * (the quota's reservation and the line limit of POST /v1/files/validate and /fix, and the
 * dashboard's Try it).
 */
export function countDataLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let lines = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  if (bytes[bytes.length - 1] !== 10) lines++;
  return Math.max(0, lines - 1);
}
