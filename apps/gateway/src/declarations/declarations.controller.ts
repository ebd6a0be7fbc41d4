import { Body, Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { parisDay, validateDeclarations, type DeclarationValidationResponse } from '@ppfile/rules';
import type { GatewayRequest } from '../common/request-context';
import { Clock } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import { rowLimit } from '../limits/row-limit';
import { DECLARATION_BODY_SCHEMA } from './declaration-body.schema';

@ApiTags('declarations')
@ApiBearerAuth()
@Controller('v1/declarations')
export class DeclarationsController {
  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Clock) private readonly clock: Clock,
  ) {}

  /** SERVICE.md §4.1: free for every key; the rules are libs/rules' (the gateway adds none). */
  @Post('validate')
  @HttpCode(200)
  @ApiOperation({ summary: 'Validate a declaration body (JSON) without producing a file; free of charge' })
  @ApiBody({ schema: DECLARATION_BODY_SCHEMA })
  validate(@Req() req: GatewayRequest, @Body() body: unknown): DeclarationValidationResponse {
    return validateDeclarations(body, {
      refs: this.references.listsFor((body as { spec_version?: unknown } | null)?.spec_version),
      today: parisDay(this.clock.now()),
      lang: req.lang,
      maxRows: rowLimit(req.principal!),
    });
  }
}
