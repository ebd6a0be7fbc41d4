import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { parisDay, type DeclarationValidationResponse } from '@ppfile/rules';
import type { GatewayRequest } from '../common/request-context';
import { Clock } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import { rowLimit } from '../limits/row-limit';
import { RulesPool } from './rules-pool';
import { validateBody } from './rules-task';

/** Its OpenAPI description (statuses, bodies, headers, examples) is libs/contract openapi.ts. */
@Controller('v1/declarations')
export class DeclarationsController {
  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(RulesPool) private readonly pool: RulesPool,
  ) {}

  /** SERVICE.md §4.1: free for every key; the rules are libs/rules' (the gateway adds none). */
  @Post('validate')
  @HttpCode(200)
  async validate(@Req() req: GatewayRequest, @Body() body: unknown): Promise<DeclarationValidationResponse> {
    const today = parisDay(this.clock.now());
    const maxRows = rowLimit(req.principal!);
    // A large body was read as bytes only: it is parsed and validated off the event loop.
    if (req.deferredJson && req.rawBody)
      return this.pool.validate({ body: req.rawBody, lang: req.lang, maxRows, today });
    return validateBody(body, { lang: req.lang, maxRows, today }, this.references);
  }
}
