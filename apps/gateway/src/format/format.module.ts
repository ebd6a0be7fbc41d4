import { Module } from '@nestjs/common';
import { FormatController } from './format.controller';

/** /v1/spec: format versions, their tables and reference lists (API.md §9). */
@Module({ controllers: [FormatController] })
export class FormatModule {}
