import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthChecks, type Readiness } from '@ppfile/infra';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';

/**
 * Health (API.md §13): `/health/live` says the process runs; `/health/ready` that PostgreSQL, Redis
 * and the object store answer — otherwise 503 naming the ones down, so that a load balancer stops
 * sending traffic. `/health` is kept for existing probes.
 */
@Controller('health')
export class HealthController {
  constructor(@Inject(HealthChecks) private readonly checks: HealthChecks) {}

  @Get()
  health(): { status: 'ok'; spec_version: string } {
    return { status: 'ok', spec_version: CURRENT_SPEC_VERSION };
  }

  @Get('live')
  live(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready(@Res({ passthrough: true }) res: Response): Promise<{ status: 'ready' | 'unavailable' } & Omit<Readiness, 'ready'>> {
    const r = await this.checks.readiness();
    res.status(r.ready ? 200 : 503);
    if (!r.ready) res.setHeader('Retry-After', '5');
    return { status: r.ready ? 'ready' : 'unavailable', checks: r.checks, down: r.down };
  }
}
