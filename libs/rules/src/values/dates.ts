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
  // The day changes at most once a minute: formatting dates in a time zone is costly per request.
  const minute = Math.floor(now.getTime() / 60_000);
  if (minute === lastMinute) return lastDay;
  const parts = PARIS_FORMAT.formatToParts(now);
  const get = (t: string): number => Number(parts.find((p) => p.type === t)!.value);
  lastDay = get('year') * 10000 + get('month') * 100 + get('day');
  lastMinute = minute;
  return lastDay;
}
let lastMinute = NaN;
let lastDay = 0;
const PARIS_FORMAT = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/Paris',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
