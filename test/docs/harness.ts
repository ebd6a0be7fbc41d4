import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { compareHttp, compareLines, mask } from './compare';
import { commands, fencedBlocks, type Block } from './markdown';
import { Shell } from './shell';

export const ROOT = path.resolve(__dirname, '../..');
export const EXAMPLES = path.join(ROOT, 'docs', 'examples');

/** The docs whose examples are tests: README.md, docs/*.md, docs/fr/*.md. */
export function docFiles(options: { all?: boolean } = {}): string[] {
  const md = (dir: string) =>
    existsSync(path.join(ROOT, dir))
      ? readdirSync(path.join(ROOT, dir))
          .filter((f) => f.endsWith('.md'))
          .sort()
          .map((f) => path.posix.join(dir, f))
      : [];
  const all = ['README.md', ...md('docs'), ...md('docs/fr')];
  // PPFILE_DOCS=docs/cli.md,README.md runs only those (while writing a doc).
  const only = options.all ? undefined : process.env.PPFILE_DOCS?.split(',').filter(Boolean);
  return only ? all.filter((f) => only.includes(f)) : all;
}

export type Kind = 'offline' | 'stack' | 'file' | 'not-run' | 'elsewhere';

/** What a block is, or why it is not marked (an error naming the line). */
export function kindOf(block: Block): Kind | { unmarked: string } {
  const { attrs, comment } = block;
  if (comment && /runs this block/.test(comment)) return 'elsewhere';
  if ('not-run' in attrs) {
    return attrs['not-run']!.trim() ? 'not-run' : { unmarked: 'not-run needs a reason: not-run="why"' };
  }
  if (attrs.run === 'offline' || attrs.run === 'stack') {
    if (!['console', 'bash', 'sh'].includes(block.lang))
      return { unmarked: `run=${attrs.run} is for console, bash or sh blocks` };
    return attrs.run;
  }
  if (attrs.file) return 'file';
  return {
    unmarked: 'mark the block: run=offline, run=stack, file=NAME or not-run="reason" (docs/README.md)',
  };
}

/** Whether any block of the doc needs the stack. */
export function needsStack(blocks: Block[]): boolean {
  return blocks.some((b) => kindOf(b) === 'stack');
}

/**
 * The pages whose examples run from the repository root (README.md says "from the repository's
 * directory"; operating.md starts the built gateway, `node dist/…`). Every other page runs in
 * docs/examples/, as each says.
 */
const FROM_ROOT = new Set(['README.md', 'docs/operating.md']);

/** SHA-256 of every shipped example, as copied into each sandbox (keyed by its docs/examples). */
const shippedHashes = new Map<string, Map<string, string>>();

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * A reader's clone, as far as the examples see it: a temporary directory holding a copy of
 * docs/examples/ at `docs/examples` and the built `dist` (a link to the repository's). Answers the
 * copy of docs/examples/, where the pages' examples run (`cd docs/examples`); `../../dist/…` reaches
 * the built programs from there, as it does in the repository. Nothing points back from the copy to
 * the repository root: a page that changes directory mid-way, or names `docs/examples/x` while it
 * says it runs in docs/examples/, fails as it would for its reader.
 */
export function sandbox(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'ppfile-docs-'));
  const dir = path.join(root, 'docs', 'examples');
  mkdirSync(dir, { recursive: true });
  const hashes = new Map<string, string>();
  for (const f of readdirSync(EXAMPLES)) {
    copyFileSync(path.join(EXAMPLES, f), path.join(dir, f));
    hashes.set(f, sha256(path.join(dir, f)));
  }
  shippedHashes.set(dir, hashes);
  symlinkSync(path.join(ROOT, 'dist'), path.join(root, 'dist'));
  return dir;
}

/** The sandbox's root: the directory that plays the repository's (README.md's examples run there). */
export function sandboxRoot(dir: string): string {
  return path.resolve(dir, '..', '..');
}

/** Where `doc`'s examples run in the sandbox whose docs/examples is `dir`. */
export function workingDirectory(doc: string, dir: string): string {
  return FROM_ROOT.has(doc) ? sandboxRoot(dir) : dir;
}

/**
 * The shipped examples that are no longer as shipped in the sandbox `dir` (changed or removed):
 * an example must never change a file the repository ships, or the next reader — and the next page —
 * starts from another file. Empty when every one is intact.
 */
export function shippedChanges(dir: string): string[] {
  const hashes = shippedHashes.get(dir);
  if (!hashes) throw new Error(`${dir} is not a docs sandbox`);
  return [...hashes].flatMap(([f, hash]) => {
    const file = path.join(dir, f);
    if (!existsSync(file)) return [`docs/examples/${f}: removed`];
    return sha256(file) === hash ? [] : [`docs/examples/${f}: changed`];
  });
}

export function removeSandbox(dir: string): void {
  shippedHashes.delete(dir);
  const root = sandboxRoot(dir);
  // Only what sandbox() made: <tmp>/ppfile-docs-…/docs/examples.
  if (path.basename(root).startsWith('ppfile-docs-') && path.dirname(root) === path.resolve(tmpdir()))
    rmSync(root, { recursive: true, force: true });
}

/**
 * The order in which a reader goes through the pages: README.md, then the pages in the order
 * docs/README.md lists them, then any page it does not list.
 */
export function readingOrder(docs: string[] = docFiles()): string[] {
  const index = readFileSync(path.join(ROOT, 'docs', 'README.md'), 'utf8');
  const listed = [...index.matchAll(/\]\(([^)#\s]+\.md)\)/g)].map((m) => path.posix.join('docs', m[1]!));
  const order = ['README.md', 'docs/README.md', ...listed];
  const known = order.filter((d, i) => docs.includes(d) && order.indexOf(d) === i);
  return [...known, ...docs.filter((d) => !known.includes(d))];
}

/** `npx ppfile` is the repository's CLI, as `npx` finds it from the repository root. */
const PRELUDE = `npx() { if [ "$1" = ppfile ]; then shift; node "$PPFILE_ROOT/bin/ppfile.js" "$@"; else command npx "$@"; fi; }`;

export function openShell(cwd: string, env: Record<string, string>): Shell {
  const base: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    PPFILE_ROOT: ROOT,
  };
  return new Shell(cwd, { ...base, ...env }, PRELUDE);
}

/** Runs one block in the shell (or checks one file block); a message naming doc:line on a difference. */
export async function runBlock(doc: string, block: Block, shell: Shell, cwd: string): Promise<string[]> {
  const problems: string[] = [];
  const kind = kindOf(block);
  if (kind === 'file') {
    const name = block.attrs.file!;
    // Made by an earlier example in the working directory, or shipped in docs/examples/ (README.md
    // runs from the repository root and shows shipped files too).
    const file = [path.join(cwd, name), path.join(cwd, 'docs', 'examples', name)].find((f) => existsSync(f));
    if (!file) {
      return [
        `${doc}:${block.line}: the block is ${name}, which is neither in docs/examples/ nor made by an earlier example`,
      ];
    }
    const actual = readFileSync(file, 'utf8');
    if (name.endsWith('.json') && !('excerpt' in block.attrs)) {
      let shown: unknown;
      try {
        shown = JSON.parse(block.lines.join('\n'));
      } catch (e) {
        return [`${doc}:${block.line}: the block of ${name} is not JSON: ${(e as Error).message}`];
      }
      if (!isDeepStrictEqual(shown, JSON.parse(actual)))
        problems.push(`${doc}:${block.line}: the block differs from docs/examples/${name} (another body?)`);
      return problems;
    }
    const expected = block.lines.map((text, i) => ({ text, line: block.line + 1 + i }));
    const diff = compareLines(expected, actual, !('excerpt' in block.attrs));
    if (diff) problems.push(`${doc}:${diff.replace(/^line /, '')} (file ${name})`);
    return problems;
  }
  if (kind !== 'offline' && kind !== 'stack') return problems;
  if (block.lang !== 'console') {
    // A script without the output shown: it must run to the end and exit 0.
    const { output, status } = await shell.run(`(\nset -e\n${block.lines.join('\n')}\n)`);
    if (status !== 0)
      problems.push(`${doc}:${block.line}: the script exited with status ${status}:\n${mask(output)}`);
    return problems;
  }
  for (const c of commands(block)) {
    const { output } = await shell.run(c.text);
    const http = c.expected[0]?.text.startsWith('HTTP/');
    const diff = http ? compareHttp(c.expected, output) : compareLines(c.expected, output);
    // No expected line to name (the doc shows no output): name the command's line.
    const where = diff?.replace(/^line \?/, `line ${c.line}`);
    if (where)
      problems.push(`${doc}:${where.replace(/^line /, '')}\n  (command at ${doc}:${c.line}: $ ${c.text})`);
  }
  return problems;
}

export { fencedBlocks };
