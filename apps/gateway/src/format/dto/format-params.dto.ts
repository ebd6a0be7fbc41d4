import { IsOptional } from 'class-validator';
import { ApiError } from '@ppfile/contract';
import {
  DECLARANTS,
  FILE_TYPES,
  findSpec,
  REFERENCE_LIST_NAMES,
  SPEC_VERSIONS,
  type Declarant,
  type FileType,
  type ReferenceListName,
} from '@ppfile/rules';
import { IgnoresUnknown, IntegerFrom, Names, OneOf, OptionalText, Required } from '../../common/validation';

/** A version this gateway does not know: 400 UNSUPPORTED_SPEC_VERSION naming those it does (API.md §6). */
function unsupportedSpecVersion(): ApiError {
  return new ApiError(
    'UNSUPPORTED_SPEC_VERSION',
    { expected: SPEC_VERSIONS.join(', ') },
    { supported: SPEC_VERSIONS },
  );
}

const SpecVersion = () =>
  Names((v) => typeof v === 'string' && findSpec(v) !== undefined, unsupportedSpecVersion);

/** GET /v1/spec/{version}. */
export class SpecVersionParams {
  @SpecVersion()
  version!: string;
}

/**
 * GET /v1/spec/{version}/references/{list}?q=&limit=&cursor= (API.md §9), path and query at once:
 * an unknown version first (400 UNSUPPORTED_SPEC_VERSION), then an unknown list (404), then the
 * query's problems (400 INVALID_REQUEST). Another query parameter is ignored.
 */
@IgnoresUnknown()
export class ReferenceSearch {
  @SpecVersion()
  version!: string;

  @Names((v) => REFERENCE_LIST_NAMES.includes(v as ReferenceListName), () => new ApiError('NOT_FOUND'))
  list!: ReferenceListName;

  @OptionalText()
  q?: string;

  @IsOptional()
  @IntegerFrom(1, 500)
  limit?: number;

  @OptionalText()
  cursor?: string;
}

/**
 * GET /v1/spec/{version}/template?type=&declarant= (API.md §14): an unknown version first (400
 * UNSUPPORTED_SPEC_VERSION), then the query's problems (400 INVALID_REQUEST). Another query
 * parameter is ignored.
 */
@IgnoresUnknown()
export class TemplateRequest {
  @SpecVersion()
  version!: string;

  @Required()
  @OneOf(FILE_TYPES)
  type!: FileType;

  @Required()
  @OneOf(DECLARANTS)
  declarant!: Declarant;
}
