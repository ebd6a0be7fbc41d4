/**
 * The pages one after the other, as a reader goes through them (issue 33): README.md, then the pages
 * in the order docs/README.md lists them, on ONE copy of docs/examples/ — what a page leaves there is
 * what the next one finds, as in a reader's clone. docs.e2e-spec.ts runs each page apart on its own
 * copy; a page that passes there and fails here depends on, or spoils, what another page left. After
 * each page every shipped example must be as shipped (an example that edits a shipped file with
 * `sed -i` fails here, naming the page). Each page keeps its own shell and stack, as apart.
 *
 * The pages of REPEATED run twice in a row against the same stack: a reader who goes through the page
 * again against the same service must read the same answers (api.md makes its own organizations and
 * keys, so a quota, the test allowance, a rate limit or an idempotency key starts afresh).
 */
import { docFiles, readingOrder, removeSandbox, sandbox } from './harness';
import { describePage } from './pages';

jest.setTimeout(180_000);

const REPEATED = new Set(['docs/api.md']);

describe('the pages in reading order, on one copy of docs/examples', () => {
  let examples = '';
  beforeAll(() => {
    examples = sandbox();
  });
  afterAll(() => {
    if (examples) removeSandbox(examples);
  });
  for (const doc of readingOrder(docFiles())) {
    describe(`${doc}, in sequence`, () => {
      describePage(doc, { examples: () => examples, passes: REPEATED.has(doc) ? 2 : 1 });
    });
  }
});
