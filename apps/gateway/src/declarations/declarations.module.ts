import { Module } from '@nestjs/common';
import { DeclarationsController } from './declarations.controller';

/** /v1/declarations/validate: free, the rules of libs/rules and nothing else. */
@Module({ controllers: [DeclarationsController] })
export class DeclarationsModule {}
