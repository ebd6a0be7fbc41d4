import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { Response } from 'express';
import { HealthChecks, readinessAnswer, withLocalCheck } from '@ppfile/infra';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';
import { BodyBudget } from '../common/body-budget';

/**
 * Health (API.md §13): `/health/live` says the process runs; `/health/ready` that PostgreSQL, Redis
 * and the object store answer and that no request body is held past its time (body-budget.ts) —
 * otherwise 503 naming the ones down, so that a load balancer stops sending traffic. `/health` is kept for existing probes.
 */
@Controller('health')
export class HealthController {
  constructor(
    @Inject(HealthChecks) private readonly checks: HealthChecks,
    @Inject(BodyBudget) private readonly bodies: BodyBudget,
  ) {}

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
    // A body held past any answer's time is a leak of the memory budget: restart rather than 503 forever.
    const answer = readinessAnswer(
      withLocalCheck(await this.checks.readiness(), 'body_budget', !this.bodies.isStuck()),
    );
    res.status(answer.status);
    for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
    return answer.body;
  }
}
