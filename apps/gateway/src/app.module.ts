import { Module } from '@nestjs/common';
import { HealthController } from './health/health.controller';

/** The HTTP API. This first version serves only its health check; the endpoints of SERVICE.md §4 come next. */
@Module({ controllers: [HealthController] })
export class AppModule {}
