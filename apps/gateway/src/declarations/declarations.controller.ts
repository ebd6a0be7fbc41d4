import { Body, Controller, HttpCode, Inject, Post, Req, UploadedFile, UsePipes } from '@nestjs/common';
import { parisDay, type DeclarationValidationResponse } from '@ppfile/rules';
import type { ImportResult } from '@ppfile/sheets';
import { Clock } from '@ppfile/infra';
import { ReferenceDirectory } from '@ppfile/refdata';
import { ApiValidationPipe } from '../common/validation';
import type { GatewayRequest } from '../common/request-context';
import { rowLimit } from '../limits/row-limit';
import { ImportForm, UploadFormFields } from '../uploads/dto/upload-form.dto';
import { RulesPool } from '../uploads/rules-pool';
import { validateBody } from '../uploads/rules-task';
import { UploadWork } from '../uploads/upload-work';

/** Its OpenAPI description (statuses, bodies, headers, examples) is libs/contract openapi.ts. */
@Controller('v1/declarations')
export class DeclarationsController {
  constructor(
    @Inject(ReferenceDirectory) private readonly references: ReferenceDirectory,
    @Inject(Clock) private readonly clock: Clock,
    @Inject(RulesPool) private readonly pool: RulesPool,
    @Inject(UploadWork) private readonly uploads: UploadWork,
  ) {}

  /** SERVICE.md §4.1: free for every key; the rules are libs/rules' (the gateway adds none). */
  @Post('validate')
  @HttpCode(200)
  async validate(@Req() req: GatewayRequest, @Body() body: unknown): Promise<DeclarationValidationResponse> {
    const today = parisDay(this.clock.now());
    const maxRows = rowLimit(req.principal!);
    // A large body was read as bytes only: it is parsed and validated off the event loop.
    if (req.deferredJson && req.rawBody)
      return this.pool.run(
        { kind: 'validate', body: req.rawBody, lang: req.lang, maxRows, today },
        req.principal!.organization.id,
      );
    return validateBody(body, { lang: req.lang, maxRows, today }, this.references);
  }

  /**
   * API.md §14: a spreadsheet (XLSX, CSV or TSV, read in memory by upload-body.middleware.ts; by a
   * worker or a rules thread when it is large: UploadWork) into the body generate takes, each
   * value's cell named. Free.
   */
  @Post('import')
  @UsePipes(ApiValidationPipe)
  @HttpCode(200)
  async import(
    @Req() req: GatewayRequest,
    @UploadedFile() file: { buffer: Buffer; originalname: string },
    @UploadFormFields() form: ImportForm,
  ): Promise<ImportResult> {
    return this.uploads.run(
      {
        kind: 'import',
        form: {
          type: form.type,
          declarant: form.declarant,
          spec_version: form.spec_version,
          strict_references: form.strict_references !== 'false',
          sheet: form.sheet,
          mapping: form.mapping,
          filename: file.originalname,
        },
      },
      file.buffer,
      { lang: req.lang, maxRows: rowLimit(req.principal!), today: parisDay(this.clock.now()) },
      req.principal!.organization.id,
    );
  }
}
