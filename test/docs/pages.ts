/**
 * One page's examples as jest tests (docs.e2e-spec.ts runs each page apart, sequence.e2e-spec.ts all
 * of them on one copy of docs/examples): a shell in the page's working directory, and for a page with
 * `run=stack` blocks its own stack (a gateway on a port, a worker, a fresh database, s3rver) whose day
 * is EXAMPLES_DAY. After the page, every shipped example must be as shipped.
 */
import type { INestApplicationContext } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { startGateway, type Gateway } from '../support/gateway';
import { assertBuilt, GATEWAY_MAIN, startWorker, workerConfigFor } from '../support/worker';
import {
  fencedBlocks,
  kindOf,
  needsStack,
  openShell,
  ROOT,
  runBlock,
  shippedChanges,
  workingDirectory,
} from './harness';
import type { Shell } from './shell';

/** The day the examples were run: the gateway's clock is set to it, as `--today` does offline. */
const EXAMPLES_DAY = Date.parse('2026-11-23T14:00:00Z');

/** The keys a page may use without making them (docs/README.md); the harness makes those it uses. */
const KEYS = ['KEY', 'TEST_KEY', 'FREE_KEY'] as const;

export interface PageOptions {
  /** The copy of docs/examples the page runs in (made by the caller before the page's tests run). */
  examples: () => string;
  /** Also test that every fenced block is marked (once is enough: docs.e2e-spec.ts). */
  checkMarks?: boolean;
  /**
   * Run the page's examples this many times in a row, in the same shell against the same stack, as
   * a reader who goes through the page again: every pass must print what the page shows.
   */
  passes?: number;
}

/** Registers `doc`'s hooks and tests in the enclosing `describe`. */
export function describePage(doc: string, options: PageOptions): void {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const blocks = fencedBlocks(text);
  const passes = options.passes ?? 1;
  let cwd = '';
  let shell: Shell;
  let gw: Gateway | undefined;
  let worker: INestApplicationContext | undefined;
  // What an earlier page changed (on a shared copy) is that page's fault, reported there.
  let changedBefore: string[] = [];

  beforeAll(async () => {
    changedBefore = shippedChanges(options.examples());
    cwd = workingDirectory(doc, options.examples());
    // An example that runs the built gateway (operating.md) needs it built, as other e2e tests do.
    if (text.includes('dist/apps/gateway/')) assertBuilt('gateway', GATEWAY_MAIN);
    const env: Record<string, string> = {};
    if (needsStack(blocks)) {
      gw = await startGateway({ publicBaseUrl: 'http://localhost:3000' });
      gw.clock.advance(EXAMPLES_DAY - Date.now());
      worker = await startWorker(workerConfigFor(gw));
      await gw.app.listen(0, '127.0.0.1');
      const address = gw.app.getHttpServer().address();
      const port = typeof address === 'object' && address ? address.port : 0;
      // Keys only for a page that uses them without making them (api.md makes its own with
      // `ppfile admin`): an organization listing (cli.md) shows no other.
      const given = KEYS.filter(
        (k) => new RegExp(`\\$${k}\\b`).test(text) && !new RegExp(`^\\$ ${k}=`, 'm').test(text),
      );
      if (given.length) {
        const pro = await gw.organization('pro', 'Docs pro organization');
        const free = await gw.organization('free', 'Docs free organization');
        const keys: Record<(typeof KEYS)[number], string> = {
          KEY: pro.live,
          TEST_KEY: pro.test,
          FREE_KEY: free.live,
        };
        for (const k of given) env[k] = keys[k];
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
  });

  if (options.checkMarks) {
    it('marks every fenced block (run, file or not-run with a reason)', () => {
      const unmarked = blocks.flatMap((b) => {
        const k = kindOf(b);
        return typeof k === 'object' ? [`${doc}:${b.line}: ${k.unmarked}`] : [];
      });
      expect(unmarked).toEqual([]);
    });
  }

  for (let pass = 1; pass <= passes; pass++) {
    for (const block of blocks) {
      const kind = kindOf(block);
      if (typeof kind === 'object' || kind === 'not-run' || kind === 'elsewhere') continue;
      const what = kind === 'file' ? `file ${block.attrs.file}` : `run=${kind}`;
      it(`${doc}:${block.line} (${what}${passes > 1 ? `, pass ${pass}` : ''})`, async () => {
        const problems = await runBlock(doc, block, shell, cwd);
        if (problems.length) throw new Error(problems.join('\n\n'));
      });
    }
  }

  it('leaves every shipped example as it was (an example copies a file before changing it)', () => {
    const changed = shippedChanges(options.examples())
      .filter((c) => !changedBefore.includes(c))
      .map((c) => `${c} by the examples of ${doc} (copy it first, or write a new file)`);
    expect(changed).toEqual([]);
  });
}
