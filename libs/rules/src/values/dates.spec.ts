import {
  daysInMonth,
  formatFrDate,
  formatIsoDate,
  isValidDay,
  parisDay,
  parseFrDate,
  parseIsoDate,
  hasFrDateShape,
  hasIsoDateShape,
  padFrDate,
} from './dates';

describe('leap years and impossible days', () => {
  it.each([
    [2024, 29],
    [2025, 28],
    [2000, 29],
    [1900, 28],
    [2100, 28],
    [2028, 29],
  ])('February %i has %i days', (year, days) => {
    expect(daysInMonth(year, 2)).toBe(days);
  });

  it('knows the 30-day months', () => {
    expect([1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].map((m) => daysInMonth(2026, m))).toEqual([
      31, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
    ]);
  });

  it('refuses out-of-range parts', () => {
    expect(isValidDay(2026, 0, 1)).toBe(false);
    expect(isValidDay(2026, 13, 1)).toBe(false);
    expect(isValidDay(2026, 1, 0)).toBe(false);
    expect(isValidDay(1899, 12, 31)).toBe(false);
    expect(isValidDay(1900, 1, 1)).toBe(true);
  });
});

describe('parseFrDate', () => {
  it.each([
    ['29/02/2024', 20240229],
    ['29/02/2000', 20000229],
    ['01/01/2026', 20260101],
    ['31/12/2026', 20261231],
    ['30/04/2026', 20260430],
  ])('%s → %i', (text, day) => {
    expect(parseFrDate(text)).toBe(day);
  });

  it.each(['29/02/2025', '29/02/1900', '31/02/2026', '31/04/2026', '00/01/2026', '01/13/2026', '32/01/2026'])(
    'refuses the impossible date %s',
    (text) => {
      expect(parseFrDate(text)).toBeNull();
    },
  );

  it.each([
    '1/02/2026',
    '01/2/2026',
    '01/02/26',
    '2026-02-01',
    '01-02-2026',
    ' 01/02/2026',
    '01/02/2026 ',
    '',
  ])('refuses the malformed date %j', (text) => {
    expect(parseFrDate(text)).toBeNull();
  });
});

describe('parseIsoDate', () => {
  it('reads YYYY-MM-DD', () => {
    expect(parseIsoDate('2024-02-29')).toBe(20240229);
    expect(parseIsoDate('2026-09-14')).toBe(20260914);
  });

  it('refuses impossible and malformed dates', () => {
    expect(parseIsoDate('2025-02-29')).toBeNull();
    expect(parseIsoDate('2026-02-31')).toBeNull();
    expect(parseIsoDate('2026-9-14')).toBeNull();
    expect(parseIsoDate('14/09/2026')).toBeNull();
    expect(parseIsoDate('2026-09-14T00:00:00Z')).toBeNull();
  });
});

describe('formatting', () => {
  it('writes dd/mm/yyyy and YYYY-MM-DD with zero padding', () => {
    expect(formatFrDate(20260105)).toBe('05/01/2026');
    expect(formatFrDate(20261231)).toBe('31/12/2026');
    expect(formatIsoDate(20260105)).toBe('2026-01-05');
  });

  it('round-trips through parseFrDate', () => {
    for (const day of [20240229, 20260101, 20271130]) expect(parseFrDate(formatFrDate(day))).toBe(day);
  });
});

describe('parisDay', () => {
  it.each([
    ['2026-11-21T23:30:00Z', 20261122],
    ['2026-11-21T22:59:59Z', 20261121],
    ['2026-11-21T23:00:00Z', 20261122],
    ['2026-07-01T21:59:59Z', 20260701],
    ['2026-07-01T22:30:00Z', 20260702],
    ['2026-12-31T23:00:00Z', 20270101],
    ['2026-03-29T00:30:00Z', 20260329],
  ])('%s is %i in Paris', (iso, day) => {
    expect(parisDay(new Date(iso))).toBe(day);
  });

  it('gives the time zone database’s day at every quarter hour of 2026 and 2027 (the hours before 22:00 UTC are read from UTC)', () => {
    const paris = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }); // YYYY-MM-DD
    const start = Date.UTC(2026, 0, 1);
    for (let t = start; t < Date.UTC(2028, 0, 1); t += 15 * 60_000) {
      const at = new Date(t);
      const expected = Number(paris.format(at).replace(/-/g, ''));
      if (parisDay(at) !== expected) throw new Error(`${at.toISOString()}: ${parisDay(at)}, not ${expected}`);
    }
  });
});

describe('date shapes (the shape only; the checker judges the day)', () => {
  it('hasFrDateShape and hasIsoDateShape', () => {
    expect(hasFrDateShape('31/02/2026')).toBe(true);
    expect(hasFrDateShape('5/1/2026')).toBe(false);
    expect(hasFrDateShape('05-01-2026')).toBe(false);
    expect(hasFrDateShape('0a/01/2026')).toBe(false);
    expect(hasIsoDateShape('2026-02-31')).toBe(true);
    expect(hasIsoDateShape('2026-2-3')).toBe(false);
  });

  it('padFrDate writes d/m/yyyy as dd/mm/yyyy, and nothing else', () => {
    expect(padFrDate('5/1/2026')).toBe('05/01/2026');
    expect(padFrDate('15/1/2026')).toBe('15/01/2026');
    expect(padFrDate('5/11/2026')).toBe('05/11/2026');
    expect(padFrDate('05/01/2026')).toBe('05/01/2026');
    expect(padFrDate('31/2/2026')).toBe('31/02/2026');
    for (const text of [
      '5/1/26',
      '/1/2026',
      '5//2026',
      '123/1/2026',
      '5/1/2026 ',
      'a/1/2026',
      '5/1/20x6',
      '5-1-2026',
    ])
      expect(padFrDate(text)).toBeNull();
  });
});
