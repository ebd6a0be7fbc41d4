import { Module } from '@nestjs/common';
import { DeclarationsController } from './declarations.controller';
import { RulesPool } from './rules-pool';
import { UploadWork } from './upload-work';

/**
 * /v1/declarations/validate and /v1/declarations/import: free, the rules of libs/rules (and the
 * spreadsheet reading of libs/sheets) and nothing else; the rules threads serve /v1/files/fix too.
 */
@Module({
  controllers: [DeclarationsController],
  providers: [RulesPool, UploadWork],
  exports: [UploadWork],
})
export class DeclarationsModule {}
