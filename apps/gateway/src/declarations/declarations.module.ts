import { Module } from '@nestjs/common';
import { DeclarationsController } from './declarations.controller';
import { RulesPool } from './rules-pool';

/** /v1/declarations/validate: free, the rules of libs/rules and nothing else. */
@Module({ controllers: [DeclarationsController], providers: [RulesPool] })
export class DeclarationsModule {}
