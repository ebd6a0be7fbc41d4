import { ApiError, REQUEST_FIELD_PROBLEMS } from '@ppfile/contract';
import { Controller, Get, Inject, Param, Query, Req } from '@nestjs/common';
import {
  CURRENT_SPEC_VERSION,
  describeSpec,
  findSpec,
  REFERENCE_LIST_NAMES,
  searchReferences,
  SPEC_VERSIONS,
  type ReferenceListName,
} from '@ppfile/rules';
import { ReferenceDirectory } from '@ppfile/refdata';
import type { GatewayRequest } from '../common/request-context';

/** Its OpenAPI description (statuses, bodies, headers, examples) is libs/contract openapi.ts. */
@Controller('v1/spec')
export class SpecController {
  constructor(@Inject(ReferenceDirectory) private readonly referenceData: ReferenceDirectory) {}

  @Get()
  versions(): { current: string; versions: readonly string[] } {
    return { current: CURRENT_SPEC_VERSION, versions: SPEC_VERSIONS };
  }

  @Get(':version')
  describe(@Param('version') version: string): ReturnType<typeof describeSpec> {
    return describeSpec(this.spec(version), this.referenceData.lists(version));
  }

  @Get(':version/references/:list')
  references(
    @Req() req: GatewayRequest,
    @Param('version') version: string,
    @Param('list') list: string,
    @Query('q') q?: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): ReturnType<typeof searchReferences> {
    this.spec(version);
    if (!REFERENCE_LIST_NAMES.includes(list as ReferenceListName)) throw new ApiError('NOT_FOUND');
    const n = limit === undefined ? undefined : Number(limit);
    if (n !== undefined && (!Number.isInteger(n) || n < 1 || n > 500)) {
      const message = `${REQUEST_FIELD_PROBLEMS.range[req.lang]} 1 ${REQUEST_FIELD_PROBLEMS.range_to[req.lang]} 500`;
      throw new ApiError(
        'INVALID_REQUEST',
        { count: 1 },
        { fields: [{ field: 'limit', message }], field_count: 1 },
      );
    }
    return searchReferences(this.referenceData.lists(version), list as ReferenceListName, {
      q,
      limit: n,
      cursor,
    });
  }

  private spec(version: string) {
    const spec = findSpec(version);
    if (!spec)
      throw new ApiError(
        'UNSUPPORTED_SPEC_VERSION',
        { expected: SPEC_VERSIONS.join(', ') },
        { supported: SPEC_VERSIONS },
      );
    return spec;
  }
}
