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
 * The examples' working directory: a copy of docs/examples/ (where the text says the files are),
 * with `docs/examples` and `dist` pointing back so that commands written from the repository root
 * (`docs/examples/x.json`, `node dist/…`) run too.
 */
export function sandbox(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ppfile-docs-'));
  for (const f of readdirSync(EXAMPLES)) copyFileSync(path.join(EXAMPLES, f), path.join(dir, f));
  mkdirSync(path.join(dir, 'docs'));
  symlinkSync(dir, path.join(dir, 'docs', 'examples'));
  symlinkSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'));
  return dir;
}

export function removeSandbox(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
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
    const file = path.join(cwd, name);
    if (!existsSync(file)) {
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
