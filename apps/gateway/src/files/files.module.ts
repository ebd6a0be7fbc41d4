import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module';
import { UploadsModule } from '../uploads/uploads.module';
import { DashboardFileGenerator } from './dashboard-file-generator';
import { FileReader } from './file-reader';
import { FilesController } from './files.controller';
import { GenerateService } from './generate.service';
import { IdempotencyKeys } from './idempotency-keys';
import { UploadValidation } from './upload-validation';

/**
 * /v1/files: generation (idempotent, in process or by a job), upload validation and fix, metadata and
 * download — and the dashboard's Generate through the same use-case (DashboardFileGenerator).
 */
@Module({
  imports: [LimitsModule, UploadsModule],
  controllers: [FilesController],
  providers: [GenerateService, IdempotencyKeys, UploadValidation, FileReader, DashboardFileGenerator],
  exports: [DashboardFileGenerator],
})
export class FilesModule {}
