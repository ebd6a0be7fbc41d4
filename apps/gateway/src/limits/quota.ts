import { Inject, Injectable } from '@nestjs/common';
import { monthOf, PLANS, type Stores } from '@ppfile/db';
import { ApiError } from '../common/api-error';
import type { Principal } from '../common/request-context';
import { Clock } from '../infra/clock';
import { STORES } from '../infra/tokens';

/** Units held for a request; `units` is 0 for a test key, which never counts (API.md §10). */
export interface Reservation {
  organizationId: string;
  month: string;
  units: number;
}

/**
 * Monthly quotas (SERVICE.md §8): units are reserved before the work, atomically and never past
 * the plan's limit, then kept when the file is produced or the rows analysed, and given back
 * otherwise. A refused request counts nothing.
 */
@Injectable()
export class Quota {
  constructor(
    @Inject(STORES) private readonly stores: Stores,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  async reserve(principal: Principal, units: number): Promise<Reservation> {
    const month = monthOf(this.clock.now());
    const organizationId = principal.organization.id;
    if (principal.mode === 'test' || units === 0) return { organizationId, month, units: 0 };
    const limit = PLANS[principal.organization.plan].monthlyUnits;
    const r = await this.stores.usage.reserveUnits(organizationId, month, units, limit);
    if (!r.ok) {
      throw new ApiError('QUOTA_EXCEEDED', { limit, count: units }, { used: r.used, limit, requested: units });
    }
    return { organizationId, month, units };
  }

  /** Keeps `kept` units of the reservation and gives the rest back. */
  async settle(reservation: Reservation, kept: number): Promise<void> {
    const back = reservation.units - Math.min(kept, reservation.units);
    if (back > 0) await this.stores.usage.releaseUnits(reservation.organizationId, reservation.month, back);
  }
}
