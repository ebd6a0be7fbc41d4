import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Req,
  Res,
  UploadedFile,
  UsePipes,
} from '@nestjs/common';
import type { Response } from 'express';
import type { FileValidationResponse, FixResponse } from '@ppfile/rules';
import { ApiError, REQUEST_FIELD_PROBLEMS } from '@ppfile/contract';
import type { GatewayRequest } from '../common/request-context';
import { ApiValidationPipe } from '../common/validation';
import { FileReader, PROCESSING_RETRY_AFTER_SECONDS } from './file-reader';
import { GenerateService } from './generate.service';
import { UploadForm, UploadFormFields } from '../uploads/dto/upload-form.dto';
import { FileIdParams } from './dto/files.dto';
import { UploadValidation } from './upload-validation';
import type { Reply } from './reply';

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * Its OpenAPI description (statuses, bodies, headers, examples) is libs/contract openapi.ts. Its DTOs
 * (route parameters, upload forms) go through ApiValidationPipe, route by route: generate, whose body
 * libs/rules reads, pays for no pipe.
 */
@Controller('v1/files')
export class FilesController {
  constructor(
    @Inject(GenerateService) private readonly generation: GenerateService,
    @Inject(UploadValidation) private readonly uploads: UploadValidation,
    @Inject(FileReader) private readonly reader: FileReader,
  ) {}

  @Post('generate')
  async generate(
    @Req() req: GatewayRequest,
    @Res({ passthrough: true }) res: Response,
    @Body() body: unknown,
    @Headers('idempotency-key') idempotencyKey?: string,
  ): Promise<Reply['body']> {
    if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new ApiError(
        'INVALID_REQUEST',
        { count: 1 },
        {
          fields: [{ field: 'Idempotency-Key', message: REQUEST_FIELD_PROBLEMS.idempotency_key[req.lang] }],
          field_count: 1,
        },
      );
    }
    const respondAsync = /(^|[,;\s])respond-async\b/i.test(req.header('prefer') ?? '');
    const reply = await this.generation.generate({
      principal: req.principal!,
      lang: req.lang,
      body,
      rawBody: req.rawBody,
      idempotencyKey,
      call: { requestId: req.requestId, respondAsync },
    });
    if (reply.replayed) res.setHeader('Idempotent-Replayed', 'true');
    if (reply.location) res.setHeader('Location', reply.location);
    if (respondAsync && reply.status === 202) res.setHeader('Preference-Applied', 'respond-async');
    if (reply.status === 202) res.setHeader('Retry-After', String(PROCESSING_RETRY_AFTER_SECONDS));
    res.status(reply.status);
    return reply.body;
  }

  @Post('validate')
  @UsePipes(ApiValidationPipe)
  @HttpCode(200)
  // The form was read in memory (never on disk, SERVICE.md §4.3) by upload-body.middleware.ts; its
  // fields and the presence of its file are checked by UploadForm (the global ValidationPipe).
  async validate(
    @Req() req: GatewayRequest,
    @UploadedFile() file: { buffer: Buffer; originalname: string },
    @UploadFormFields() form: UploadForm,
  ): Promise<FileValidationResponse> {
    return this.uploads.validate({ principal: req.principal!, lang: req.lang, upload: file, form });
  }

  @Post('fix')
  @UsePipes(ApiValidationPipe)
  @HttpCode(200)
  // The same form as validate (upload-body.middleware.ts reads it in memory; UploadForm checks it).
  async fix(
    @Req() req: GatewayRequest,
    @UploadedFile() file: { buffer: Buffer; originalname: string },
    @UploadFormFields() form: UploadForm,
  ): Promise<FixResponse> {
    return this.uploads.fix({ principal: req.principal!, lang: req.lang, upload: file, form });
  }

  @Get(':id')
  @UsePipes(ApiValidationPipe)
  metadata(@Req() req: GatewayRequest, @Param() { id }: FileIdParams): Promise<Record<string, unknown>> {
    return this.reader.metadata(req.principal!, id);
  }

  @Get(':id/download')
  @UsePipes(ApiValidationPipe)
  async download(
    @Req() req: GatewayRequest,
    @Res() res: Response,
    @Param() { id }: FileIdParams,
  ): Promise<void> {
    const file = await this.reader.download(req.principal!, id);
    const etag = `"${file.sha256}"`;
    // A conditional GET for the file the client already has: 304, no body (RFC 9110 §13.1.2).
    const match = req.header('if-none-match');
    if (
      match !== undefined &&
      (match.trim() === '*' || match.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
    ) {
      res.status(304).setHeader('ETag', etag);
      res.end();
      return;
    }
    res.status(200);
    res.setHeader('Content-Type', 'text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', `attachment; filename="${file.filename}"`);
    res.setHeader('ETag', etag);
    res.setHeader('Content-Length', String(file.content.length));
    res.end(file.content);
  }
}
