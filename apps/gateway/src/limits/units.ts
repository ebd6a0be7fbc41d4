import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@ppfile/contract';
import { monthOf, PLANS, UnitLedger } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import type { Principal } from '../common/request-context';

/** Units held for one request; null for a test key, which never counts (API.md §10). */
export type Reservation = { reservationId: string; units: number } | null;

/**
 * Monthly quotas (SERVICE.md §8) over the units ledger: an accepted request reserves its units
 * atomically and never past the plan's limit; they are committed when the file is produced or the
 * rows analysed, and released otherwise — each exactly once, whichever path ends the work.
 */
@Injectable()
export class Units {
  constructor(
    @Inject(UnitLedger) private readonly ledger: UnitLedger,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async reserve(principal: Principal, units: number, options: { fileId?: string } = {}): Promise<Reservation> {
    if (principal.mode === 'test' || units === 0) return null;
    const limit = PLANS[principal.organization.plan].monthlyUnits;
    const r = await this.ledger.reserve({
      organizationId: principal.organization.id,
      month: monthOf(this.clock.now()),
      units,
      limit,
      fileId: options.fileId,
    });
    if (!r.ok) throw new ApiError('QUOTA_EXCEEDED', { limit, count: units }, { used: r.used, limit, requested: units });
    return { reservationId: r.reservationId, units };
  }

  /** Keeps `keep` of the units (all when absent); a reservation kept at 0 is released instead. */
  async commit(reservation: Reservation, keep?: number): Promise<void> {
    if (!reservation) return;
    if (keep === 0) return this.release(reservation);
    await this.ledger.commit({ reservationId: reservation.reservationId }, keep);
  }

  async release(reservation: Reservation): Promise<void> {
    if (reservation) await this.ledger.release({ reservationId: reservation.reservationId });
  }
}
