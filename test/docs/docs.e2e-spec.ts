/**
 * Docs as tests (issue 27): every example of README.md, docs/*.md and docs/fr/*.md runs, in the order
 * of the text, in one shell per doc whose working directory holds docs/examples/ — offline ones
 * against the built CLI (`npx ppfile` is `node bin/ppfile.js`), the others against one stack per doc
 * (a gateway on a port, a worker, a fresh database, s3rver), and what the doc shows must be what came
 * out (masked: ids, timestamps, keys). The convention of the blocks: docs/README.md.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startGateway, type Gateway } from '../support/gateway';
import { buildIfStale, GATEWAY_MAIN, startWorker, workerConfigFor } from '../support/worker';
import {
  docFiles,
  fencedBlocks,
  kindOf,
  needsStack,
  openShell,
  removeSandbox,
  ROOT,
  runBlock,
  sandbox,
} from './harness';
import type { Shell } from './shell';

jest.setTimeout(180_000);

/** The day the examples were run: the gateway's clock is set to it, as `--today` does offline. */
const EXAMPLES_DAY = Date.parse('2026-11-23T14:00:00Z');

for (const doc of docFiles()) {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const blocks = fencedBlocks(text);
  describe(doc, () => {
    let cwd = '';
    let shell: Shell;
    let gw: Gateway | undefined;
    let worker: INestApplicationContext | undefined;

    beforeAll(async () => {
      cwd = sandbox();
      // An example that runs the built gateway (operating.md) needs it built, as other e2e tests do.
      if (text.includes('dist/apps/gateway/')) buildIfStale('gateway', GATEWAY_MAIN);
      const env: Record<string, string> = {};
      if (needsStack(blocks)) {
        gw = await startGateway({ publicBaseUrl: 'http://localhost:3000' });
        gw.clock.advance(EXAMPLES_DAY - Date.now());
        worker = await startWorker(workerConfigFor(gw));
        await gw.app.listen(0, '127.0.0.1');
        const address = gw.app.getHttpServer().address();
        const port = typeof address === 'object' && address ? address.port : 0;
        // Keys only for a doc that uses them: an organization listing (cli.md) shows no other.
        if (/\$(KEY|TEST_KEY|FREE_KEY)\b/.test(text)) {
          const pro = await gw.organization('pro', 'Docs pro organization');
          const free = await gw.organization('free', 'Docs free organization');
          Object.assign(env, { KEY: pro.live, TEST_KEY: pro.test, FREE_KEY: free.live });
        }
        Object.assign(env, {
          BASE: `http://127.0.0.1:${port}`,
          DATABASE_URL: gw.config.databaseUrl,
          S3_ENDPOINT: gw.config.s3.endpoint,
          S3_ACCESS_KEY: gw.config.s3.accessKey,
          S3_SECRET_KEY: gw.config.s3.secretKey,
          S3_BUCKET: gw.config.s3.bucket,
          PUBLIC_BASE_URL: 'http://localhost:3000',
        });
      }
      shell = openShell(cwd, env);
    });

    afterAll(async () => {
      shell?.close();
      await worker?.close();
      await gw?.close();
      if (cwd) removeSandbox(cwd);
    });

    it('marks every fenced block (run, file or not-run with a reason)', () => {
      const unmarked = blocks.flatMap((b) => {
        const k = kindOf(b);
        return typeof k === 'object' ? [`${doc}:${b.line}: ${k.unmarked}`] : [];
      });
      expect(unmarked).toEqual([]);
    });

    for (const block of blocks) {
      const kind = kindOf(block);
      if (typeof kind === 'object' || kind === 'not-run' || kind === 'elsewhere') continue;
      it(`${doc}:${block.line} (${kind === 'file' ? `file ${block.attrs.file}` : `run=${kind}`})`, async () => {
        const problems = await runBlock(doc, block, shell, cwd);
        if (problems.length) throw new Error(problems.join('\n\n'));
      });
    }
  });
}
