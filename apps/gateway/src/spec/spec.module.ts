import { Module } from '@nestjs/common';
import { SpecController } from './spec.controller';

/** /v1/spec: format versions, their tables and reference lists (API.md §9). */
@Module({ controllers: [SpecController] })
export class SpecModule {}
