import { Inject, Injectable } from '@nestjs/common';
import { ApiError } from '@ppfile/contract';
import { monthOf, PLANS, UnitLedger } from '@ppfile/db';
import { Clock } from '@ppfile/infra';
import type { Principal } from '../common/request-context';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/** Units (or, for a test key, test rows) held for one request; null when nothing is counted. */
export type Reservation = { reservationId: string; units: number; mode: 'live' | 'test' } | null;

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
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Live keys reserve units against the plan's monthly quota. Test keys never consume units, but
   * the rows they generate are held against the organization's test allowance (TEST_ROWS_PER_MONTH,
   * API.md §10): test keys are for trying the API, not a free way to produce files. Validations with
   * a test key count nothing (`produces: false`).
   */
  async reserve(
    principal: Principal,
    units: number,
    options: { produces?: boolean } = {},
  ): Promise<Reservation> {
    if (units === 0) return null;
    const test = principal.mode === 'test';
    if (test && !options.produces) return null;
    const limit = test ? this.config.testRowsPerMonth : PLANS[principal.organization.plan].monthlyUnits;
    const r = await this.ledger.reserve({
      organizationId: principal.organization.id,
      month: monthOf(this.clock.now()),
      units,
      limit,
      mode: principal.mode,
    });
    if (!r.ok) {
      throw new ApiError(
        'QUOTA_EXCEEDED',
        { limit, count: units, mode: principal.mode },
        { used: r.used, limit, requested: units, ...(test ? { mode: 'test' } : {}) },
      );
    }
    return { reservationId: r.reservationId, units, mode: principal.mode };
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
