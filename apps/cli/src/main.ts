import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Lang } from '@ppfile/rules';
import { langOption, parseCommand, requestedLang } from './args';
import { EXIT_OK, EXIT_USAGE, processOutput, UsageError, type Output } from './cli-io';
import { ROOT, type Node } from './command-tree';
import { helpText } from './help';
import { say } from './words';

/**
 * `ppfile …`: finds the command in the command tree, answers --version and --help itself (no
 * command code is loaded for them), then loads and runs the command. The exit status; a promise of
 * it once a command runs.
 */
export function run(
  argv: string[],
  output: Output = processOutput,
  env: NodeJS.ProcessEnv = process.env,
): number | Promise<number> {
  // Read before parsing, so that even a refusal of the command line is worded in it.
  let lang = requestedLang(argv);
  const asksHelp = argv[0] === 'help';
  const { node, names, rest } = resolve(asksHelp ? argv.slice(1) : argv);
  const command = ['ppfile', ...names].join(' ');
  const refuse = (text: string, withUsage: boolean, by = command): number => {
    output.err(`${say(lang, 'error_line', { command: by, message: text })}\n`);
    if (withUsage) output.err(`\n${helpText(names, node, lang)}`);
    return EXIT_USAGE;
  };

  if (node.kind === 'group') {
    const extra = withoutLang(rest);
    const word = extra.find((a) => !a.startsWith('-'));
    if (word !== undefined) {
      return refuse(say(lang, 'unknown_command', { name: [...names, word].join(' ') }), true, 'ppfile');
    }
    if (names.length === 0 && (extra.includes('--version') || extra.includes('-V'))) {
      output.out(`ppfile ${packageVersion()}\n`);
      return EXIT_OK;
    }
    if (asksHelp || extra.includes('--help') || extra.includes('-h')) {
      output.out(helpText(names, node, lang));
      return EXIT_OK;
    }
    if (extra.length > 0) return refuse(say(lang, 'unknown_option', { option: extra[0]! }), true);
    // `ppfile` or `ppfile admin` alone: what could follow, as a refusal.
    output.err(helpText(names, node, lang));
    return EXIT_USAGE;
  }

  if (asksHelp) {
    output.out(helpText(names, node, lang));
    return EXIT_OK;
  }
  let parsed: ReturnType<typeof parseCommand>;
  try {
    parsed = parseCommand(rest, node);
    if (!parsed.help) lang = langOption(parsed.values.lang);
  } catch (e) {
    if (e instanceof UsageError) return refuse(e.text(lang), false);
    throw e;
  }
  if (parsed.help) {
    output.out(helpText(names, node, lang));
    return EXIT_OK;
  }
  const { values, positionals } = parsed;
  return (async () => {
    try {
      const runner = await node.load();
      return await runner({ values, positionals, output, env, lang });
    } catch (e) {
      if (e instanceof UsageError) return refuse(e.text(lang), false);
      const late = await lateReferenceError(e);
      if (late) return refuse(late.text(lang), false);
      return reportFailure(e, output, lang, values.json === true);
    }
  })();
}

/** The deepest command or group the leading words name, and the arguments after them. */
function resolve(argv: string[]): { node: Node; names: string[]; rest: string[] } {
  let node: Node = ROOT;
  const names: string[] = [];
  for (const word of argv) {
    if (node.kind !== 'group') break;
    const child: Node | undefined = node.children[word];
    if (!child) break;
    node = child;
    names.push(word);
  }
  return { node, names, rest: argv.slice(names.length) };
}

/** The arguments but --lang and its value, which every level accepts. */
function withoutLang(args: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--lang') i++;
    else if (!args[i]!.startsWith('--lang=')) kept.push(args[i]!);
  }
  return kept;
}

/**
 * A reference list read in the middle of a command (references.ts) that cannot be: the usage error
 * it would have been had it been read first. Loads references.ts only for an error of that name.
 */
async function lateReferenceError(error: unknown): Promise<UsageError | null> {
  if (!(error instanceof Error && error.name === 'ReferenceDataError')) return null;
  const { referenceUsageError } = await import('./references');
  return referenceUsageError(error);
}

/** A request the API would refuse (its error body, its status); anything else is unexpected. */
async function reportFailure(error: unknown, output: Output, lang: Lang, json: boolean): Promise<number> {
  const { reportRequestError } = await import('./commands/request-error');
  const status = reportRequestError(error, output, lang, json);
  if (status === undefined) throw error;
  return status;
}

/** The version of the package.json above this file: the repository's, in a checkout or the image. */
function packageVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'ppfile' && pkg.version) return pkg.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

if (require.main === module) {
  const status = run(process.argv.slice(2));
  if (typeof status === 'number') process.exitCode = status;
  else void status.then((code) => (process.exitCode = code));
}
