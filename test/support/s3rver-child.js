/**
 * s3rver in a process of its own, for test/support/stack.ts (PrivateS3): killing this process
 * really closes every socket, which an in-process `server.close()` does not guarantee.
 *
 *   node s3rver-child.js <port> <directory>
 *
 * Prints `S3RVER READY <port>` on stdout once listening. Same options as libs/storage's
 * startLocalS3 (path-style, loopback, silent), no buckets configured at boot.
 */
const { mkdirSync } = require('node:fs');
const S3rver = require('s3rver');

const port = Number(process.argv[2]);
const directory = process.argv[3];
if (!Number.isInteger(port) || port <= 0 || !directory) {
  console.error('usage: s3rver-child.js <port> <directory>');
  process.exit(2);
}
mkdirSync(directory, { recursive: true });

const server = new S3rver({
  port,
  address: '127.0.0.1',
  silent: true,
  directory,
  vhostBuckets: false,
  configureBuckets: [],
});
server.run().then(
  (address) => console.log(`S3RVER READY ${address.port}`),
  (error) => {
    console.error(`S3RVER FAILED ${error && error.stack ? error.stack : error}`);
    process.exit(1);
  },
);
