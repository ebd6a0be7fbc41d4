import type { Declarant } from '../format/types';
import { daysInMonth, type DayNumber } from './dates';

/**
 * When a declaration must be filed at the latest (API.md §4, FILING_DEADLINE_PASSED), counted from
 * the date of the declaration: the training end (adf) or the validity start (jdr), as each kind's
 * table names it (KindTable.deadlineColumn).
 */
export type DeadlineRule =
  /** No obligation to declare yet: no deadline. */
  | { readonly kind: 'none' }
  /** A fixed date, whatever the quarter. */
  | { readonly kind: 'fixed'; readonly day: DayNumber }
  /** The last day of the quarter of the date, plus whole months (its last day again). */
  | { readonly kind: 'after_quarter'; readonly months: number };

export interface TimetableRow {
  readonly declarant: Declarant;
  /**
   * First day of the period of the counted date this row covers. A row ends where the next row of
   * the same declarant starts, so periods cannot overlap or leave a gap.
   */
  readonly from: DayNumber;
  readonly deadline: DeadlineRule;
}

/** The earliest day a date may hold (values/dates isValidDay): where each declarant's first row starts. */
const ALWAYS = 19000101;

/**
 * The filing timetable, declarant × period of the counted date → deadline (API.md §4). Rows of one
 * declarant in ascending `from`. Sources: decree 2022-1712 art. 5–7 as amended by decree 2025-748
 * (base delays: employer 6 months, training organization 3 months; both extended by 3 months until
 * bulk import is available and at the latest 31/12/2026); the portal's FAQ for training
 * organizations; Centre Inffo, 17/03/2026, for employers. A new decree is a new row here.
 */
export const FILING_TIMETABLE: readonly TimetableRow[] = [
  // Decree 2022-1712 as amended by decree 2025-748: declaring trainings ended before 01/09/2025 was optional.
  { declarant: 'training_organization', from: ALWAYS, deadline: { kind: 'none' } },
  // The portal's FAQ for training organizations: trainings ended 01/09/2025–31/12/2025 → 30/09/2026.
  { declarant: 'training_organization', from: 20250901, deadline: { kind: 'fixed', day: 20260930 } },
  // Decree 2022-1712 art. 5–7 as amended by decree 2025-748: 3 months, extended by 3 in 2026.
  { declarant: 'training_organization', from: 20260101, deadline: { kind: 'after_quarter', months: 6 } },
  // Decree 2022-1712 art. 5–7 as amended by decree 2025-748: the base delay, 3 months.
  { declarant: 'training_organization', from: 20270101, deadline: { kind: 'after_quarter', months: 3 } },
  // Centre Inffo, 17/03/2026: the employers' obligation starts on 16/03/2026.
  { declarant: 'employer', from: ALWAYS, deadline: { kind: 'none' } },
  // Centre Inffo, 17/03/2026; decree 2025-748: 6 months, extended by 3 until the end of 2026.
  { declarant: 'employer', from: 20260316, deadline: { kind: 'after_quarter', months: 9 } },
  // Decree 2022-1712 art. 5–7 as amended by decree 2025-748: the base delay, 6 months.
  { declarant: 'employer', from: 20270101, deadline: { kind: 'after_quarter', months: 6 } },
];

/**
 * The legal filing deadline of a declaration of `declarant` whose counted date is `day` (training
 * end for adf, validity start for jdr), or null when none applies (FILING_TIMETABLE).
 */
export function filingDeadline(declarant: Declarant, day: DayNumber): DayNumber | null {
  let rule: DeadlineRule | undefined;
  for (const row of FILING_TIMETABLE) {
    if (row.declarant === declarant && row.from <= day) rule = row.deadline;
  }
  if (rule === undefined) return null;
  switch (rule.kind) {
    case 'none':
      return null;
    case 'fixed':
      return rule.day;
    case 'after_quarter':
      return monthEndAfterQuarter(day, rule.months);
  }
}

/** The last day of the month `months` after the last month of the quarter of `day`. */
export function monthEndAfterQuarter(day: DayNumber, months: number): DayNumber {
  const y = Math.floor(day / 10000);
  const m = Math.floor(day / 100) % 100;
  const quarterEndMonth = Math.ceil(m / 3) * 3;
  const total = y * 12 + (quarterEndMonth - 1) + months;
  const dy = Math.floor(total / 12);
  const dm = (total % 12) + 1;
  return dy * 10000 + dm * 100 + daysInMonth(dy, dm);
}
