import { Controller, Get, Inject, Param, Req, Res, StreamableFile, UsePipes } from '@nestjs/common';
import type { Response } from 'express';
import { CURRENT_SPEC_VERSION, describeSpec, findSpec, searchReferences, SPEC_VERSIONS } from '@ppfile/rules';
import { ReferenceDirectory } from '@ppfile/refdata';
import { template, templateFileName, TEMPLATE_CONTENT_TYPE } from '@ppfile/sheets';
import type { GatewayRequest } from '../common/request-context';
import { ApiValidationPipe, PathAndQuery } from '../common/validation';
import { ReferenceSearch, SpecVersionParams, TemplateRequest } from './dto/format-params.dto';

/**
 * Its OpenAPI description (statuses, bodies, headers, examples) is libs/contract openapi.ts; its
 * parameters are checked by their DTOs (dto/format-params.dto.ts) before a handler runs.
 */
@Controller('v1/spec')
@UsePipes(ApiValidationPipe)
export class FormatController {
  constructor(@Inject(ReferenceDirectory) private readonly referenceData: ReferenceDirectory) {}

  @Get()
  versions(): { current: string; versions: readonly string[] } {
    return { current: CURRENT_SPEC_VERSION, versions: SPEC_VERSIONS };
  }

  @Get(':version')
  describe(@Param() { version }: SpecVersionParams): ReturnType<typeof describeSpec> {
    return describeSpec(findSpec(version)!, this.referenceData.lists(version));
  }

  @Get(':version/references/:list')
  references(
    @PathAndQuery() { version, list, q, limit, cursor }: ReferenceSearch,
  ): ReturnType<typeof searchReferences> {
    return searchReferences(this.referenceData.lists(version), list, { q, limit, cursor });
  }

  /** The XLSX template of one kind of file (API.md §14): official headers, French labels, drop-downs. Free. */
  @Get(':version/template')
  template(
    @PathAndQuery() { version, type, declarant }: TemplateRequest,
    @Req() req: GatewayRequest,
    @Res({ passthrough: true }) res: Response,
  ): StreamableFile {
    const bytes = template(type, declarant, version, req.lang);
    res.setHeader('Content-Type', TEMPLATE_CONTENT_TYPE);
    res.setHeader(
      'Content-Disposition',
      `attachment; filename="${templateFileName(type, declarant, version)}"`,
    );
    return new StreamableFile(bytes);
  }
}
