import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createGatewayApp } from './app.factory';
import { ConfigError, loadGatewayConfig } from './config';

async function bootstrap(): Promise<void> {
  const config = loadGatewayConfig();
  const app = await createGatewayApp(config);
  await app.listen(config.port, '0.0.0.0');
  new Logger('gateway').log(`ppfile gateway listening on ${config.publicBaseUrl} (API /v1, docs ${config.publicBaseUrl}/docs)`);
}

bootstrap().catch((e: Error) => {
  // A configuration mistake is a one-line explanation, not a stack trace.
  if (e instanceof ConfigError) console.error(`ppfile gateway: ${e.message}`);
  else console.error(`ppfile gateway: failed to start: ${e.name}: ${e.message}`);
  process.exit(1);
});
