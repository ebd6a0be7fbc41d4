/**
 * Calendar dates as integers yyyymmdd: cheap to compare, no time zone involved.
 * The official files write dd/mm/yyyy; JSON input may also use YYYY-MM-DD (SERVICE.md §2.1).
 */

export type DayNumber = number;

export function isValidDay(y: number, m: number, d: number): boolean {
  if (y < 1900 || y > 2999 || m < 1 || m > 12 || d < 1) return false;
  return d <= daysInMonth(y, m);
}

export function daysInMonth(y: number, m: number): number {
  if (m === 2) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 29 : 28;
  return m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31;
}

/** dd/mm/yyyy → yyyymmdd, or null when malformed or impossible. Hot path: no regex, no allocation. */
export function parseFrDate(value: string): DayNumber | null {
  if (value.length !== 10 || value.charCodeAt(2) !== 47 || value.charCodeAt(5) !== 47) return null;
  const d = digits(value, 0, 2);
  const mo = digits(value, 3, 5);
  const y = digits(value, 6, 10);
  if (d < 0 || mo < 0 || y < 0) return null;
  return isValidDay(y, mo, d) ? y * 10000 + mo * 100 + d : null;
}

/** YYYY-MM-DD → yyyymmdd, or null. */
export function parseIsoDate(value: string): DayNumber | null {
  if (value.length !== 10 || value.charCodeAt(4) !== 45 || value.charCodeAt(7) !== 45) return null;
  const y = digits(value, 0, 4);
  const mo = digits(value, 5, 7);
  const d = digits(value, 8, 10);
  if (d < 0 || mo < 0 || y < 0) return null;
  return isValidDay(y, mo, d) ? y * 10000 + mo * 100 + d : null;
}

/**
 * Whether a value is written dd/mm/yyyy (two, two and four digits), possible day or not: the shape
 * the file takes, whose day the checker judges (INVALID_DATE).
 */
export function hasFrDateShape(value: string): boolean {
  return (
    value.length === 10 &&
    value.charCodeAt(2) === 47 &&
    value.charCodeAt(5) === 47 &&
    digits(value, 0, 2) >= 0 &&
    digits(value, 3, 5) >= 0 &&
    digits(value, 6, 10) >= 0
  );
}

/** Whether a value is written YYYY-MM-DD, possible day or not. */
export function hasIsoDateShape(value: string): boolean {
  return (
    value.length === 10 &&
    value.charCodeAt(4) === 45 &&
    value.charCodeAt(7) === 45 &&
    digits(value, 0, 4) >= 0 &&
    digits(value, 5, 7) >= 0 &&
    digits(value, 8, 10) >= 0
  );
}

/**
 * A date as a person types it in a spreadsheet, d/m/yyyy (day and month of one or two digits: 5/1/2026),
 * written dd/mm/yyyy (05/01/2026) — the DATE_REFORMATTED of API.md §5; null when the value is not that
 * shape. Whether the day exists is left to the checker (INVALID_DATE), as for dd/mm/yyyy.
 */
export function padFrDate(value: string): string | null {
  const first = value.indexOf('/');
  const second = value.indexOf('/', first + 1);
  if (first < 1 || first > 2 || second - first < 2 || second - first > 3 || value.length - second !== 5)
    return null;
  const d = digits(value, 0, first);
  const m = digits(value, first + 1, second);
  const y = value.slice(second + 1);
  if (d < 0 || m < 0 || digits(y, 0, 4) < 0) return null;
  return `${pad2(d)}/${pad2(m)}/${y}`;
}

/** The number written by value[start, end), or -1 when a character is not a digit. */
function digits(value: string, start: number, end: number): number {
  let n = 0;
  for (let i = start; i < end; i++) {
    const c = value.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    n = n * 10 + c;
  }
  return n;
}

export function formatFrDate(day: DayNumber): string {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return `${pad2(d)}/${pad2(m)}/${y}`;
}

export function formatIsoDate(day: DayNumber): string {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const d = day % 100;
  return `${y}-${pad2(m)}-${pad2(d)}`;
}

/** Today's date in Europe/Paris: the portal compares training dates to the filing day there. */
export function parisDay(now: Date = new Date()): DayNumber {
  // Paris is UTC+1 or UTC+2 (and never was outside 0 to +2): before 22:00 UTC the day there is the
  // day in UTC, known without the time zone database, whose formatter costs a command line run
  // ~30 ms and ~9 MB to build (docs/benchmarks.md, "The command line's validate").
  if (now.getUTCHours() < 22) {
    return now.getUTCFullYear() * 10000 + (now.getUTCMonth() + 1) * 100 + now.getUTCDate();
  }
  // The day changes at most once a minute: formatting dates in a time zone is costly per request.
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMinute) return lastDay;
  parisFormat ??= new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/Paris',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  });
  const parts = parisFormat.formatToParts(now);
  const get = (t: string): number => Number(parts.find((p) => p.type === t)!.value);
  lastDay = get('year') * 10000 + get('month') * 100 + get('day');
  lastMinute = minute;
  return lastDay;
}
let lastMinute = NaN;
let lastDay = 0;
/** Built when first needed (22:00–24:00 UTC). */
let parisFormat: Intl.DateTimeFormat | undefined;

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
