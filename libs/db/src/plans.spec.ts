import { isMonth, isPlanName, monthOf, PLANS } from './plans';

describe('plans', () => {
  it('has the limits of SERVICE.md §8', () => {
    expect(PLANS).toEqual({
      free: { requestsPerMinute: 30, monthlyUnits: 100 },
      starter: { requestsPerMinute: 60, monthlyUnits: 2000 },
      pro: { requestsPerMinute: 300, monthlyUnits: 10000 },
      business: { requestsPerMinute: 600, monthlyUnits: 50000 },
    });
    expect(isPlanName('pro')).toBe(true);
    expect(isPlanName('PRO')).toBe(false);
    expect(isPlanName('toString')).toBe(false);
  });

  it('counts months in UTC, whatever the local time zone says', () => {
    expect(monthOf(new Date('2026-11-30T23:59:59.999Z'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-01T00:00:00.000Z'))).toBe('2026-12');
    // 00:30 on 1 December in Paris is still November in UTC.
    expect(monthOf(new Date('2026-12-01T00:30:00+01:00'))).toBe('2026-11');
    expect(monthOf(new Date('2026-12-31T23:00:00-02:00'))).toBe('2027-01');
  });

  it('recognizes YYYY-MM', () => {
    expect(isMonth('2026-01')).toBe(true);
    expect(isMonth('2026-12')).toBe(true);
    expect(isMonth('2026-13')).toBe(false);
    expect(isMonth('2026-1')).toBe(false);
    expect(isMonth('2026-00')).toBe(false);
  });
});
