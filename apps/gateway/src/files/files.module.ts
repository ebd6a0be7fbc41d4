import { Module } from '@nestjs/common';
import { LimitsModule } from '../limits/limits.module';
import { UploadsModule } from '../uploads/uploads.module';
import { FileProduction } from './file-production';
import { FileReader } from './file-reader';
import { FilesController } from './files.controller';
import { GenerateService } from './generate.service';
import { IdempotentExecution } from './idempotent-execution';
import { UploadValidation } from './upload-validation';

/** /v1/files: generation (idempotent, in process or by a job), upload validation and fix, metadata and download. */
@Module({
  imports: [LimitsModule, UploadsModule],
  controllers: [FilesController],
  providers: [GenerateService, IdempotentExecution, FileProduction, UploadValidation, FileReader],
})
export class FilesModule {}
