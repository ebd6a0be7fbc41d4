import { Module } from '@nestjs/common';
import { UploadsModule } from '../uploads/uploads.module';
import { DeclarationsController } from './declarations.controller';

/**
 * /v1/declarations/validate and /v1/declarations/import: free, the rules of libs/rules (and the
 * spreadsheet reading of libs/sheets) and nothing else, run where UploadsModule says.
 */
@Module({
  imports: [UploadsModule],
  controllers: [DeclarationsController],
})
export class DeclarationsModule {}
