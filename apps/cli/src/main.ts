import { RequestError } from '@ppfile/rules';
import {
  EXIT_USAGE,
  formatRequestError,
  printJson,
  processOutput,
  requestErrorBody,
  requestErrorExit,
  UsageError,
  type Output,
} from './cli-io';
import { checkCommand } from './commands/check';
import { generateCommand } from './commands/generate';
import { refdataCommand } from './commands/refdata';
import { validateCommand } from './commands/validate';

const USAGE = `ppfile — official Passeport de Prévention bulk-import files, offline

  ppfile validate FILE.csv --type adf|jdr --declarant employer|training_organization
                 [--no-strict-references] [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile check BODY.json [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile generate BODY.json [-o OUT.csv] [--today YYYY-MM-DD] [--lang en|fr] [--json]
  ppfile refdata import --list rome|formacode|nsf|rs FILE... [--dir DIR] [--partial] [--json]

Exit status: 0 valid / generated, 1 invalid, 2 usage or I/O error.
PPFILE_REFERENCE_DATA points at another reference-data directory.
`;

const COMMANDS: Record<string, (args: string[], output: Output, env: NodeJS.ProcessEnv) => number> = {
  validate: validateCommand,
  check: checkCommand,
  generate: generateCommand,
  refdata: refdataCommand,
};

export function run(argv: string[], output: Output = processOutput, env: NodeJS.ProcessEnv = process.env): number {
  const [name, ...args] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    output.out(USAGE);
    return name === undefined ? EXIT_USAGE : 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    output.err(`ppfile: unknown command "${name}"\n\n${USAGE}`);
    return EXIT_USAGE;
  }
  const json = args.includes('--json');
  try {
    return command(args, output, env);
  } catch (e) {
    if (e instanceof RequestError) {
      if (json) printJson(output, requestErrorBody(e));
      else output.err(formatRequestError(e));
      return requestErrorExit(e);
    }
    if (e instanceof UsageError) {
      output.err(`ppfile ${name}: ${e.message}\n`);
      return EXIT_USAGE;
    }
    throw e;
  }
}

if (require.main === module) {
  process.exitCode = run(process.argv.slice(2));
}
