import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { DECLARANTS, FILE_TYPES, type Declarant, type FileType } from '@ppfile/rules';
import { IsObject } from 'class-validator';
import { OneOf, OptionalText, Required, said, words } from '../../common/validation';
import type { GatewayRequest } from '../../common/request-context';

/** The file part of an upload as the form's DTO sees it: its bytes stay out of class-transformer. */
export interface UploadedPart {
  name: string;
  bytes: number;
}

/**
 * POST /v1/files/validate's and /v1/files/fix's form (SERVICE.md §4.3, read by upload-body.middleware.ts): the file and
 * the text fields. Any other field is refused, as an unknown JSON field is. The spec version is
 * looked up by libs/rules (400 UNSUPPORTED_SPEC_VERSION, not INVALID_REQUEST).
 */
export class UploadForm {
  /** A text field named `file` is not the file: not a known field, as before. */
  @Required()
  @IsObject(said(words('unknown')))
  file?: UploadedPart;

  @Required()
  @OneOf(FILE_TYPES)
  type!: FileType;

  @Required()
  @OneOf(DECLARANTS)
  declarant!: Declarant;

  @OptionalText()
  spec_version?: string;

  @OptionalText()
  @OneOf(['true', 'false'])
  strict_references?: 'true' | 'false';
}

/**
 * POST /v1/declarations/import's form (API.md §14): the upload's, and the sheet to read and the
 * headers' mapping (JSON text, read by libs/sheets). Any other field is refused.
 */
export class ImportForm extends UploadForm {
  @OptionalText()
  sheet?: string;

  @OptionalText()
  mapping?: string;
}

/** The upload's text fields with its file part (name and size only), for UploadForm. */
export const UploadFormFields = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const req = ctx.switchToHttp().getRequest<GatewayRequest & { file?: Express.Multer.File }>();
  const fields = (req.body ?? {}) as Record<string, unknown>;
  const part = req.file
    ? ({ name: req.file.originalname, bytes: req.file.size } satisfies UploadedPart)
    : undefined;
  return { ...fields, file: 'file' in fields ? fields.file : part };
});
