import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import type { GatewayConfig } from '../config';
import { CONFIG } from '../infra/tokens';
import { FilesService } from './files.service';

/** Runs the expiry sweep periodically (it moves to a repeatable worker job with the workers issue). */
@Injectable()
export class Sweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger('sweeper');

  constructor(
    @Inject(CONFIG) private readonly config: GatewayConfig,
    @Inject(FilesService) private readonly files: FilesService,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.sweepIntervalSeconds <= 0) return;
    this.timer = setInterval(() => {
      this.files.sweep().catch((e: Error) => this.logger.warn(`sweep failed: ${e.name}`));
    }, this.config.sweepIntervalSeconds * 1000);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
