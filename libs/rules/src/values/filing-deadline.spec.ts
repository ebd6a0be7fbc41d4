import fc from 'fast-check';
import { DECLARANTS } from '../format/types';
import { DEADLINE_BOUNDARIES } from '../testing/deadline-boundaries';
import { daysInMonth } from './dates';
import { filingDeadline, FILING_TIMETABLE, monthEndAfterQuarter } from './filing-deadline';

describe('filingDeadline (API.md §4 FILING_DEADLINE_PASSED)', () => {
  it.each(DEADLINE_BOUNDARIES)('%s, date %i → %p', (declarant, day, deadline) => {
    expect(filingDeadline(declarant, day)).toBe(deadline);
  });

  it('the timetable starts each declarant at the earliest possible day, its rows in date order', () => {
    for (const declarant of DECLARANTS) {
      const froms = FILING_TIMETABLE.filter((r) => r.declarant === declarant).map((r) => r.from);
      expect(froms[0]).toBe(19000101);
      expect(froms).toEqual([...froms].sort((a, b) => a - b));
      expect(new Set(froms).size).toBe(froms.length);
    }
  });

  it('is never before the end of the quarter of the date it counts from (property)', () => {
    const day = fc
      .record({
        y: fc.integer({ min: 1900, max: 2100 }),
        m: fc.integer({ min: 1, max: 12 }),
        d: fc.integer({ min: 1, max: 31 }),
      })
      .map(({ y, m, d }) => y * 10000 + m * 100 + Math.min(d, daysInMonth(y, m)));
    // Dense around the periods of the timetable, where a mistake would be.
    const recent = fc.integer({ min: 0, max: 4 * 366 }).map((n) => {
      const t = new Date(Date.UTC(2025, 0, 1 + n));
      return t.getUTCFullYear() * 10000 + (t.getUTCMonth() + 1) * 100 + t.getUTCDate();
    });
    fc.assert(
      fc.property(fc.constantFrom(...DECLARANTS), fc.oneof(day, recent), (declarant, date) => {
        const deadline = filingDeadline(declarant, date);
        return deadline === null || deadline >= monthEndAfterQuarter(date, 0);
      }),
      { numRuns: 5000, seed: 26 },
    );
  });
});

describe('monthEndAfterQuarter', () => {
  it.each([
    [20260101, 0, 20260331],
    [20260331, 0, 20260331],
    [20260401, 0, 20260630],
    [20261231, 0, 20261231],
    [20260316, 9, 20261231],
    [20261115, 9, 20270930],
    [20271130, 3, 20280331],
    // months that do not fall on a quarter's end take their own last day, February of a leap year too
    [20271001, 2, 20280229],
    [20261001, 2, 20270228],
  ])('%i + %i months → %i', (day, months, end) => {
    expect(monthEndAfterQuarter(day, months)).toBe(end);
  });
});
