/**
 * Test data only (never imported by production code): the filing timetable of API.md §4 at every
 * boundary of its periods, shared by the unit tests of filingDeadline and of the row checks.
 */
import type { Declarant } from '../format/types';
import type { DayNumber } from '../values/dates';

/**
 * API.md §4's timetable, at every boundary of its periods: the date counted from (training end for
 * adf, validity start for jdr) → the deadline, or null when none applies.
 */
export const DEADLINE_BOUNDARIES: readonly [Declarant, DayNumber, DayNumber | null][] = [
  // training organizations: optional before 01/09/2025
  ['training_organization', 20250601, null],
  ['training_organization', 20250831, null],
  // trainings ended 01/09/2025–31/12/2025 → 30/09/2026 (the portal's FAQ)
  ['training_organization', 20250901, 20260930],
  ['training_organization', 20251015, 20260930],
  ['training_organization', 20251231, 20260930],
  // 2026 → 6 months after the end of the quarter
  ['training_organization', 20260101, 20260930],
  ['training_organization', 20260315, 20260930],
  ['training_organization', 20260316, 20260930],
  ['training_organization', 20260331, 20260930],
  ['training_organization', 20260401, 20261231],
  ['training_organization', 20260630, 20261231],
  ['training_organization', 20260701, 20270331],
  ['training_organization', 20261231, 20270630],
  // from 2027 → 3 months after the end of the quarter
  ['training_organization', 20270101, 20270630],
  ['training_organization', 20270331, 20270630],
  ['training_organization', 20270401, 20270930],
  ['training_organization', 20271231, 20280331],
  ['training_organization', 20280229, 20280630],
  // employers: no obligation before 16/03/2026, whatever the training organizations' dates
  ['employer', 20250831, null],
  ['employer', 20250901, null],
  ['employer', 20251015, null],
  ['employer', 20251231, null],
  ['employer', 20260101, null],
  ['employer', 20260315, null],
  // 16/03/2026–31/12/2026 → 9 months after the end of the quarter
  ['employer', 20260316, 20261231],
  ['employer', 20260331, 20261231],
  ['employer', 20260401, 20270331],
  ['employer', 20260630, 20270331],
  ['employer', 20260701, 20270630],
  ['employer', 20261231, 20270930],
  // from 2027 → 6 months after the end of the quarter
  ['employer', 20270101, 20270930],
  ['employer', 20270331, 20270930],
  ['employer', 20270401, 20271231],
  ['employer', 20271231, 20280630],
  ['employer', 20280229, 20280930],
];
