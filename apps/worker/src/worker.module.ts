import { Module } from '@nestjs/common';

/** Queue processors (generate, validate-file) arrive with the workers issue. */
@Module({})
export class WorkerModule {}
