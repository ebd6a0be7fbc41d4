/**
 * Docs as tests (issue 27): every example of README.md, docs/*.md and docs/fr/*.md runs, in the order
 * of the text, in one shell per doc whose working directory is a fresh copy of docs/examples/ (the
 * repository root for README.md and operating.md) — offline ones against the built CLI (`npx ppfile`
 * is `node bin/ppfile.js`), the others against one stack per doc (a gateway on a port, a worker, a
 * fresh database, s3rver), and what the doc shows must be what came out (masked: ids, timestamps,
 * keys); after each doc, every shipped example is as shipped. sequence.e2e-spec.ts runs the same
 * pages one after the other on one copy. The convention of the blocks: docs/README.md.
 */
import { docFiles, removeSandbox, sandbox } from './harness';
import { describePage } from './pages';

jest.setTimeout(180_000);

for (const doc of docFiles()) {
  describe(doc, () => {
    let examples = '';
    beforeAll(() => {
      examples = sandbox();
    });
    afterAll(() => {
      if (examples) removeSandbox(examples);
    });
    describePage(doc, { examples: () => examples, checkMarks: true });
  });
}
