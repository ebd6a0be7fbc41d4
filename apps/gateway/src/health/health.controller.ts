import { Controller, Get } from '@nestjs/common';
import { CURRENT_SPEC_VERSION } from '@ppfile/rules';

@Controller('health')
export class HealthController {
  @Get()
  health(): { status: 'ok'; spec_version: string } {
    return { status: 'ok', spec_version: CURRENT_SPEC_VERSION };
  }
}
