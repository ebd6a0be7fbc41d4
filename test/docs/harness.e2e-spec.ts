/**
 * The docs harness itself (test/docs): it fails on a doc that drifts, naming the file and line — shown
 * here on drifts the docs had before issue 27 — and the French guides' examples are the English ones.
 */
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { compareHttp, compareLines } from './compare';
import {
  docFiles,
  EXAMPLES,
  fencedBlocks,
  kindOf,
  openShell,
  readingOrder,
  removeSandbox,
  ROOT,
  runBlock,
  sandbox,
  shippedChanges,
  workingDirectory,
} from './harness';
import type { Shell } from './shell';

jest.setTimeout(60_000);

const at = (text: string, line = 10) => text.split('\n').map((t, i) => ({ text: t, line: line + i }));

describe('the docs harness', () => {
  let cwd = '';
  let shell: Shell;

  beforeAll(() => {
    cwd = sandbox();
    shell = openShell(cwd, {});
  });

  afterAll(() => {
    shell?.close();
    if (cwd) removeSandbox(cwd);
  });

  it("fails on cli.md's old `0 warning(s)` for lf-only.csv, naming the file and line", async () => {
    const doc = [
      '# A page',
      '',
      '```console run=offline',
      '$ npx ppfile generate sst-2026-10.json -o sst-2026-10-lyon.csv --today 2026-11-23 > /dev/null 2>&1',
      "$ tr -d '\\r' < sst-2026-10-lyon.csv > lf-only.csv",
      '$ npx ppfile validate lf-only.csv --type adf --declarant training_organization --today 2026-11-23',
      'lf-only.csv: valid',
      '  rows: 3 total, 3 valid, 0 invalid; 0 error(s), 0 warning(s) (spec 2026-02)',
      '  warning line -: LF_LINE_ENDINGS — Lines end with LF only; the official format uses CRLF.',
      '```',
    ].join('\n');
    const [block] = fencedBlocks(doc);
    const problems = await runBlock('old-cli.md', block!, shell, cwd);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^old-cli\.md:8: the doc shows ".*0 warning\(s\).*", the run printed ".*1 warning\(s\)/,
    );
    expect(problems[0]).toContain('(command at old-cli.md:6:');
  });

  it('passes the same block once it says what the CLI prints', async () => {
    const doc = [
      '```console run=offline',
      '$ npx ppfile validate lf-only.csv --type adf --declarant training_organization --today 2026-11-23',
      'lf-only.csv: valid',
      '  rows: 3 total, 3 valid, 0 invalid; 0 error(s), 1 warning(s) (spec 2026-02)',
      '...',
      '```',
    ].join('\n');
    expect(await runBlock('fixed.md', fencedBlocks(doc)[0]!, shell, cwd)).toEqual([]);
  });

  it('fails on a file the text names that is neither shipped nor made earlier', async () => {
    const doc = '```json file=nosuch-body.json\n{}\n```';
    const problems = await runBlock('page.md', fencedBlocks(doc)[0]!, shell, cwd);
    expect(problems).toEqual([
      'page.md:1: the block is nosuch-body.json, which is neither in docs/examples/ nor made by an earlier example',
    ]);
  });

  it('fails on a body that differs from the shipped file of that name (one name, one body)', async () => {
    const doc = '```json file=sst-2026-10.json\n{"type": "adf"}\n```';
    const problems = await runBlock('page.md', fencedBlocks(doc)[0]!, shell, cwd);
    expect(problems).toEqual([
      'page.md:1: the block differs from docs/examples/sst-2026-10.json (another body?)',
    ]);
  });

  it("fails on api.md's old claim that If-None-Match still gets a 200", () => {
    const answer = 'HTTP/1.1 304 Not Modified\r\nETag: "28851f5c"\r\nX-Request-Id: req_1\r\n\r\n';
    expect(compareHttp(at('HTTP/1.1 200 OK\nContent-Type: text/csv; charset=utf-8', 40), answer)).toBe(
      'line 40: the doc shows "HTTP/1.1 200 OK", the server answered "HTTP/1.1 304 Not Modified"',
    );
    expect(compareHttp(at('HTTP/1.1 304 Not Modified\nETag: "28851f5c"', 40), answer)).toBeNull();
    expect(compareHttp(at('HTTP/1.1 304 Not Modified\nLocation: /v1/files/x', 40), answer)).toBe(
      'line 41: the doc shows the header Location, the answer has none',
    );
  });

  it('masks what differs on every run, and nothing else', () => {
    const shown = at(
      '{"file_id":"file_683053f059a77f186a0482288ac090fc","rows":3,"created_at":"2026-11-23T15:02:37.251Z"}',
    );
    expect(
      compareLines(
        shown,
        '{"file_id":"file_00000000000000000000000000000001","rows":3,"created_at":"2027-01-01T00:00:00.000Z"}',
      ),
    ).toBeNull();
    expect(
      compareLines(
        shown,
        '{"file_id":"file_00000000000000000000000000000001","rows":4,"created_at":"2027-01-01T00:00:00.000Z"}',
      ),
    ).toMatch(/^line 10: the doc shows/);
  });

  it('reads `...` as any lines and `…` as any text, and wants every other line', () => {
    expect(compareLines(at('a\n...\nd'), 'a\nb\nc\nd')).toBeNull();
    expect(compareLines(at('a … z'), 'a b c z')).toBeNull();
    expect(compareLines(at('a\nb'), 'a\nb\nc')).toMatch(/the run printed "c"/);
    expect(compareLines(at('a\nb\nc'), 'a\nb')).toMatch(
      /^line 12: the doc shows "c", the run printed \(end of output\)/,
    );
    expect(compareLines(at('b\nc', 20), 'a\nb\nc\nd', false)).toBeNull();
  });

  it('refuses an unmarked block and a not-run without its reason', () => {
    const [plain, noReason, marked] = fencedBlocks(
      '```console\n$ ls\n```\n\n```text not-run=""\nx\n```\n\n```text not-run="a synopsis"\nx\n```\n',
    );
    expect(kindOf(plain!)).toEqual({ unmarked: expect.stringContaining('mark the block') });
    expect(kindOf(noReason!)).toEqual({ unmarked: 'not-run needs a reason: not-run="why"' });
    expect(kindOf(marked!)).toBe('not-run');
  });
});

describe("the sandbox: a copy of docs/examples in a reader's clone", () => {
  let dir = '';
  let shell: Shell;

  beforeAll(() => {
    dir = sandbox();
    shell = openShell(dir, {});
  });

  afterAll(() => {
    shell?.close();
    if (dir) removeSandbox(dir);
  });

  it("names a shipped example an example changed in place (the guides' old `sed -i`)", async () => {
    expect(shippedChanges(dir)).toEqual([]);
    await shell.run("sed 's/;présentiel;/;PRESENTIEL;/' stagiaires-sst-2026-10.csv > my-stagiaires.csv");
    expect(shippedChanges(dir)).toEqual([]);
    await shell.run("sed -i 's/;présentiel;/;PRESENTIEL;/' stagiaires-sst-2026-10.csv && rm sst-broken.json");
    expect(shippedChanges(dir)).toEqual([
      'docs/examples/sst-broken.json: removed',
      'docs/examples/stagiaires-sst-2026-10.csv: changed',
    ]);
  });

  it('reaches the built programs as the repository does, and nothing from the root by its path', async () => {
    expect(workingDirectory('docs/api.md', dir)).toBe(dir);
    expect(workingDirectory('README.md', dir)).toBe(path.resolve(dir, '../..'));
    expect((await shell.run('test -f ../../dist/cli/apps/cli/src/main.js')).status).toBe(0);
    // api.md ran its typed client from the root (`node dist/…`, `docs/examples/…`) while it ran in
    // docs/examples: the sandbox no longer lets that pass.
    expect((await shell.run('test -e dist || test -e docs/examples')).status).toBe(1);
  });

  it("orders the pages as a reader reads them: README.md, then docs/README.md's list", () => {
    const order = readingOrder(docFiles({ all: true }));
    expect(order.slice(0, 4)).toEqual([
      'README.md',
      'docs/README.md',
      'docs/guide-training-organization.md',
      'docs/guide-employer.md',
    ]);
    expect([...order].sort()).toEqual([...docFiles({ all: true })].sort());
  });
});

describe('docs/examples', () => {
  it('ships only files a doc names', () => {
    const text = docFiles({ all: true })
      .map((f) => readFileSync(path.join(ROOT, f), 'utf8'))
      .join('\n');
    const unused = readdirSync(EXAMPLES).filter((f) => !text.includes(f));
    expect(readdirSync(EXAMPLES).length).toBeGreaterThan(5);
    expect(unused).toEqual([]);
  });
});

describe('the French guides hold the English guides’ examples', () => {
  const TWINS: [string, string][] = [
    ['docs/fr/guide-organisme-de-formation.md', 'docs/guide-training-organization.md'],
    ['docs/fr/guide-employeur.md', 'docs/guide-employer.md'],
  ];
  const runnable = (file: string) =>
    fencedBlocks(readFileSync(path.join(ROOT, file), 'utf8')).filter((b) =>
      ['offline', 'stack', 'file'].includes(kindOf(b) as string),
    );
  const same = (a: ReturnType<typeof runnable>[number], b: ReturnType<typeof runnable>[number]) =>
    a.lang === b.lang &&
    JSON.stringify(a.attrs) === JSON.stringify(b.attrs) &&
    a.lines.join('\n') === b.lines.join('\n');

  for (const [fr, en] of TWINS) {
    it(`every runnable block of ${fr} is one of ${en}, byte for byte`, () => {
      const french = runnable(fr);
      const english = runnable(en);
      expect(french.length).toBeGreaterThan(0);
      const strays = french
        .filter((f) => !english.some((e) => same(f, e)))
        .map(
          (f) =>
            `${fr}:${f.line}: this example is not in ${en} (copy the English block, info string included)`,
        );
      expect(strays).toEqual([]);
    });
  }
});
