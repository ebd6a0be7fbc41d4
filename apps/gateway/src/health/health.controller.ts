import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthChecks, readinessAnswer } from '@ppfile/infra';
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
  async ready(
    @Res({ passthrough: true }) res: Response,
  ): Promise<ReturnType<typeof readinessAnswer>['body']> {
    const answer = readinessAnswer(await this.checks.readiness());
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    return answer.body;
  }
}
