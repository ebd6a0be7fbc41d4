/**
 * The gateway's environment, validated once at boot (API.md §13). Nothing else reads process.env.
 */
export interface GatewayConfig {
  port: number;
  publicBaseUrl: string;
}

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const port = env.PORT === undefined || env.PORT === '' ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535 (got "${env.PORT}")`);
  }
  return { port, publicBaseUrl: env.PUBLIC_BASE_URL || `http://localhost:${port}` };
}
