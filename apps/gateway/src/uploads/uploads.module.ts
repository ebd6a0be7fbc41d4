import { Module } from '@nestjs/common';
import { RulesPool } from './rules-pool';
import { UploadWork } from './upload-work';

/**
 * What /v1/files and /v1/declarations both stand on for the bytes they are sent: the multipart
 * reader (upload-body.middleware.ts, ordered by AppModule), the upload forms (dto/), the rules
 * threads (RulesPool over rules.worker.ts: large declaration bodies, every import and fix) and where
 * the work on an upload runs (UploadWork: a rules thread or a worker). One pool for the process.
 */
@Module({
  providers: [RulesPool, UploadWork],
  exports: [RulesPool, UploadWork],
})
export class UploadsModule {}
