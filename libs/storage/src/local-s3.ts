import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';

/** s3rver's fixed credentials. */
export const LOCAL_S3_CREDENTIALS = { accessKey: 'S3RVER', secretKey: 'S3RVER' } as const;

export interface LocalS3 {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * A local S3-compatible endpoint (s3rver, a devDependency) for tests and for a newcomer's first
 * run when S3_ENDPOINT is unset. Loopback only; never used in production.
 */
export async function startLocalS3(opts: {
  directory: string;
  port?: number;
  address?: string;
}): Promise<LocalS3> {
  mkdirSync(opts.directory, { recursive: true });
  // Required lazily: s3rver is a devDependency and production never loads it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const S3rver = require('s3rver') as new (options: object) => {
    run(): Promise<unknown>;
    close(): Promise<void>;
    httpServer?: { closeAllConnections?: () => void };
  };
  const server = new S3rver({
    address: opts.address ?? '127.0.0.1',
    port: opts.port ?? 0,
    silent: true,
    directory: opts.directory,
    vhostBuckets: false,
  });
  const address = (await server.run()) as AddressInfo;
  return {
    endpoint: `http://${address.address}:${address.port}`,
    // Its kept-alive connections closed too: a client that asks every second (a worker's readiness
    // check) keeps its connection busy, and `close()` alone would wait for it for ever.
    close: async () => {
      const closing = server.close();
      server.httpServer?.closeAllConnections?.();
      await closing;
    },
  };
}
